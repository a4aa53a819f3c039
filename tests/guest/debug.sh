#!/bin/bash
# In the guest, on the debug kernel (lockdep, KASAN, kmemleak): the series'
# own suite (with the matrix and the bad-input corpus), then the stress for
# STRESS_SECONDS (from /mnt/results/stress.seconds), then a kmemleak scan of
# everything since boot.
#   debug.sh TREE
set -u
here=$(cd "$(dirname "$0")" && pwd)
res=/mnt/results
st=$1/tools/testing/selftests/ftrace
kml=/sys/kernel/debug/kmemleak
echo "guest: $(uname -r), $(nproc) CPUs, boot took $(cut -d' ' -f1 /proc/uptime) s"
[ -w $kml ] || echo "no kmemleak: not a debug kernel?"
bash "$here/ftracetest.sh" "$st" series "$res/series.list"
t0=$SECONDS
bash "$here/stress.sh" "$(cat $res/stress.seconds 2>/dev/null || echo 600)" "$(cat $res/stress.hotplug 2>/dev/null)"
echo "stress $((SECONDS - t0))" >>"$res/timings"
if [ -w $kml ]; then
	echo scan >$kml
	sleep 5
	echo scan >$kml
	cat $kml >"$res/kmemleak.txt"
	n=$(grep -c 'unreferenced object' "$res/kmemleak.txt")
	[ "$n" -eq 0 ] || echo "kmemleak: $n new suspected memory leaks" >/dev/kmsg
fi
