#!/bin/bash
# In the guest: the "make check" tier. Runs the upstream cases that touch
# function/fgraph/events/triggers/instances, every case the series adds
# (its own suite), then the real-client tests.
#   check.sh TREE RESULTS_ON_HOST (lists from scripts/case-lists.sh)
set -u
tree=$1
here=$(cd "$(dirname "$0")" && pwd)
st=$tree/tools/testing/selftests/ftrace
echo "guest: $(uname -r), $(nproc) CPUs, $(grep -c . /sys/kernel/tracing/available_events) events"
[ -s /mnt/results/series.list ] && bash "$here/ftracetest.sh" "$st" series /mnt/results/series.list
bash "$here/ftracetest.sh" "$st" ftracetest /mnt/results/upstream.list
bash "$here/clients.sh"
