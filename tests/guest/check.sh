#!/bin/bash
# In the guest: the "make check" tier, in parts that scripts/check.sh
# boots in two guests side by side, each with its own /mnt/results:
#   series: every case the series adds (its own suite)
#   upstream: the upstream cases that touch function/fgraph/events/
#             triggers/instances
#   clients: the real-client tests
#   stress: a short stress of every kind of function user at once
#   check.sh TREE [PART...] (all four when none is named; lists from
#   scripts/case-lists.sh)
set -u
tree=$1
shift
parts=${*:-series upstream clients stress}
here=$(cd "$(dirname "$0")" && pwd)
st=$tree/tools/testing/selftests/ftrace
echo "guest: $(uname -r), $(nproc) CPUs, $(grep -c . /sys/kernel/tracing/available_events) events; $parts"
for part in $parts; do
	case $part in
	series)
		[ -s /mnt/results/series.list ] &&
			bash "$here/ftracetest.sh" "$st" series /mnt/results/series.list
		;;
	upstream)
		bash "$here/ftracetest.sh" "$st" ftracetest /mnt/results/upstream.list
		;;
	clients)
		KTREE=$tree bash "$here/clients.sh"
		;;
	stress)
		# STRESS_SECONDS on the host, 120 by default
		t0=$SECONDS
		bash "$here/stress.sh" "$(cat /mnt/results/stress.seconds 2>/dev/null || echo 120)" \
			"$(cat /mnt/results/stress.hotplug 2>/dev/null)"
		echo "stress $((SECONDS - t0))" >>/mnt/results/timings
		;;
	*)
		echo "check.sh: no part $part"
		exit 2
		;;
	esac
done
