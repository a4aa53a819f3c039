#!/bin/bash
cd /sys/kernel/tracing
run() { # label, with_fg
	mkdir instances/par_ev
	[ $2 = 1 ] && { mkdir instances/par_fg; echo vfs_read > instances/par_fg/set_graph_function; echo function_graph > instances/par_fg/current_tracer; }
	echo ksys_read > instances/par_ev/set_ftrace_filter
	echo 1 > instances/par_ev/events/ftrace/function_duration/enable
	for i in 1 2 3; do cat trace_options > /dev/null; done
	echo 0 > instances/par_ev/tracing_on
	echo "$1: records $(grep -vc '^#' instances/par_ev/trace), not ksys_read: $(grep -v '^#' instances/par_ev/trace | grep -vc 'func=ksys_read')"
	echo 0 > instances/par_ev/events/ftrace/function_duration/enable
	rmdir instances/par_ev
	[ $2 = 1 ] && { echo nop > instances/par_fg/current_tracer; rmdir instances/par_fg; }
}
run "no profiler, with fg" 1
echo 1 > function_profile_enabled
run "profiler only" 0
run "profiler + fg" 1
echo 0 > function_profile_enabled
mkdir instances/other; echo function_graph > instances/other/current_tracer
run "all-function fgraph user in another instance" 0
run "all-function fgraph user + fg" 1
echo nop > instances/other/current_tracer; rmdir instances/other
