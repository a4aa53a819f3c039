#!/bin/bash
# trace-cmd records the three function events (ftrace:function,
# ftrace:function_graph, ftrace:function_duration) on a filtered function
# and decodes every field through the events' format files, with no
# "FAILED TO PARSE".
. "$(dirname "$0")/lib.sh"
need trace-cmd
for e in function function_graph function_duration; do
	[ -f $T/events/ftrace/$e/enable ] || fail "ftrace:$e has no enable file"
done
echo ksys_read >$T/set_ftrace_filter
trace-cmd record -q -e ftrace:function -e ftrace:function_graph -e ftrace:function_duration \
	-o ev.dat -- dd if=/dev/zero of=/dev/null bs=1 count=50 2>/dev/null || fail "trace-cmd record failed"
echo >$T/set_ftrace_filter
trace-cmd report -i ev.dat >report.txt 2>&1 || fail "trace-cmd report failed"
grep -q 'FAILED TO PARSE' report.txt && fail "unparsed records: $(grep -m1 'FAILED TO PARSE' report.txt)"
grep -m3 'function_duration:' report.txt
grep -m2 'function_graph:' report.txt
grep -m1 ' function: ' report.txt

count() { grep -cE "$1" report.txt; }
# dd reads one byte at a time: ksys_read returns 1
n=$(count 'dd-[0-9]+ .*function_duration: +func=ksys_read parent=[A-Za-z_][A-Za-z0-9_.]* depth=[0-9]+ calltime=[0-9]+ duration=[1-9][0-9]* retval=1$')
[ "$n" -ge 50 ] || fail "function_duration: expected >= 50 decoded ksys_read returns of 1, got $n"
e=$(count 'dd-[0-9]+ .*function_graph: +entry func=ksys_read depth=[0-9]+ duration=0 retval=0$')
r=$(count 'dd-[0-9]+ .*function_graph: +return func=ksys_read depth=[0-9]+ duration=[1-9][0-9]* retval=1$')
[ "$e" -ge 50 ] && [ "$r" -ge 50 ] || fail "function_graph: expected >= 50 entries and returns, got $e and $r"
f=$(count 'dd-[0-9]+ .* function: +ksys_read <-- [A-Za-z_]')
[ "$f" -ge 50 ] || fail "function: expected >= 50 decoded ksys_read calls, got $f"
# Nothing but ksys_read was traced
other=$(grep -E 'function(_graph|_duration)?: ' report.txt | grep -vc 'ksys_read')
[ "$other" -eq 0 ] || fail "$other records of other functions: $(grep -E 'function(_graph|_duration)?: ' report.txt | grep -v ksys_read | head -3)"
echo "decoded: function_duration $n, function_graph $e entries and $r returns, function $f"
