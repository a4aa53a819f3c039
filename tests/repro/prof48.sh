#!/bin/bash
cd /sys/kernel/tracing
echo function_graph > current_tracer
echo 1 > function_profile_enabled
sleep 1
echo nop > current_tracer
cat function_profile_enabled
mkdir instances/par_fn instances/par_fg instances/par_fd
echo ksys_write > instances/par_fn/set_ftrace_filter
echo vfs_read > instances/par_fg/set_graph_function
echo ksys_read > instances/par_fd/set_ftrace_filter
echo function > instances/par_fn/current_tracer
echo function_graph > instances/par_fg/current_tracer
echo function_duration > instances/par_fd/current_tracer
for i in 1 2 3; do cat trace_options > /dev/null; echo $i > /dev/null; done
for i in par_fn par_fg par_fd; do echo 0 > instances/$i/tracing_on; done
echo "vfs_read trees: $(grep -c 'vfs_read() {' instances/par_fg/trace)"
grep -v '^#' instances/par_fg/trace | head -20
echo "fn: $(grep -v '^#' instances/par_fn/trace | head -3)"
echo "fd: $(grep -v '^#' instances/par_fd/trace | head -3)"
for i in par_fn par_fg par_fd; do echo nop > instances/$i/current_tracer; rmdir instances/$i; done
echo 0 > function_profile_enabled
