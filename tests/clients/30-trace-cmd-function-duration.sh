#!/bin/bash
# trace-cmd records the function_duration tracer and decodes its records
# through events/ftrace/function_duration/format: every field, no
# "FAILED TO PARSE".
. "$(dirname "$0")/lib.sh"
need trace-cmd
grep -qw function_duration $T/available_tracers || skip "no function_duration tracer"
[ -f $T/events/ftrace/function_duration/format ] || fail "no events/ftrace/function_duration/format"
trace-cmd record -q -p function_duration -l ksys_read -o fd.dat -- \
	dd if=/dev/zero of=/dev/null bs=1 count=50 2>/dev/null || fail "trace-cmd record failed"
trace-cmd report -i fd.dat >report.txt 2>&1 || fail "trace-cmd report failed"
grep -q 'FAILED TO PARSE' report.txt && fail "unparsed records: $(grep -m1 'FAILED TO PARSE' report.txt)"
n=$(grep -cE 'function_duration: +func=ksys_read parent=[A-Za-z0-9_.]+ depth=[0-9]+ calltime=[0-9]+ duration=[0-9]+ retval=-?[0-9]+' report.txt)
[ "$n" -ge 50 ] || fail "expected >= 50 decoded ksys_read records, got $n: $(grep -m3 function_duration report.txt)"
# The durations decode as numbers that are not all zero
awk '/function_duration:/ { for (i = 1; i <= NF; i++) if ($i ~ /^duration=/) { split($i, a, "="); if (a[2] > 0) ok = 1 } } END { exit !ok }' report.txt ||
	fail "all durations decode as 0"
echo "$n records decoded"
