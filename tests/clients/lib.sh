# Helpers for the real-client tests. Sourced.
T=/sys/kernel/tracing
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$*"; exit 77; }
need() { command -v "$1" >/dev/null || skip "$1 is not installed"; }
# perf from Debian is a wrapper that picks perf_<version>; use the binary.
perf_bin() {
	local p
	for p in /usr/bin/perf_* /usr/bin/perf; do
		[ -x "$p" ] && file -L "$p" 2>/dev/null | grep -q ELF && { echo "$p"; return; }
	done
	echo perf
}
