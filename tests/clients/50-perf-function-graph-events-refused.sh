#!/bin/bash
# Until perf support lands, perf cannot open ftrace:function_graph or
# ftrace:function_duration: the open fails instead of recording nothing.
# ftrace:function, which perf always had, still opens.
. "$(dirname "$0")/lib.sh"
perf=$(perf_bin)
[ -x "$perf" ] || need perf
for e in function_graph function_duration; do
	[ -f $T/events/ftrace/$e/enable ] || fail "ftrace:$e has no enable file"
	if "$perf" record -q -e ftrace:$e -a -o $e.data -- true >$e.out 2>&1; then
		fail "perf record -e ftrace:$e succeeded"
	fi
	cat $e.out
	# perf record words EOPNOTSUPP as a PMU without sampling: check the
	# errno of the open itself.
	errno=$(python3 -c '
import ctypes, os, struct, sys
tp = int(open(sys.argv[1]).read())
# struct perf_event_attr (VER0, 64 bytes): type, size, config,
# sample_period, sample_type, read_format, flags (disabled)
attr = struct.pack("IIQQQQQ", 2, 64, tp, 1, 1 << 10, 0, 1) + bytes(16)
libc = ctypes.CDLL(None, use_errno=True)
# 298: perf_event_open on x86_64
fd = libc.syscall(298, attr, -1, 0, -1, 0)
print(0 if fd >= 0 else ctypes.get_errno())
' $T/events/ftrace/$e/id)
	[ "$errno" = 95 ] || fail "perf_event_open(ftrace:$e) gave errno $errno, expected EOPNOTSUPP (95)"
done
"$perf" record -q -e ftrace:function --filter 'ip == ksys_read' -a -o fn.data -- true 2>fn.err ||
	fail "perf record -e ftrace:function failed: $(cat fn.err)"
echo "refused as expected"
