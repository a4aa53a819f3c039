#!/bin/bash
# In the guest: a diagnostic for upstream's ftrace/func_event_triggers.tc,
# which failed twice in whole runs on the patched kernel (README, "Test
# tiers"): in "make sure it only works 3 times" the function probe's count
# ran out a round early. Not part of any tier.
#
#   diag-func-event-triggers.sh TREE [RUNS] [CASES] [BEFORE...]
#
# First RUNS (20) copies of the count step, which print the count left
# after each round (it must go 2, 1, 0, 0, and the event follow it), then
# CASES (5) runs of the upstream case itself, each after the cases BEFORE
# (paths under test.d/, e.g. ftrace/func_cpumask.tc) in one ftracetest
# invocation. Exits 1 if any round or run went wrong.
#
# DIAG_LOAD=1 keeps every CPU calling schedule() meanwhile (a 1-byte pipe
# between two dd pinned to neighbouring CPUs), to widen the window of
# event_enable_count_probe(): it tests the count and the state and then
# changes both with no lock, so two CPUs in schedule() at once can both
# take a count for one change of the state.
#   scripts/vm.sh -k patched -r ABS_RESULTS -- \
#       bash /ABS/tests/guest/diag-func-event-triggers.sh /ABS/build/linux
set -u
st=$1/tools/testing/selftests/ftrace
runs=${2:-20}
cases=${3:-5}
shift $(($# < 3 ? $# : 3))
T=/sys/kernel/tracing
E=events/sched/sched_switch/enable
bad=0
early=0
cd $T || exit 1
loaders=()
if [ "${DIAG_LOAD:-0}" = 1 ]; then
	n=$(nproc)
	for c in $(seq 0 $((n - 1))); do
		taskset -c "$c" dd if=/dev/zero bs=1 status=none |
			taskset -c $(((c + 1) % n)) dd of=/dev/null bs=1 status=none &
		loaders+=($!)
	done
	sleep 1
fi
# reset_ftrace_filter: removes probes with their count
. "$st/test.d/functions"
for run in $(seq "$runs"); do
	reset_ftrace_filter
	echo 0 >$E
	sleep .1
	echo "schedule:enable_event:sched:sched_switch:3" >set_ftrace_filter
	line=
	for _ in 1 2 3 4; do
		sleep .1
		line="$line $(cat $E)/$(grep -o 'count=[0-9]*' set_ftrace_filter)"
		echo 0 >$E
	done
	[ "$line" = " 1*/count=2 1*/count=1 1*/count=0 0*/count=0" ] || bad=1
	# the count ran out before the third change of the state
	case "$line" in *"0*/count=0 "*"0*/count=0"*) early=$((early + 1)) ;; esac
	echo "count step $run:$line"
	reset_ftrace_filter
done
echo 0 >$E
if [ ${#loaders[@]} -gt 0 ]; then
	pkill -x dd
	wait 2>/dev/null
fi
echo "count step: $early of $runs runs ran out of count early"
cd "$st" || exit 1
pass=0 fail=0
for run in $(seq "$cases"); do
	rm -rf /tmp/fet-logs
	args=()
	for c in "$@"; do args+=("test.d/$c"); done
	./ftracetest -K -l /tmp/fet-logs "${args[@]}" test.d/ftrace/func_event_triggers.tc >/tmp/fet.out 2>&1
	if grep -q "^not ok.*function event triggers" /tmp/fet.out; then
		fail=$((fail + 1))
		grep -h "Expected\|make sure\|  test [0-9]" /tmp/fet-logs/*/*func_event_triggers* | tail -3
	else
		pass=$((pass + 1))
	fi
	grep -h "^not ok" /tmp/fet.out
done
echo "count step: $runs runs, $([ $bad = 0 ] && echo "all 2, 1, 0, 0" || echo "some wrong")"
echo "func_event_triggers.tc after ${*:-nothing}: $pass passed, $fail failed"
[ $bad = 0 ] && [ $fail = 0 ]
