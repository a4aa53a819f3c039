#!/bin/bash
# In the guest, on the debug kernel: the check tier, then a kmemleak scan.
set -u
here=$(cd "$(dirname "$0")" && pwd)
kml=/sys/kernel/debug/kmemleak
[ -w $kml ] && echo clear >$kml
bash "$here/check.sh" "$1"
if [ -w $kml ]; then
	echo scan >$kml
	sleep 5
	echo scan >$kml
	cat $kml >/mnt/results/kmemleak.txt
	n=$(grep -c 'unreferenced object' /mnt/results/kmemleak.txt)
	[ "$n" -eq 0 ] || echo "kmemleak: $n new suspected memory leaks" >/dev/kmsg
fi
