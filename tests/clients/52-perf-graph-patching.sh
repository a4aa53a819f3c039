#!/bin/bash
# What a perf session of the graph events patches. A session whose filter
# chooses functions patches only those, from the moment it opens: the
# functions listed in enabled_functions, read every 0.1 s while it opens,
# records and closes, are never more than the chosen one. A session that
# chooses no functions (no filter, or only predicates) traces every
# function: it patches them once it is enabled, records, and leaves them
# as nops; when no consumer id is left, it records nothing and the kernel
# log says why. LAZY_WAIT seconds (1800 by default) for every function
# to be patched.
. "$(dirname "$0")/lib.sh"
perf=$(perf_bin)
[ -x "$perf" ] || need perf
echo "perf: $("$perf" --version)"
poller=
cleanup() {
	[ -z "$poller" ] || kill "$poller" 2>/dev/null
	# a workload still waiting to start
	[ -p fifo ] && timeout 5 sh -c 'echo go >fifo'
	for d in $T/instances/p52-*; do
		[ -d "$d" ] || continue
		echo 0 >$d/events/enable
		rmdir $d
	done
}
trap cleanup EXIT
patched() { grep -c . $T/enabled_functions; }
[ "$(patched)" -eq 0 ] || fail "functions are patched before the test: $(head -3 $T/enabled_functions)"

# The most functions patched at once, and whether ksys_read was, until
# the file "stop" appears
rm -f stop
(
	max=0 seen=0
	while [ ! -e stop ]; do
		cat $T/enabled_functions >ef.txt
		n=$(grep -c . ef.txt)
		[ "$n" -gt "$max" ] && max=$n
		grep -q '^ksys_read ' ef.txt && seen=1
		echo "$max $seen" >poll.txt
		sleep 0.1
	done
) &
poller=$!
for e in function_graph function_duration; do
	s=$SECONDS
	"$perf" record -q -a -e ftrace:$e --filter 'ip == ksys_read' -o f.data -- sleep 1 ||
		fail "perf record -e ftrace:$e failed"
	echo "ftrace:$e filtered on ksys_read: $((SECONDS - s)) s"
done
touch stop
wait $poller
poller=
read -r max seen <poll.txt
[ "$seen" = 1 ] || fail "ksys_read was not seen patched while two sessions recorded"
[ "$max" -le 1 ] || fail "$max functions were patched at once for sessions that chose one"
echo "sessions filtered on ksys_read patched it and nothing else (at most $max at once)"

# No choice of functions: every function, from when the session runs.
# The workload waits on a fifo until every function is patched.
wait_s=${LAZY_WAIT:-1800}
all=$(grep -c . $T/available_filter_functions)
# A session of event $1 with filter $2 into $3, in the background ($pid),
# whose workload reads the fifo before it runs dd
fifo_session() { # event filter output
	rm -f fifo && mkfifo fifo
	"$perf" record -q -e ftrace:$1 ${2:+--filter "$2"} -o "$3" -- \
		sh -c 'read x <fifo; exec dd if=/dev/zero of=/dev/null bs=1 count=20 2>/dev/null' &
	pid=$!
}
session_of_every_function() { # event filter
	local e=$1 f=$2 s deadline n
	fifo_session "$e" "$f" a.data
	s=$SECONDS
	deadline=$((SECONDS + wait_s))
	while ! grep -q '^ksys_read ' $T/enabled_functions && [ $SECONDS -lt $deadline ]; do
		sleep 0.5
	done
	n=$(patched)
	echo "ftrace:$e ${f:+filtered on '$f' }(no choice of functions): $n of $all patched after $((SECONDS - s)) s"
	[ "$n" -gt $((all / 2)) ] || fail "ftrace:$e with no choice of functions: only $n of $all functions patched"
	echo go >fifo
	wait $pid || fail "perf record -e ftrace:$e ${f:+--filter '$f'} failed"
	rm -f fifo
	"$perf" script -i a.data -F comm,event,trace >a-$e.txt 2>/dev/null || fail "perf script failed"
	# The workload's reads of the fifo come first: the flood of records
	# of dd's exec may fill perf's buffer before dd reads
	n=$(grep -c "^ *\(sh\|dd\) .*ftrace:$e: .*func=ksys_read " a-$e.txt)
	[ "$n" -gt 0 ] || fail "ftrace:$e with no choice of functions: no ksys_read record of the workload: $(head -3 a-$e.txt)"
	echo "ftrace:$e with no choice of functions: $n ksys_read records of the workload, $(grep -c . a-$e.txt) in all"
	if [ -n "$f" ]; then
		n=$(grep -c "ftrace:$e: .* depth=\([89]\|[1-9][0-9]\)" a-$e.txt)
		[ "$n" -eq 0 ] || fail "ftrace:$e filtered on '$f': $n records at depth 8 or more"
	fi
}
session_of_every_function function_duration ''
[ "$(patched)" -eq 0 ] || fail "functions still patched after the session: $(head -3 $T/enabled_functions)"
session_of_every_function function_graph 'depth < 8'
[ "$(patched)" -eq 0 ] || fail "functions still patched after the session: $(head -3 $T/enabled_functions)"

# The consumer ids run out (64, 32 on 32-bit kernels, for the instances
# and perf together): a session of every function then records nothing,
# and the kernel log says why. Once an id is free, the next one records.
max=64
[ "$(getconf LONG_BIT)" = 32 ] && max=32
for i in $(seq 1 $((max / 2))); do
	d=$T/instances/p52-$i
	mkdir $d && echo vfs_write >$d/set_ftrace_filter || fail "instance p52-$i"
	echo 1 >$d/events/ftrace/function_graph/enable &&
		echo 1 >$d/events/ftrace/function_duration/enable ||
		fail "instance p52-$i: both events could not start"
done
msg='ftrace:function_duration: a perf session of every function records nothing'
n0=$(dmesg | grep -c "$msg")
fifo_session function_duration '' x.data
deadline=$((SECONDS + 600))
while [ "$(dmesg | grep -c "$msg")" -le "$n0" ] && [ $SECONDS -lt $deadline ]; do
	sleep 0.2
done
echo go >fifo
wait $pid || fail "perf record of every function with no consumer id left failed"
rm -f fifo
[ "$(dmesg | grep -c "$msg")" -gt "$n0" ] || fail "no kernel log line for a session that could not start"
dmesg | grep "$msg" | tail -1
"$perf" script -i x.data -F event,trace 2>/dev/null | grep -q 'ftrace:function_duration:' &&
	fail "a session that could not start recorded"
echo "with no consumer id left, a session of every function records nothing and says why"
echo 0 >$T/instances/p52-1/events/ftrace/function_duration/enable
session_of_every_function function_duration ''
for i in $(seq 1 $((max / 2))); do
	rmdir $T/instances/p52-$i || fail "rmdir p52-$i"
done
[ "$(patched)" -eq 0 ] || fail "functions still patched after the instances left: $(head -3 $T/enabled_functions)"
