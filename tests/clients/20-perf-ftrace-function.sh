#!/bin/bash
# perf records ftrace:function with an in-kernel ip filter, and perf script
# decodes the samples: only the chosen function appears.
. "$(dirname "$0")/lib.sh"
perf=$(perf_bin)
[ -x "$perf" ] || need perf
"$perf" record -q -e ftrace:function --filter 'ip == ksys_read' -a -o perf.data -- \
	dd if=/dev/zero of=/dev/null bs=1 count=200 2>err.txt || fail "perf record failed: $(cat err.txt)"
# -F trace: the event's own fields, not the sample IP. Debian's perf 6.1
# prints "ip <-- parent_ip"; the tree's, with libtraceevent's function
# plugin, the ip alone
"$perf" script -i perf.data -F comm,trace >script.txt 2>err.txt || fail "perf script failed: $(cat err.txt)"
re=' ksys_read( <-- |$)'
n=$(grep -cE "$re" script.txt)
[ "$n" -ge 200 ] || fail "expected >= 200 ksys_read samples, got $n: $(head -3 script.txt)"
other=$(grep -vcE "$re" script.txt)
[ "$other" -eq 0 ] || fail "$other samples of other functions: $(grep -vE "$re" script.txt | head -3)"
echo "$n samples"
