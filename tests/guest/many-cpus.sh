#!/bin/bash
# In a guest with 24 or more vCPUs, more than fgraph's 16 slots: perf
# record -a of both graph events in four sessions with their own filters,
# while 20 instances have both events enabled; graph tracers then take
# the fgraph slots that are left, which says how many the events hold
# (at most one per event type). Leaves manycpus.ktap in /mnt/results.
set -u
. "$(dirname "$0")/../clients/lib.sh"
perf=$(perf_bin)
res=/mnt/results
ktap=$res/manycpus.ktap
lines=()
ok() { lines+=("ok $((${#lines[@]} + 1)) $*"); echo "ok: $*"; }
notok() { lines+=("not ok $((${#lines[@]} + 1)) $*"); echo "NOT OK: $*"; }
check() { # status description
	if [ "$1" = 0 ]; then ok "$2"; else notok "$2"; fi
}
finish() {
	{
		echo "TAP version 13"
		echo "1..${#lines[@]}"
		printf '%s\n' "${lines[@]}"
	} >"$ktap"
	exit 0
}
work=$(mktemp -d)
cd "$work" || exit 1
cpus=$(nproc)
[ "$cpus" -ge 24 ]
check $? "the guest has 24 or more vCPUs ($cpus)"
[ -x "$perf" ] || { notok "perf is installed"; finish; }

# 20 instances, each with both graph events on its own function
fns=(vfs_read vfs_write ksys_read ksys_write rw_verify_area)
bad=0
for i in $(seq 20); do
	d=$T/instances/many$i
	mkdir $d || bad=1
	echo "${fns[i % ${#fns[@]}]}" >$d/set_ftrace_filter || bad=1
	for e in function_graph function_duration; do
		echo 1 >$d/events/ftrace/$e/enable 2>/dev/null || { bad=1; echo "instance $i: ftrace:$e: $(tail -1 $T/error_log)"; }
	done
done
check $bad "20 instances enable ftrace:function_graph and ftrace:function_duration"

# Four perf sessions on every CPU, each with its own filter
sessions=(
	"ftrace:function_graph|ip == ksys_read|ksys_read"
	"ftrace:function_duration|ip == vfs_write|vfs_write"
	"ftrace:function_duration|ip == ksys_write|ksys_write"
	"ftrace:function_graph|ip == ksys_read && graph_function == ksys_read|ksys_read"
)
# No session is a graph root alone: that patches every function (as
# set_graph_function does), and on 24 vCPUs under TCG every exec then
# took 12 s (0.25 s without), so the stage took more than 20 minutes.
# Test 50 of the clients records with a root alone.
pids=()
# perf record -a enables its events on every CPU before the command runs:
# each command says it started, reads and writes, and waits for "done"
cmd='touch started.$0; for i in 1 2 3; do dd if=/dev/zero of=/dev/null bs=1 count=50
	dd if=/dev/zero of=/tmp/many.out bs=1 count=50; done 2>/dev/null
	while [ ! -e done ]; do sleep 0.5; done'
for s in "${!sessions[@]}"; do
	IFS='|' read -r ev f fn <<<"${sessions[s]}"
	"$perf" record -q -a -e "$ev" --filter "$f" -o s$s.data -- sh -c "$cmd" $s 2>s$s.err &
	pids+=($!)
done
for i in $(seq 600); do
	[ "$(ls started.* 2>/dev/null | wc -l)" -ge ${#sessions[@]} ] && break
	# a session that died will not start
	for p in "${pids[@]}"; do kill -0 $p 2>/dev/null || break 2; done
	sleep 1
done
[ "$(ls started.* 2>/dev/null | wc -l)" -ge ${#sessions[@]} ]
check $? "four perf record -a sessions started"

# Every user chose its functions: those are patched, and no other
want=$(printf '%s\n' "${fns[@]}" | sort -u)
have=$(awk '{print $1}' $T/enabled_functions | sort -u)
[ "$have" = "$want" ]
check $? "the functions patched are the ${#fns[@]} chosen ones ($(grep -c . <<<"$have") patched)"

# The graph tracers take what the events leave of fgraph's 16 slots
started=0
for i in $(seq 16); do
	d=$T/instances/tracer$i
	mkdir $d
	echo vfs_read >$d/set_ftrace_filter
	echo function_graph >$d/current_tracer 2>/dev/null || break
	started=$i
done
held=$((16 - started))
echo "fgraph slots: $started graph tracers started beside 20 instances and ${#sessions[@]} perf sessions of both events on $cpus CPUs; the events hold $held"
# One per event type, both in use
[ $held -eq 2 ]
check $? "the events hold $held of fgraph's 16 slots with 20 instances and ${#sessions[@]} perf sessions on $cpus CPUs (one per event type)"
for i in $(seq 16); do
	d=$T/instances/tracer$i
	[ -d $d ] || continue
	echo nop >$d/current_tracer
	rmdir $d
done

touch done
bad=0
for p in "${pids[@]}"; do wait $p || bad=1; done
check $bad "four perf record -a sessions end with status 0"
for s in "${!sessions[@]}"; do
	IFS='|' read -r ev f fn <<<"${sessions[s]}"
	"$perf" script -i s$s.data -F cpu,event,trace >s$s.txt 2>/dev/null
	n=$(grep -c "func=$fn " s$s.txt)
	other=$(grep -c . s$s.txt)
	other=$((other - n))
	[ "$n" -gt 0 ] && [ "$other" -eq 0 ]
	check $? "session $s ($ev, '$f'): $n records of $fn, $other of other functions"
done

bad=0
for i in $(seq 20); do
	d=$T/instances/many$i
	grep -q "func=${fns[i % ${#fns[@]}]} " $d/trace
	r=$?
	[ $r = 0 ] || bad=1
	for e in function_graph function_duration; do echo 0 >$d/events/ftrace/$e/enable; done
	rmdir $d
done
check $bad "each of the 20 instances traced its function"
n=$(grep -c . $T/enabled_functions)
check $([ "$n" -eq 0 ]; echo $?) "enabled_functions is empty after all users left ($n left)"
n=$(kernel_splats | grep -c . || true)
check $([ "$n" -eq 0 ]; echo $?) "no WARN/BUG/stall line in the kernel log ($n)"
finish
