# Helpers for the real-client tests. Sourced.
T=/sys/kernel/tracing
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$*"; exit 77; }
need() { command -v "$1" >/dev/null || skip "$1 is not installed"; }
# $PERF if set (the perf of the kernel tree), else Debian's: a wrapper
# that picks perf_<version>, so use the binary.
perf_bin() {
	local p
	[ -z "${PERF:-}" ] || { echo "$PERF"; return; }
	for p in /usr/bin/perf_* /usr/bin/perf; do
		[ -x "$p" ] && file -L "$p" 2>/dev/null | grep -q ELF && { echo "$p"; return; }
	done
	echo perf
}
