#!/usr/bin/env bash
# Evidence for tests/upstream-exclude.list: run each excluded case alone on
# the unpatched base, then open dynamic_events once more (as the next case
# of the suite would), and keep the kernel's splat lines.
#   known-broken.sh [RESULTS]   (default build/results/known-broken)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
res=${1:-$BUILD/results/known-broken}
mkdir -p "$res"
"$TOP/scripts/tree.sh" basetree
"$TOP/scripts/build.sh" base >/dev/null
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/tests/upstream-exclude.list" >"$res/cases.list"
st=$BASE_TREE/tools/testing/selftests/ftrace
# The oops leaves the guest hung: panic on it, so the guest ends at once.
PANIC_ON_OOPS=1 "$TOP/scripts/vm.sh" -k base -r "$res" -t 600 -- bash -c "
	bash $TOP/tests/guest/ftracetest.sh $st excluded /mnt/results/cases.list
	cat /sys/kernel/tracing/dynamic_events >/dev/null; echo > /sys/kernel/tracing/dynamic_events
	echo 'after: dynamic_events reopened'" || true
python3 "$TOP/tests/report.py" scan "$res/dmesg.txt" "$res/console.log" | sort -u -t: -k3 >"$res/splats.txt" || true
echo "excluded cases on the base:"
sed -n 's/^\(not ok\|ok\) /  \1 /p' "$res/excluded.ktap" 2>/dev/null || echo "  (no result: the guest died)"
echo "kernel splat lines: $(wc -l <"$res/splats.txt") (in $res/splats.txt)"
head -20 "$res/splats.txt"
