#!/bin/bash
# In the guest: the "make check" tier. Runs the upstream cases that touch
# function/fgraph/events/triggers/instances together with every case the
# series adds, then the real-client tests.
#   check.sh TREE
set -u
tree=$1
here=$(cd "$(dirname "$0")" && pwd)
echo "guest: $(uname -r), $(nproc) CPUs, $(grep -c . /sys/kernel/tracing/available_events) events"
bash "$here/ftracetest.sh" "$tree/tools/testing/selftests/ftrace" ftracetest "$here/../upstream-check.list"
bash "$here/clients.sh"
