#!/bin/bash
# In the guest: the "make check" tier, in two parts that scripts/check.sh
# boots side by side, each with its own /mnt/results:
#   suites: every case the series adds (its own suite), then the upstream
#           cases that touch function/fgraph/events/triggers/instances
#   clients: the real-client tests, then a short stress
#   all: both, one after the other
#   check.sh TREE [suites|clients|all] (lists from scripts/case-lists.sh)
set -u
tree=$1 part=${2:-all}
here=$(cd "$(dirname "$0")" && pwd)
st=$tree/tools/testing/selftests/ftrace
echo "guest: $(uname -r), $(nproc) CPUs, $(grep -c . /sys/kernel/tracing/available_events) events; $part"
case $part in
suites | all)
	[ -s /mnt/results/series.list ] && bash "$here/ftracetest.sh" "$st" series /mnt/results/series.list
	bash "$here/ftracetest.sh" "$st" ftracetest /mnt/results/upstream.list
	;;
esac
case $part in
clients | all)
	KTREE=$tree bash "$here/clients.sh"
	# A short stress of every kind of function user at once
	# (STRESS_SECONDS on the host, 120 by default)
	t0=$SECONDS
	bash "$here/stress.sh" "$(cat /mnt/results/stress.seconds 2>/dev/null || echo 120)" \
		"$(cat /mnt/results/stress.hotplug 2>/dev/null)"
	echo "stress $((SECONDS - t0))" >>/mnt/results/timings
	;;
esac
