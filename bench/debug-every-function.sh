#!/bin/bash
# In the guest, on the debug kernel: how long one workload (dd of 500
# one-byte writes) takes while each kind of user traces every function:
# perf sessions of the two graph events, the events in an instance, and
# the function_duration tracer. Wall-clock under TCG: compare within one
# run only. Run from the host:
#   VM_MEM=4G VM_CMDLINE="ftrace=nop no5lvl" scripts/vm.sh -k patched-debug \
#	-r "$PWD/build/results/debug-every-function" -- bash "$PWD/bench/debug-every-function.sh"
T=/sys/kernel/tracing
m() { echo "crawl: $*" > /dev/kmsg; echo "$*"; }
w() { local s=$(date +%s.%N); timeout 600 dd if=/dev/zero of=/dev/null bs=1 count=500 2>/dev/null; local rc=$?; m "$1: rc=$rc $(awk -v a=$s -v b=$(date +%s.%N) "BEGIN{printf \"%.1f\", b-a}") s"; }
cd /tmp
w untraced
s=$(date +%s)
timeout 900 /usr/bin/perf record -q -a -e ftrace:function_graph --filter 'graph_function == ksys_write && depth < 1' -o x.data -- dd if=/dev/zero of=/dev/null bs=1 count=500 2>/dev/null
m "perf graph-root session: rc=$? $(( $(date +%s) - s )) s"
s=$(date +%s)
timeout 900 /usr/bin/perf record -q -a -e ftrace:function_duration -o y.data -- dd if=/dev/zero of=/dev/null bs=1 count=500 2>/dev/null
m "perf function_duration session, no filter: rc=$? $(( $(date +%s) - s )) s"
/usr/bin/perf script -i y.data 2>/dev/null | wc -l
mkdir $T/instances/c
echo 1 > $T/instances/c/events/ftrace/function_duration/enable; sleep 1
w "function_duration event, every function"
echo 0 > $T/instances/c/events/ftrace/function_duration/enable
echo 1 > $T/instances/c/events/ftrace/function_graph/enable; sleep 1
w "function_graph event, every function"
echo 0 > $T/instances/c/events/ftrace/function_graph/enable
echo function_duration > $T/instances/c/current_tracer; sleep 1
w "function_duration tracer, every function"
echo nop > $T/instances/c/current_tracer
rmdir $T/instances/c
dmesg | grep -E "WARNING|BUG|rcu: INFO|lockdep|KASAN|hung" | head
