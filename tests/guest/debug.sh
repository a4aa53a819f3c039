#!/bin/bash
# In the guest, on the debug kernel (lockdep, KASAN, kmemleak): the series'
# own suite (with the matrix and the bad-input corpus), then the stress for
# STRESS_SECONDS (from /mnt/results/stress.seconds). The stress's kmemleak
# scan covers both: the suspects of the boot are cleared before the suite.
# Then the perf client tests (Debian's perf), as perf opens, filters and
# closes the graph events on the debug kernel.
#   debug.sh TREE [stress|perf|series]
#                                 "stress": the stress alone; "perf": the
#                                 stress and the perf tests, without the
#                                 suite; "series": the suite and the
#                                 stress, without the perf tests
set -u
here=$(cd "$(dirname "$0")" && pwd)
res=/mnt/results
st=$1/tools/testing/selftests/ftrace
kml=/sys/kernel/debug/kmemleak
echo "guest: $(uname -r), $(nproc) CPUs, boot took $(cut -d' ' -f1 /proc/uptime) s"
if [ -w $kml ]; then echo clear >$kml; else echo "no kmemleak: not a debug kernel?"; fi
case ${2:-} in
"" | series) bash "$here/ftracetest.sh" "$st" series "$res/series.list" ;;
esac
t0=$SECONDS
# "light": the debug kernel under TCG runs tens of times slower; see stress.sh
bash "$here/stress.sh" "$(cat $res/stress.seconds 2>/dev/null || echo 600)" "$(cat $res/stress.hotplug 2>/dev/null)" light
echo "stress $((SECONDS - t0))" >>"$res/timings"
case ${2:-} in
stress | series) ;;
*) CLIENT_TIMEOUT=2400 bash "$here/clients.sh" perf ;;
esac
