#!/bin/bash
cd /sys/kernel/tracing
echo function_graph > current_tracer
echo 1 > function_profile_enabled
echo nop > current_tracer
mkdir instances/par_fg instances/par_ev
echo vfs_read > instances/par_fg/set_graph_function
echo function_graph > instances/par_fg/current_tracer
echo ksys_read > instances/par_ev/set_ftrace_filter
echo 1 > instances/par_ev/events/ftrace/function_duration/enable
echo 1 > instances/par_ev/events/ftrace/function_graph/enable
for i in 1 2 3; do cat trace_options > /dev/null; done
echo 0 > instances/par_ev/tracing_on
echo "records in par_ev: $(grep -vc '^#' instances/par_ev/trace), not ksys_read: $(grep -v '^#' instances/par_ev/trace | grep -vc 'func=ksys_read')"
grep -v '^#' instances/par_ev/trace | grep -v 'func=ksys_read' | head -5
echo 0 > instances/par_ev/events/ftrace/function_duration/enable
echo 0 > instances/par_ev/events/ftrace/function_graph/enable
echo nop > instances/par_fg/current_tracer
rmdir instances/par_fg instances/par_ev
echo 0 > function_profile_enabled
