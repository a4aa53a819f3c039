#!/bin/bash
# perf's own sample fields on the graph events, as on other tracepoints:
# comm, pid and tid, cpu, time and the sample's ip; and perf script
# decodes every field of the event's format, with values that agree with
# what the workload did and with perf's own timestamps.
. "$(dirname "$0")/lib.sh"
perf=$(perf_bin)
[ -x "$perf" ] || need perf
echo "perf: $("$perf" --version)"

# dd reads 1 byte at a time: vfs_read returns 1, called by ksys_read
for e in function_graph function_duration; do
	"$perf" record -q -e ftrace:$e --filter 'ip == vfs_read' -o f.data -- \
		taskset -c 1 dd if=/dev/zero of=/dev/null bs=1 count=50 2>/dev/null ||
		fail "perf record -e ftrace:$e failed"
	"$perf" script -i f.data --ns -F comm,pid,tid,cpu,time,event,ip,sym,trace >f-$e.txt 2>err.txt ||
		fail "perf script failed: $(cat err.txt)"
	head -4 f-$e.txt
	# Every field of the format is printed, with its name (exit as
	# entry/return)
	fields=$(sed -n 's/^\tfield:[^;]* \([a-z_]*\);.*/\1/p' $T/events/ftrace/$e/format | grep -v '^common_')
	echo "ftrace:$e fields: $(echo $fields)"
	python3 - "$e" f-$e.txt $fields <<'PY' || fail "ftrace:$e: perf script output is wrong"
import re, sys
ev, path, fields = sys.argv[1], sys.argv[2], sys.argv[3:]
# perf script prints the event's fields before the sample's ip
line_re = re.compile(r'^\s*(\S+)\s+(\d+)/(\d+)\s+\[(\d+)\]\s+(\d+\.\d+):\s+ftrace:' + ev +
                     r':\s+(.*\S)\s+([0-9a-f]+)\s+(\S+)$')
recs = []
for line in open(path):
    m = line_re.match(line)
    if not m:
        sys.exit(f"not a sample line: {line!r}")
    comm, pid, tid, cpu, t, trace, ip, sym = m.groups()
    kv = dict(re.findall(r'(\w+)=(\S+)', trace))
    kind = trace.split()[0] if ev == 'function_graph' else 'return'
    if ev == 'function_graph' and kind not in ('entry', 'return'):
        sys.exit(f"no entry/return: {line!r}")
    for f in fields:
        if f == 'exit':
            continue
        if f not in kv:
            sys.exit(f"field {f} missing: {line!r}")
    recs.append(dict(comm=comm, pid=int(pid), tid=int(tid), cpu=int(cpu),
                     t=round(float(t) * 1e9), sym=sym, kind=kind, **kv))
# dd's reads, and those of taskset before it sets its CPU and runs dd
dd = [r for r in recs if r['comm'] == 'dd']
if len(dd) < 100 // (2 if ev == 'function_duration' else 1):
    sys.exit(f"{len(dd)} records of dd")
for r in recs:
    if r['pid'] != r['tid'] or r['pid'] != dd[0]['pid']:
        sys.exit(f"a record of another task: {r}")
    if r['comm'] == 'dd' and r['cpu'] != 1:
        sys.exit(f"a record of another CPU than dd's (taskset -c 1): {r}")
    if r['func'] != 'vfs_read':
        sys.exit(f"func is not vfs_read: {r}")
    # The sample's ip: the traced function on an entry, its caller on a
    # return (ksys_read for dd's reads of its data; the parent field)
    if r['kind'] == 'entry':
        want = 'vfs_read'
    elif ev == 'function_duration':
        want = r['parent']
    elif r['comm'] == 'dd' and r['retval'] == '1':
        want = 'ksys_read'
    else:
        continue
    if r['sym'] != want:
        sys.exit(f"the sample's ip is at {r['sym']}, not {want}: {r}")
times = [r['t'] for r in recs]
if times != sorted(times):
    sys.exit("perf's timestamps go back")
ones = sum(1 for r in recs if r['kind'] == 'return' and r['retval'] == '1')
if ones < 50:
    sys.exit(f"{ones} returns of vfs_read with retval=1 (dd bs=1 count=50 reads 50 bytes)")
if ev == 'function_graph':
    # entry, return, entry, return ...: the return's duration is about the
    # time between the two samples
    ratios = []
    for a, b in zip(recs, recs[1:]):
        if a['kind'] == 'entry' and b['kind'] == 'return':
            if a['depth'] != b['depth'] or a['duration'] != '0':
                sys.exit(f"entry and return do not pair: {a} {b}")
            ratios.append(int(b['duration']) / max(1, b['t'] - a['t']))
    if len(ratios) < 50:
        sys.exit(f"{len(ratios)} entry/return pairs")
    ratios.sort()
    med = ratios[len(ratios) // 2]
    print(f"{len(ratios)} pairs; duration / (return time - entry time): median {med:.2f}")
    if not 0.2 < med < 5:
        sys.exit("the durations do not agree with perf's timestamps")
else:
    # calltime + duration: the return, just before the sample is written.
    # calltime is on trace_clock_local() (sched_clock()), the sample's time
    # on perf's local_clock(): apart by a constant (the sched_clock offset)
    lag = sorted(r['t'] - (int(r['calltime']) + int(r['duration'])) for r in recs)
    med = lag[len(lag) // 2]
    spread = lag[-1] - lag[0]
    print(f"{len(recs)} records; sample time - (calltime + duration): median {med} ns, spread {spread} ns")
    if not 0 <= spread < 10_000_000:
        sys.exit("calltime + duration is not the time of the return, up to a constant")
    for r in recs:
        if r['comm'] == 'dd' and r['retval'] == '1' and r['parent'] != 'ksys_read':
            sys.exit(f"parent is not ksys_read: {r}")
PY
	echo "ftrace:$e: perf script decodes every field"
done
