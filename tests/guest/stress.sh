#!/bin/bash
# In the guest: several function users start and stop at random in parallel
# (tracers in instances, events, perf sessions) under a workload, for
# DURATION seconds. Then every user must be gone: enabled_functions empty.
#   stress.sh DURATION
set -u
dur=${1:-300}
T=/sys/kernel/tracing
res=/mnt/results
out=$res/stress.ktap
end=$((SECONDS + dur))
n=0 fails=0
result() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fails=$((fails + 1)); fi >>"$out.body"; }
: >"$out.body"

. "$(dirname "$0")/../clients/lib.sh"
perf=$(perf_bin)

# Each user loop runs until the deadline and counts its rounds.
user_tracer() { # instance tracer filter-file pattern
	local d=$T/instances/$1 r=0
	mkdir -p "$d"
	while [ $SECONDS -lt $end ]; do
		echo "$4" >"$d/$3" 2>/dev/null
		echo "$2" >"$d/current_tracer"
		sleep 0.$((RANDOM % 5))
		echo nop >"$d/current_tracer"
		echo >"$d/$3"
		r=$((r + 1))
	done
	echo "$r" >"$res/stress-$1.rounds"
}
user_event() { # instance event
	local d=$T/instances/$1 r=0
	mkdir -p "$d"
	while [ $SECONDS -lt $end ]; do
		echo 1 >"$d/events/$2/enable"
		sleep 0.$((RANDOM % 3))
		echo 0 >"$d/events/$2/enable"
		r=$((r + 1))
	done
	echo "$r" >"$res/stress-$1.rounds"
}
user_perf() {
	local r=0
	while [ $SECONDS -lt $end ]; do
		"$perf" record -q -e ftrace:function --filter 'ip == vfs_*' -a -o /tmp/stress-perf.data -- \
			sleep 0.$((RANDOM % 5 + 1)) >/dev/null 2>&1
		r=$((r + 1))
	done
	echo "$r" >"$res/stress-perf.rounds"
}
workload() {
	while [ $SECONDS -lt $end ]; do
		cat /proc/self/status /etc/hostname >/dev/null
		ls /usr/lib >/dev/null
		dd if=/dev/zero of=/dev/null bs=4k count=100 2>/dev/null
	done
}

pids=()
user_tracer s-func function set_ftrace_filter 'vfs_*' & pids+=($!)
user_tracer s-graph function_graph set_graph_function 'ksys_read' & pids+=($!)
user_tracer s-graph2 function_graph set_ftrace_filter 'do_sys_*' & pids+=($!)
user_event s-ev sched/sched_switch & pids+=($!)
[ -x "$perf" ] && { user_perf & pids+=($!); }
workload & wl=$!
wait "${pids[@]}"
kill $wl 2>/dev/null
wait $wl 2>/dev/null

for f in "$res"/stress-*.rounds; do
	name=$(basename "$f" .rounds)
	r=$(cat "$f")
	[ "$r" -gt 0 ]
	result $? "$name ran $r rounds"
done
for i in s-func s-graph s-graph2 s-ev; do rmdir "$T/instances/$i"; done
result $? "instances removed"
sleep 1
left=$(wc -l <$T/enabled_functions)
[ "$left" -eq 0 ]
result $? "enabled_functions empty after all users left ($left left)"
{
	echo "TAP version 13"
	echo "1..$n"
	cat "$out.body"
} >"$out"
rm -f "$out.body"
cat "$out"
[ $fails -eq 0 ]
