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
# The kernel log lines after its first FROM lines (0: all of it) that
# report a fault, or match EXTRA (an extended regex), less the one known
# and analysed line (KNOWN_RE in tests/report.py).
SPLAT_ERE='WARNING:|BUG:|Oops|DEBUG_LOCKS_WARN_ON|possible reason|rcu_.*stall|detected stall|INFO: task .* blocked|possible .*lock|lockdep|KASAN|UBSAN'
KNOWN_SPLAT='WARNING: stack going in the wrong direction? at return_to_handler+0x46/'
kernel_splats() { # [FROM] [EXTRA]
	dmesg | tail -n +$((${1:-0} + 1)) | grep -E "$SPLAT_ERE${2:+|$2}" | grep -vF "$KNOWN_SPLAT"
}
