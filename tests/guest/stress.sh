#!/bin/bash
# In the guest: every kind of function user starts and stops at random, in
# parallel, under a workload, for DURATION seconds (in the style of LTP's
# ftrace_stress_test: bounded loops that stop by themselves). Then the
# kernel must still trace, and nothing may be left behind.
#   stress.sh [DURATION [hotplug] [light]]
#       DURATION  default 600 seconds
#       hotplug   adds the loop that takes cpu1 offline
#       light     for a kernel that runs tens of times slower (KASAN,
#                 lockdep and kmemleak under TCG): the same loops, but the
#                 "everything" loop traces the irq, softirq, timer and idle
#                 functions only, once a minute, the CPU-hogging
#                 tracers (hwlat, osnoise, timerlat) leave the rotation,
#                 the grace for the last round is longer, and every loop
#                 logs its rounds to the kernel log, so that a loop that
#                 stops is seen by name on the console
#
# The loops:
#   tracers     current_tracer among every tracer, top level and instances
#   filters     set_ftrace_filter, set_graph_function, max_graph_depth,
#               duration_thresh_ns, good values and bad ones
#   events      the three function events, with and without event filters
#   everything  each function event with no function filter: every function
#               is traced, in irq, softirq and idle paths too
#   triggers    hist and stacktrace triggers added and removed
#   instances   instances made, given users, and removed
#   buffers     buffer_size_kb changed under the writers
#   hotplug     a vCPU taken offline and back online (needs 2 or more, and
#               the "hotplug" argument: under single-threaded TCG a guest
#               froze twice in a cpu1 online while tracing, see README)
#   perf1,2     two loops (one when light) of perf sessions of the three function events,
#               each with a filter picked at random, if perf is installed
#   workload    syscalls, file reads, forks, and idle periods
# Afterwards: enabled_functions is empty, all 16 fgraph slots are free, the
# function_duration tracer records a known call, the kernel log has no
# splat, and (debug kernel) a kmemleak scan finds nothing new.
set -u
dur=${1:-600}
hotplug=${2:-}
light=${3:-}
T=/sys/kernel/tracing
res=/mnt/results
out=$res/stress.ktap
kml=/sys/kernel/debug/kmemleak
end=$((SECONDS + dur))
n=0 fails=0
result() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fails=$((fails + 1)); fi >>"$out.body"; }
: >"$out.body"
rm -f "$res"/stress-*.rounds

. "$(dirname "$0")/../clients/lib.sh"
perf=$(perf_bin)

dmesg_start=$(dmesg | wc -l)
echo "stress: ${dur}s${light:+ (light)}, $(nproc) CPUs, tracers: $(cat $T/available_tracers)"

# The top level's tracers trace a few functions: tracing every function
# is the "everything" loop's job, and with a tracer on every function too
# a TCG guest crawls
echo 'vfs_* ksys_*' >$T/set_ftrace_filter
# So do the instances' ones. An empty set_ftrace_filter is every function:
# a new instance starts with a bounded set, and the filters loop never
# clears it. Under TCG, an instance whose tracer and hist triggers run on
# every function for a whole round starves the guest (every call pays for
# a hist map update): it made minutes without progress look like a hang.
# The noise and latency measurement tracers hog a CPU by design: hwlat
# spins with interrupts off for half of every second, osnoise for all of
# it. They stay in the rotation, at a duty cycle of 1%, which a TCG guest
# under the other loops can bear (at theirs, the RCU grace-period kthread
# was starved for 25-90 s in a 300 s run with the hotplug loop).
hwlat_width=$(cat $T/hwlat_detector/width 2>/dev/null)
osnoise_runtime=$(cat $T/osnoise/runtime_us 2>/dev/null)
[ -n "$hwlat_width" ] && echo 10000 >$T/hwlat_detector/width
[ -n "$osnoise_runtime" ] && echo 10000 >$T/osnoise/runtime_us
INST="s1 s2 s3"
for i in $INST; do
	mkdir -p $T/instances/$i
	echo 'vfs_*' >$T/instances/$i/set_ftrace_filter
done
rnd() { # pick one of the arguments
	local a=("$@")
	echo "${a[RANDOM % ${#a[@]}]}"
}
done_rounds() { echo "$2" >"$res/stress-$1.rounds"; }
# light: each round of each loop leaves a line in the kernel log
progress() { [ -z "$light" ] || echo "stress: $1 round $2" >/dev/kmsg; }

loop_tracers() { # where: top or an instance
	local d=$T r=0 t
	[ "$1" = top ] || d=$T/instances/$1
	# Every tracer but the irqs-off latency ones. With every function
	# traced (the "everything" loop) each new maximum of theirs takes a
	# stack trace, itself traced call by call, with interrupts off under
	# their global max_trace_lock, and queues an irq_work whose return
	# from interrupt checks for a new maximum again: under TCG both vCPUs
	# stayed in that loop for minutes (seen through the gdbstub).
	local skip='irqsoff|preemptoff|preemptirqsoff'
	[ -z "$light" ] || skip+='|hwlat|osnoise|timerlat'
	read -ra all < <(tr ' ' '\n' <$T/available_tracers | grep -vxE "$skip" | tr '\n' ' ')
	while [ $SECONDS -lt $end ]; do
		t=$(rnd "${all[@]}")
		echo "$t" >"$d/current_tracer" 2>/dev/null
		sleep 0.$((RANDOM % 4))
		r=$((r + 1))
		progress "tracers-$1" $r
	done
	echo nop >"$d/current_tracer"
	done_rounds "tracers-$1" $r
}

loop_filters() {
	local r=0 d
	while [ $SECONDS -lt $end ]; do
		d=$T/instances/$(rnd $INST)
		echo "$(rnd 'vfs_*' 'ksys_*' '*_read' 'do_sys_*' 'vfs_read vfs_write' 'schedule' 'no_such_fn')" \
			>"$d/set_ftrace_filter" 2>/dev/null
		echo "$(rnd ksys_read vfs_write do_sys_openat2 '' 'x64_sys_call')" \
			>"$d/set_graph_function" 2>/dev/null
		echo "$(rnd 0 1 2 5 -1 abc 99999999999999999999)" >"$d/max_graph_depth" 2>/dev/null
		echo "$(rnd 0 1000 100000 10000000 -5 1x)" >"$d/duration_thresh_ns" 2>/dev/null
		echo "$(rnd rcu_read_lock '' 'mutex_*')" >"$d/set_ftrace_notrace" 2>/dev/null
		sleep 0.$((RANDOM % 3))
		r=$((r + 1))
		progress filters $r
	done
	done_rounds filters $r
}

loop_events() {
	local r=0 d e
	while [ $SECONDS -lt $end ]; do
		d=$T/instances/$(rnd $INST)
		e=$d/events/ftrace/$(rnd function function_graph function_duration)
		case $e in
		*/function) echo "$(rnd 'ip == vfs_read' '' 0)" >"$e/filter" 2>/dev/null ;;
		*) echo "$(rnd 'duration > 1000' 'depth < 3' '' 0)" >"$e/filter" 2>/dev/null ;;
		esac
		echo 1 >"$e/enable" 2>/dev/null
		sleep 0.$((RANDOM % 4))
		echo 0 >"$e/enable"
		r=$((r + 1))
		progress events $r
	done
	done_rounds events $r
}

loop_everything() { # each event with no function filter at all
	local d=$T/instances/s-all r=0 e
	mkdir -p "$d"
	# light: not every function. On the debug kernel under TCG, the first
	# burst on every function stopped every loop for more than 15 minutes
	# (2026-12-05), and so did the globs *irq* *softirq* *timer* *idle*,
	# which take in _raw_spin_lock_irqsave() and the hardirq tracking of
	# lockdep. The entry points of the interrupt, softirq, timer and idle
	# paths, which this loop is for, stay in: one by one, as a name
	# that a config lacks fails the write
	if [ -n "$light" ]; then
		# by index, in one write: a name each took a scan of every
		# function, and under KASAN with the hotplug loop the twelve
		# writes ran past the deadline (2026-12-05)
		printf '%s\n' __sysvec_apic_timer_interrupt hrtimer_interrupt handle_edge_irq \
			handle_irq_event irq_exit_rcu handle_softirqs run_timer_softirq \
			rcu_core tick_sched_timer update_process_times do_idle \
			default_idle_call |
			awk 'NR == FNR { want[$1] = 1; next } { sub(/ .*/, "") } ($0 in want) { printf "%d ", FNR }' \
				- "$T/available_filter_functions" >"$d/set_ftrace_filter" 2>/dev/null
		# never every function
		grep -q . "$d/set_ftrace_filter" || echo vfs_read >"$d/set_ftrace_filter"
		echo "stress: everything loop (light) traces $(grep -c . "$d/set_ftrace_filter") functions" >/dev/kmsg
	fi
	while [ $SECONDS -lt $end ]; do
		e=$d/events/ftrace/$(rnd function function_graph function_duration)
		# Short bursts: with every function traced, a TCG guest crawls
		# and the other loops would hardly run
		echo 1 >"$e/enable" 2>/dev/null
		sleep 0.$((RANDOM % 3 + 1))
		echo 0 >"$e/enable"
		r=$((r + 1))
		progress everything $r
		if [ -n "$light" ]; then sleep 60; else sleep $((RANDOM % 3 + 2)); fi
	done
	done_rounds everything $r
}

loop_triggers() {
	local r=0 d e tr
	while [ $SECONDS -lt $end ]; do
		d=$T/instances/$(rnd $INST)
		e=$d/events/$(rnd ftrace/function_duration ftrace/function_graph sched/sched_switch)
		case $e in
		*function_duration) tr=$(rnd 'hist:keys=func.sym:vals=duration' 'stacktrace if duration > 100000') ;;
		*function_graph) tr=$(rnd 'hist:keys=func.sym,exit' 'stacktrace:5') ;;
		*) tr=$(rnd 'hist:keys=next_pid' 'stacktrace:1') ;;
		esac
		echo "$tr" >>"$e/trigger" 2>/dev/null
		echo 1 >"$e/enable" 2>/dev/null
		sleep 0.$((RANDOM % 4))
		cat "$d/events/ftrace/function_duration/hist" >/dev/null 2>&1
		echo 0 >"$e/enable"
		echo "!$tr" >>"$e/trigger" 2>/dev/null
		r=$((r + 1))
		progress triggers $r
	done
	for i in $INST; do
		for e in ftrace/function_duration ftrace/function_graph sched/sched_switch; do
			f=$T/instances/$i/events/$e/trigger
			grep -v '^#' "$f" 2>/dev/null | sed 's/ .*//; s/^/!/' | while read -r t; do
				echo "$t" >>"$f" 2>/dev/null
			done
		done
	done
	done_rounds triggers $r
}

loop_instances() {
	local r=0 d
	while [ $SECONDS -lt $end ]; do
		d=$T/instances/s-tmp$((r % 3))
		mkdir "$d" 2>/dev/null
		echo "$(rnd 'vfs_*' 'ksys_*')" >"$d/set_ftrace_filter" 2>/dev/null
		echo "$(rnd function_duration function_graph function nop)" >"$d/current_tracer" 2>/dev/null
		echo 1 >"$d/events/ftrace/$(rnd function_duration function_graph function)/enable" 2>/dev/null
		sleep 0.$((RANDOM % 3))
		# A tracer must be stopped before the instance goes
		echo nop >"$d/current_tracer"
		rmdir "$d" 2>/dev/null
		r=$((r + 1))
		progress instances $r
	done
	rmdir $T/instances/s-tmp* 2>/dev/null
	done_rounds instances $r
}

loop_buffers() {
	local r=0 d
	while [ $SECONDS -lt $end ]; do
		d=$T/instances/$(rnd $INST)
		echo "$(rnd 64 256 1024 1408)" >"$d/buffer_size_kb"
		sleep 1
		r=$((r + 1))
		progress buffers $r
	done
	done_rounds buffers $r
}

loop_hotplug() {
	local r=0 c=/sys/devices/system/cpu/cpu1/online
	while [ $SECONDS -lt $end ]; do
		echo 0 >$c || break
		sleep 0.$((RANDOM % 5))
		echo 1 >$c || break
		sleep 2
		r=$((r + 1))
	done
	echo 1 >$c 2>/dev/null
	done_rounds hotplug $r
}

# perf sessions of the three function events, each with a filter chosen
# at random (functions, graph roots, predicates), opening and closing
perf_filters=(
	"ftrace:function|ip == vfs_*"
	"ftrace:function_graph|ip == vfs_* || ip == ksys_*"
	"ftrace:function_graph|(ip == vfs_* || ip == ksys_*) && graph_function == ksys_read && depth < 3"
	"ftrace:function_graph|ip == vfs_* && ip != vfs_read && graph_notrace == vfs_write"
	"ftrace:function_duration|ip == vfs_* && duration > 1000"
	"ftrace:function_duration|ip == ksys_read* && retval < 0"
)
# Every function is the "everything" loop's: a perf session that patches
# them all holds event_mutex for seconds under TCG, beside the other loops
loop_perf() { # slot
	local r=0 pick ev f
	while [ $SECONDS -lt $end ]; do
		pick=${perf_filters[RANDOM % ${#perf_filters[@]}]}
		ev=${pick%%|*} f=${pick#*|}
		# light: no session of every function (each samples all calls)
		[ -n "$light" ] && [ -z "$f" ] && continue
		# a round is a session that perf opened, ran and closed
		if "$perf" record -q -e "$ev" ${f:+--filter "$f"} -a -o /tmp/stress-perf$1.data -- \
			sleep 0.$((RANDOM % 5 + 1)) >/dev/null 2>>"$res/stress-perf$1.err"; then
			r=$((r + 1))
		else
			echo "($ev, '$f') failed" >>"$res/stress-perf$1.err"
		fi
		progress perf$1 $r
	done
	rm -f /tmp/stress-perf$1.data /tmp/stress-perf$1.data.old
	done_rounds perf$1 $r
}

workload() {
	local r=0
	while [ $SECONDS -lt $end ]; do
		cat /proc/self/status /etc/hostname >/dev/null
		ls /usr/lib >/dev/null
		dd if=/dev/zero of=/dev/null bs=4k count=100 2>/dev/null
		sh -c 'exit 0'
		# idle periods: the idle task's paths are traced too
		[ $((r % 20)) -eq 0 ] && sleep 1
		r=$((r + 1))
		[ $((r % 20)) -eq 0 ] && progress workload $r
	done
	done_rounds workload $r
}

pids=()
for w in top $INST; do loop_tracers $w & pids+=($!); done
loop_filters & pids+=($!)
loop_events & pids+=($!)
loop_everything & pids+=($!)
loop_triggers & pids+=($!)
loop_instances & pids+=($!)
loop_buffers & pids+=($!)
ncpu=$(nproc --all)
[ "$hotplug" = hotplug ] && [ "$ncpu" -ge 2 ] && [ -w /sys/devices/system/cpu/cpu1/online ] &&
	{ loop_hotplug & pids+=($!); }
# light: one perf loop. On the debug kernel each session waited minutes
# for event_mutex (glob matching and patching under KASAN and lockdep)
if [ -x "$perf" ]; then
	loop_perf 1 & pids+=($!)
	[ -n "$light" ] || { loop_perf 2 & pids+=($!); }
fi
workload & pids+=($!)
# A loop that hangs is a failure. A round can take a while when every
# function is traced under TCG: give them the deadline and half as long
# again, and two minutes.
grace=$((dur / 2 + 120))
# light: one round of switching tracers took 11 minutes on the debug
# kernel, and with two perf loops a 400 s stress ended after 3150 s
[ -z "$light" ] || grace=$((dur + 3000))
# The watchdog. Stopping it stops its sleep too: a reader of the stress's
# output (a pipe to tee) would otherwise wait for that sleep to end
(
	trap 'kill $s 2>/dev/null; exit 0' TERM
	sleep $((dur + grace)) &
	s=$!
	wait $s
	echo "stress: loops still running after $((dur + grace))s" >/dev/kmsg
	# The blocked tasks' stacks, for the log
	echo w >/proc/sysrq-trigger
	ps -eo pid,stat,wchan:32,args >"$res/stress-ps.txt"
) & watchdog=$!
wait "${pids[@]}"
kill $watchdog 2>/dev/null

total=0
for f in "$res"/stress-*.rounds; do
	name=$(basename "$f" .rounds)
	r=$(cat "$f")
	total=$((total + r))
	[ "$r" -gt 0 ]
	result $? "$name: $r rounds"
done
echo "stress: $(ls "$res"/stress-*.rounds | wc -l) loops, $total rounds in ${dur}s"

# Everything off, every instance gone
# cpu1 back online, if the hotplug loop left it off
[ "$(cat /sys/devices/system/cpu/cpu1/online 2>/dev/null)" = 0 ] && echo 1 >/sys/devices/system/cpu/cpu1/online
gone=0
for i in $INST s-all; do
	for e in function function_graph function_duration; do
		echo 0 >"$T/instances/$i/events/ftrace/$e/enable" 2>/dev/null
	done
	echo nop >"$T/instances/$i/current_tracer"
	rmdir "$T/instances/$i" || gone=1
done
result $gone "the stress instances removed"
echo nop >$T/current_tracer
echo >$T/set_ftrace_filter
[ -n "$hwlat_width" ] && echo "$hwlat_width" >$T/hwlat_detector/width
[ -n "$osnoise_runtime" ] && echo "$osnoise_runtime" >$T/osnoise/runtime_us
sleep 1
left=$(grep -c . $T/enabled_functions)
[ "$left" -eq 0 ]
result $? "enabled_functions empty after all users left ($left left)"

# All 16 fgraph slots are free: 16 instances can each run function_graph
free=0
for i in $(seq 1 17); do
	mkdir $T/instances/slot$i
	echo schedule >$T/instances/slot$i/set_ftrace_filter
	echo function_graph >$T/instances/slot$i/current_tracer 2>/dev/null || break
	free=$i
done
for i in $(seq 1 17); do
	[ -d $T/instances/slot$i ] || continue
	echo nop >$T/instances/slot$i/current_tracer
	rmdir $T/instances/slot$i
done
[ "$free" -eq 16 ]
result $? "all 16 fgraph slots free ($free could be taken)"

# The kernel still traces: a known call, with its duration
echo vfs_read >$T/set_ftrace_filter
echo 1 >$T/tracing_on
echo function_duration >$T/current_tracer
cat /etc/hostname >/dev/null
# Read with the tracer still set: it prints its own lines
grep -q ' vfs_read <- ' $T/trace
result $? "function_duration still records vfs_read"
echo nop >$T/current_tracer
echo >$T/set_ftrace_filter
echo >$T/trace

splats=$(kernel_splats "$dmesg_start" 'kmemleak|stress: loops' |
	grep -cv 'kmemleak: Automatic' || true)
[ "$splats" -eq 0 ]
result $? "no WARN/BUG/RCU stall/lockdep/KASAN line during the stress ($splats)"
if [ -w $kml ]; then
	echo scan >$kml
	sleep 5
	echo scan >$kml
	cat $kml >"$res/stress-kmemleak.txt"
	leaks=$(grep -c 'unreferenced object' "$res/stress-kmemleak.txt")
	[ "$leaks" -eq 0 ]
	result $? "kmemleak scan: $leaks new suspected leaks"
fi
{
	echo "TAP version 13"
	echo "1..$n"
	cat "$out.body"
} >"$out"
rm -f "$out.body"
cat "$out"
[ $fails -eq 0 ]
