#!/bin/bash
# perf records ftrace:function with an in-kernel ip filter, and perf script
# decodes the samples: only the chosen function appears.
. "$(dirname "$0")/lib.sh"
perf=$(perf_bin)
[ -x "$perf" ] || need perf
"$perf" record -q -e ftrace:function --filter 'ip == ksys_read' -a -o perf.data -- \
	dd if=/dev/zero of=/dev/null bs=1 count=200 2>err.txt || fail "perf record failed: $(cat err.txt)"
# -F trace: the event's own fields (ip <-- parent_ip), not the sample IP
"$perf" script -i perf.data -F comm,trace >script.txt 2>err.txt || fail "perf script failed: $(cat err.txt)"
n=$(grep -c ' ksys_read <-- ' script.txt)
[ "$n" -ge 200 ] || fail "expected >= 200 ksys_read samples, got $n: $(head -3 script.txt)"
other=$(grep -vc ' ksys_read <-- ' script.txt)
[ "$other" -eq 0 ] || fail "$other samples of other functions: $(grep -v ' ksys_read <-- ' script.txt | head -3)"
echo "$n samples"
