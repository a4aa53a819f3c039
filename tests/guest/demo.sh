#!/bin/bash
# In the guest: show the feature on a small workload, then (if asked) a shell.
T=/sys/kernel/tracing
echo "=== $(uname -r): function_graph on do_sys_openat2 (cat /etc/hostname) ==="
echo do_sys_openat2 >$T/set_graph_function
echo function_graph >$T/current_tracer
cat /etc/hostname >/dev/null
echo 0 >$T/tracing_on
grep -v '^#' $T/trace | head -40
echo nop >$T/current_tracer
echo >$T/set_graph_function
echo 1 >$T/tracing_on
if [ "${INTERACTIVE:-0}" = 1 ]; then
	echo "=== shell in the guest; tracefs is at $T; 'poweroff -f' or exit to leave ==="
	exec bash -l
fi
