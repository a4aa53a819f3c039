#!/bin/bash
# trace-cmd records the function_graph tracer on one call tree and its
# report decodes every record.
. "$(dirname "$0")/lib.sh"
need trace-cmd
trace-cmd record -q -p function_graph -g do_sys_openat2 -o fg.dat -- cat /etc/hostname >/dev/null ||
	fail "trace-cmd record failed"
trace-cmd report -i fg.dat >report.txt 2>&1 || fail "trace-cmd report failed"
grep -q 'FAILED TO PARSE' report.txt && fail "unparsed records: $(grep -m1 'FAILED TO PARSE' report.txt)"
grep -qE 'funcgraph_entry: .*do_sys_openat2\(\)' report.txt || fail "no do_sys_openat2 entry: $(head -5 report.txt)"
grep -qE 'funcgraph_exit: .* us +\| +\}' report.txt || fail "no exit record with a duration"
echo "$(grep -c funcgraph_ report.txt) records decoded"
