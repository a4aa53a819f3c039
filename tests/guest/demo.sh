#!/bin/bash
# In the guest: show the feature on a small workload, then (if asked) a shell.
T=/sys/kernel/tracing
echo "=== $(uname -r) ==="
# The boot, recorded by function_duration from the boot config
# (instance "boot") or the command line (top level), see scripts/run.sh
boot=""
if [ -f $T/instances/boot/trace ]; then
	boot=$T/instances/boot
elif [ "$(cat $T/current_tracer)" = function_duration ]; then
	boot=$T
fi
if [ -n "$boot" ]; then
	echo 0 >$boot/tracing_on
	echo "=== boot: the twenty slowest calls under do_one_initcall, two levels deep, >= $(cat $boot/duration_thresh_ns) ns ==="
	echo "    $(grep -vc '^#' $boot/trace) calls recorded; init started at $(dmesg | sed -n 's/^\[ *\([0-9.]*\)\] Run .* as init process.*/\1/p' | head -1) s"
	echo "    timestamp(s)  duration(ns)  function <- caller"
	grep -v '^#' $boot/trace | awk '{ for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { printf "%14s %13d  %s %s %s\n", $i, $(i+1), $(i+2), $(i+3), $(i+4); break } }' |
		sort -k2,2nr | head -20
	echo nop >$boot/current_tracer
	echo >$boot/trace
	echo 1 >$boot/tracing_on
	[ "$boot" = $T ] && echo 0 >$T/max_graph_depth && echo >$T/set_graph_function && echo 0 >$T/duration_thresh_ns
fi
if grep -qw function_duration $T/available_tracers; then
	echo "=== function_duration: the ten slowest calls under ksys_read (the read(2) path) ==="
	echo "    workload: dd if=/etc/services of=/dev/null bs=512; ls -lR /usr/share/doc | tail -1"
	echo ksys_read >$T/set_graph_function
	echo 3 >$T/max_graph_depth
	echo function_duration >$T/current_tracer
	dd if=/etc/services of=/dev/null bs=512 2>/dev/null
	ls -lR /usr/share/doc >/dev/null 2>&1
	echo 0 >$T/tracing_on
	grep '^#' $T/trace | tail -2
	# Each line ends with: duration(ns) function <- caller
	grep -v '^#' $T/trace | awk '{ print $(NF-3), $0 }' | sort -n -r | cut -d' ' -f2- | head -10
	echo "=== $(grep -vc '^#' $T/trace) calls recorded; vfs_read calls by caller: ==="
	grep -v '^#' $T/trace | awk '$(NF-2) == "vfs_read" { n[$NF]++; t[$NF] += $(NF-3) } END { for (c in n) printf "  %-20s %6d calls %12d ns\n", c, n[c], t[c] }'
	echo nop >$T/current_tracer
	echo 0 >$T/max_graph_depth
else
	echo "=== function_graph on do_sys_openat2 (cat /etc/hostname) ==="
	echo do_sys_openat2 >$T/set_graph_function
	echo function_graph >$T/current_tracer
	cat /etc/hostname >/dev/null
	echo 0 >$T/tracing_on
	grep -v '^#' $T/trace | head -40
	echo nop >$T/current_tracer
fi
echo >$T/set_graph_function
echo 1 >$T/tracing_on
if [ -f $T/events/ftrace/function_duration/enable ]; then
	fd=$T/events/ftrace/function_duration
	echo "=== ftrace:function_duration as an event: a hist trigger, nothing in the ring buffer ==="
	echo "    set_ftrace_filter: ksys_read vfs_read filemap_read; workload as above"
	echo 'ksys_read vfs_read filemap_read' >$T/set_ftrace_filter
	echo 'hist:keys=func.sym,duration.log2:sort=func,duration' >$fd/trigger
	dd if=/etc/services of=/dev/null bs=512 2>/dev/null
	ls -lR /usr/share/doc >/dev/null 2>&1
	grep -v '^$' $fd/hist
	echo '!hist:keys=func.sym,duration.log2:sort=func,duration' >$fd/trigger
	echo "=== the slowest functions under ksys_read (set_graph_function, max_graph_depth 2) ==="
	echo >$T/set_ftrace_filter
	echo ksys_read >$T/set_graph_function
	echo 2 >$T/max_graph_depth
	echo 'hist:keys=func.sym:vals=duration:sort=duration.descending' >$fd/trigger
	ls -lR /usr/share/doc >/dev/null 2>&1
	grep -v '^$' $fd/hist | head -16
	echo '!hist:keys=func.sym:vals=duration:sort=duration.descending' >$fd/trigger
	echo "=== ftrace:function_graph with the filter 'exit == 0 || duration > 20000' ==="
	echo 'exit == 0 || duration > 20000' >$T/events/ftrace/function_graph/filter
	echo >$T/trace
	echo 1 >$T/events/ftrace/function_graph/enable
	cat /etc/hostname >/dev/null
	echo 0 >$T/events/ftrace/function_graph/enable
	grep -v '^#' $T/trace | grep ' cat-' | head -12
	echo 0 >$T/events/ftrace/function_graph/filter
	echo 0 >$T/max_graph_depth
	echo >$T/set_graph_function
fi
if [ "${INTERACTIVE:-0}" = 1 ]; then
	echo "=== shell in the guest; tracefs is at $T; 'poweroff -f' or exit to leave ==="
	exec bash -l
fi
