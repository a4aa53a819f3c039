#!/bin/bash
# In the guest: the whole ftracetest suite of TREE, less the cases listed
# in tests/upstream-exclude.list (each with the reason there).
#   full.sh TREE NAME
set -u
tree=$1 name=$2
here=$(cd "$(dirname "$0")" && pwd)
st=$tree/tools/testing/selftests/ftrace
list=$(mktemp)
(cd "$st" && find test.d -name '*.tc' | sed 's|^test.d/||' | sort) |
	grep -vxF -f <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$here/../upstream-exclude.list") >"$list"
echo "guest: $(uname -r), $(nproc) CPUs, $(grep -c . /sys/kernel/tracing/available_events) events, $(wc -l <"$list") cases"
bash "$here/ftracetest.sh" "$st" "$name" "$list"
