#!/bin/bash
# Usage (in the guest, after make bench built build/bench/fbench): bash bench/profile.sh
# Where the time goes, ksys_read traced, cpu-clock samples of the whole guest
T=/sys/kernel/tracing
FB=${FB:-/work/main/build/bench/fbench}
N=100000
cd /tmp
prof() { # name
	perf record -q -e cpu-clock -F 10000 -a -o /tmp/p.$1 -- $FB syscall $N >/dev/null
	echo "=== $1 ==="
	perf report -i /tmp/p.$1 --stdio --sort comm,sym 2>/dev/null | grep -v '^#' | grep -v '^$' | head -${2:-25}
}
echo ksys_read > $T/set_ftrace_filter
prof none 10
echo function_duration > $T/current_tracer; prof function_duration; echo nop > $T/current_tracer
echo 10000000000 > $T/duration_thresh_ns
echo function_duration > $T/current_tracer; prof function_duration_floor; echo nop > $T/current_tracer
echo 0 > $T/duration_thresh_ns
echo function_graph > $T/current_tracer; prof function_graph; echo nop > $T/current_tracer
echo 1 > $T/events/ftrace/function/enable; prof ev_function; echo 0 > $T/events/ftrace/function/enable
perf record -q -e ftrace:function --filter 'ip == ksys_read' -a -o /tmp/pf.data &
pid=$!; sleep 5
prof perf_function
kill -INT $pid; wait $pid
echo 'hist:keys=func.sym,duration.log2' > $T/events/ftrace/function_duration/trigger; prof hist_duration
echo '!hist:keys=func.sym,duration.log2' > $T/events/ftrace/function_duration/trigger
echo > $T/set_ftrace_filter
