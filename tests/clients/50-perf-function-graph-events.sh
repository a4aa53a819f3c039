#!/bin/bash
# perf records ftrace:function_graph and ftrace:function_duration: the
# series' own perf test (tools/perf/tests/shell/record_ftrace_graph.sh) run
# with this perf; -C and -p; ret_from_fork() with no kernel warning; four
# sessions with their own filters at once (SESSION_WAIT seconds for all
# four to record, 1800 by default), beside tracers in instances; the errno
# of bad filters; refusal for an unprivileged user, as for ftrace:function.
. "$(dirname "$0")/lib.sh"
perf=$(perf_bin)
[ -x "$perf" ] || need perf
echo "perf: $("$perf" --version)"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
bg=()
# Remove instance perf-$1: its tracer, and its events' hist triggers
remove_instance() {
	local d=$T/instances/perf-$1 e
	[ -d "$d" ] || return 0
	for e in function_graph function_duration; do
		echo 0 >"$d/events/ftrace/$e/enable"
		echo '!hist:keys=func' >"$d/events/ftrace/$e/trigger"
	done 2>/dev/null
	echo nop >"$d/current_tracer"
	rmdir "$d"
}
cleanup() {
	touch go
	[ ${#bg[@]} -eq 0 ] || kill "${bg[@]}" 2>/dev/null
	for i in a b f; do
		remove_instance $i
	done
	echo "$paranoid" >/proc/sys/kernel/perf_event_paranoid
}
trap cleanup EXIT

# The upstream-style test, with this perf as "perf"
if [ -n "${KTREE:-}" ]; then
	mkdir -p bin && ln -sf "$perf" bin/perf
	PATH=$PWD/bin:$PATH sh "$KTREE/tools/perf/tests/shell/record_ftrace_graph.sh" ||
		fail "record_ftrace_graph.sh failed"
fi

# Only records of function $2 of event $1 in $3, and at least one
only() { # event function file
	local n other
	n=$(grep -c "ftrace:$1: .*func=$2 " "$3")
	other=$(grep "ftrace:$1:" "$3" | grep -vc "func=$2 ")
	[ "$n" -gt 0 ] || fail "$3: no ftrace:$1 record of $2: $(head -3 "$3")"
	[ "$other" -eq 0 ] || fail "$3: $other records of other functions: $(grep -v "func=$2 " "$3" | head -3)"
	echo "$3: $n records of $2"
}

# -C: one CPU, while another reads on CPU 1
[ "$(nproc)" -ge 2 ] || fail "needs 2 CPUs"
taskset -c 1 dd if=/dev/zero of=/dev/null bs=1 count=100000000 2>/dev/null &
bg+=($!)
for e in function_graph function_duration; do
	"$perf" record -q -C 0 -e ftrace:$e --filter 'ip == ksys_read' -o c.data -- \
		taskset -c 0 dd if=/dev/zero of=/dev/null bs=1 count=100 2>/dev/null ||
		fail "perf record -C 0 -e ftrace:$e failed"
	"$perf" script -i c.data -F cpu,event,trace >c-$e.txt 2>/dev/null
	only $e ksys_read c-$e.txt
	grep -v '^ *\[000\]' c-$e.txt | grep -q . && fail "-C 0: a record of another CPU: $(grep -v '^ *\[000\]' c-$e.txt | head -2)"
done

# -p: one running process, and not the other reader. A fifth of a second
# of sleep recorded 26000-39000 records under TCG, where a second recorded
# 87000-120000: this step took 29 s in place of 43-53, and proves as much.
dd if=/dev/zero of=/dev/null bs=1 count=100000000 2>/dev/null &
pid=$!
bg+=($pid)
for e in function_graph function_duration; do
	"$perf" record -q -p $pid -e ftrace:$e --filter 'ip == ksys_read' -o p.data -- sleep 0.2 ||
		fail "perf record -p -e ftrace:$e failed"
	"$perf" script -i p.data -F pid,event,trace >p-$e.txt 2>/dev/null
	only $e ksys_read p-$e.txt
	grep -v "^ *$pid " p-$e.txt | grep -q . && fail "-p $pid: a record of another task: $(grep -v "^ *$pid " p-$e.txt | head -2)"
done
kill "${bg[@]}"
wait "${bg[@]}" 2>/dev/null
bg=()

# ret_from_fork() begins each new task, and returns after
# exit_to_user_mode() has told lockdep that interrupts are on, while they
# are still off: its entries are recorded, and a lockdep kernel, which
# records no such return, warns nowhere: not for perf's lock, nor for the
# triggers of both events in an instance (a trigger takes the RCU lock)
log_from=$(dmesg | wc -l)
fi=$T/instances/perf-f
mkdir $fi
echo ret_from_fork >$fi/set_ftrace_filter
for e in function_graph function_duration; do
	echo 'hist:keys=func' >$fi/events/ftrace/$e/trigger
	echo 1 >$fi/events/ftrace/$e/enable
done
for e in function_graph function_duration; do
	"$perf" record -q -a -e ftrace:$e --filter 'ip == ret_from_fork' -o f.data -- \
		sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do /bin/true; done' ||
		fail "perf record -e ftrace:$e --filter 'ip == ret_from_fork' failed"
	"$perf" script -i f.data -F event,trace >f-$e.txt 2>/dev/null
	grep "ftrace:$e:" f-$e.txt | grep -vq "func=ret_from_fork " &&
		fail "f-$e.txt: a record of another function: $(grep -v 'func=ret_from_fork ' f-$e.txt | head -2)"
	echo "f-$e.txt: $(grep -c 'func=ret_from_fork ' f-$e.txt) records of ret_from_fork"
done
n=$(grep -c "entry func=ret_from_fork " f-function_graph.txt)
[ "$n" -ge 10 ] || fail "$n entries of ret_from_fork for 10 new tasks"
hits=$(sed -n 's/^ *Hits: //p' $fi/events/ftrace/function_graph/hist)
[ "${hits:-0}" -ge 10 ] || fail "the instance's function_graph hist: ${hits:-no} hits of ret_from_fork"
echo "the instance's function_graph hist: $hits hits of ret_from_fork"
remove_instance f
[ ! -d $fi ] || fail "instance perf-f could not be removed"
warn=$(kernel_splats "$log_from")
[ -z "$warn" ] || fail "the kernel log warned while ret_from_fork was recorded: $warn"

# Four sessions at once, each with its own filter, beside a function_graph
# and a function_duration tracer in two instances
for i in a b; do
	mkdir -p $T/instances/perf-$i
	echo vfs_write >$T/instances/perf-$i/set_ftrace_filter
done
echo function_graph >$T/instances/perf-a/current_tracer
echo function_duration >$T/instances/perf-b/current_tracer
# perf starts a session's workload once its events are enabled: each
# workload says it runs, and waits until all four do
rm -f go ready.*
work='touch ready.$$; while [ ! -e go ]; do sleep 0.1; done
for i in 1 2 3; do dd if=/dev/zero of=/dev/null bs=1 count=50 2>/dev/null; sleep 0.5; done'
sess=()
i=0
# A graph root alone traces every function below it, so every function
# is patched
root='graph_function == ksys_write && depth < 1'
for ef in 'function_graph|ip == ksys_read' 'function_duration|ip == vfs_read' \
	'function_duration|ip == ksys_write' "function_graph|$root"; do
	i=$((i + 1))
	"$perf" record -q -a -e "ftrace:${ef%%|*}" --filter "${ef#*|}" -o s$i.data -- sh -c "$work" &
	sess+=($!)
done
bg+=("${sess[@]}")
# A debug kernel takes a while to patch even the chosen functions
wait_s=${SESSION_WAIT:-1800}
deadline=$((SECONDS + wait_s))
while n=$(ls ready.* 2>/dev/null | wc -l); [ "$n" -lt 4 ] && [ $SECONDS -lt $deadline ]; do
	sleep 0.2
done
[ "$n" -eq 4 ] || fail "only $n of 4 perf sessions started in $wait_s s"
# All four record: each chosen function is patched
for f in ksys_read vfs_read ksys_write vfs_write; do
	grep -q "^$f " $T/enabled_functions || fail "$f is not patched while four sessions record"
done
echo "four sessions record at once, beside two tracers"
touch go
for p in "${sess[@]}"; do
	wait "$p" || fail "a perf session failed"
done
bg=()
for i in 1 2 3 4; do
	"$perf" script -i s$i.data -F event,trace >s$i.txt 2>/dev/null || fail "perf script s$i.data failed"
done
only function_graph ksys_read s1.txt
only function_duration vfs_read s2.txt
only function_duration ksys_write s3.txt
only function_graph ksys_write s4.txt
for i in a b; do
	grep -q vfs_write $T/instances/perf-$i/trace || fail "instance perf-$i traced no vfs_write"
	echo nop >$T/instances/perf-$i/current_tracer
	rmdir $T/instances/perf-$i
done
[ "$(grep -c . $T/enabled_functions)" -eq 0 ] || fail "functions still patched: $(head -3 $T/enabled_functions)"

# The errno of perf_event_open() and of PERF_EVENT_IOC_SET_FILTER
cat >pe.py <<'PY'
import ctypes, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
def open_event(tp, count):
    tp = int(tp)
    # struct perf_event_attr (VER0): type, size, config, sample_period,
    # sample_type (RAW, or none to count), read_format, flags (disabled)
    attr = struct.pack("IIQQQQQ", 2, 64, tp, 0 if count else 1,
                       0 if count else 1 << 10, 0, 1) + bytes(16)
    # perf_event_open (x86_64): the calling task when counting, else CPU 0
    fd = libc.syscall(298, attr, 0 if count else -1, -1 if count else 0, -1, 0)
    return fd, ctypes.get_errno()
count = sys.argv[2:] == ["count"]
fd, err = open_event(sys.argv[1], count)
if len(sys.argv) == 2 or count:
    print(0 if fd >= 0 else err)
    sys.exit(0)
if fd < 0:
    print("open", err)
    sys.exit(0)
for f in sys.argv[2:]:
    # PERF_EVENT_IOC_SET_FILTER
    r = libc.ioctl(fd, 0x40082406, ctypes.c_char_p(f.encode()))
    print(0 if r == 0 else ctypes.get_errno())
PY
for e in function_graph function_duration; do
	# each bad filter on a new event, then a good one
	for f in 'nosuchfield > 1' 'ip == no_such_function_xyz' 'ip == ksys_read || depth > 1' \
		'ip = ksys_read' 'ip != a || ip != b' '(ip == ksys_read' 'graph_function != ksys_read' \
		'ip == ksys_read && ip == vfs_read'; do
		r=$(python3 pe.py $(cat $T/events/ftrace/$e/id) "$f")
		[ "$r" = 22 ] || fail "ftrace:$e filter '$f': errno $r, expected EINVAL (22)"
	done
	r=$(python3 pe.py $(cat $T/events/ftrace/$e/id) 'nosuchfield > 1' 'ip == ksys_read && depth < 3')
	[ "$(echo $r)" = "22 0" ] || fail "ftrace:$e: a good filter after a bad one: '$r', expected '22 0'"
	r=$(python3 pe.py $(cat $T/events/ftrace/$e/id) 'ip == ksys_read' 'ip == vfs_read')
	[ "$(echo $r)" = "0 17" ] || fail "ftrace:$e: a second filter: '$r', expected '0 17' (EEXIST)"
	echo "ftrace:$e: bad filters refused with EINVAL"
done

# An unprivileged user is refused the graph events as ftrace:function.
# At perf_event_paranoid 1, a task of its own may count a tracepoint's
# hits (no raw samples), but not those of the function events: they need
# perf_allow_tracepoint() whatever the sample type (EPERM).
echo 1 >/proc/sys/kernel/perf_event_paranoid
chmod 755 . && chmod 644 pe.py
unpriv() { # event id -> errno of a counting perf_event_open() of the task
	setpriv --reuid=65534 --regid=65534 --clear-groups python3 pe.py "$1" count
}
r=$(unpriv "$(cat $T/events/sched/sched_switch/id)")
[ "$r" = 0 ] || fail "an unprivileged user could not count sched:sched_switch: errno $r"
want=$(unpriv "$(cat $T/events/ftrace/function/id)")
[ "$want" = 1 ] || fail "unprivileged ftrace:function: errno $want, expected EPERM (1)"
for e in function_graph function_duration; do
	r=$(unpriv "$(cat $T/events/ftrace/$e/id)")
	[ "$r" = "$want" ] || fail "unprivileged ftrace:$e: errno $r, ftrace:function's $want"
	echo "unprivileged ftrace:$e: refused with errno $r, as ftrace:function (sched:sched_switch opens)"
done
