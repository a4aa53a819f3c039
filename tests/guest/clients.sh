#!/bin/bash
# In the guest: run the harness' real-client tests (tests/clients/*.sh) and
# leave clients.ktap in /mnt/results. Exit 0 passes, 77 skips, else fails.
set -u
dir=$(cd "$(dirname "$0")/../clients" && pwd)
res=/mnt/results
mkdir -p "$res/clients-logs"
tests=("$dir"/[0-9]*.sh)
start=$SECONDS
{
	echo "TAP version 13"
	echo "1..${#tests[@]}"
} >"$res/clients.ktap"
n=0
for t in "${tests[@]}"; do
	n=$((n + 1))
	name=$(basename "$t" .sh)
	log=$res/clients-logs/$name.log
	(cd "$(mktemp -d)" && timeout 600 bash "$t") >"$log" 2>&1
	rc=$?
	case $rc in
	0) line="ok $n $name" ;;
	77) line="ok $n $name # SKIP $(tail -1 "$log")" ;;
	*) line="not ok $n $name" ;;
	esac
	echo "$line" >>"$res/clients.ktap"
	printf '[%4ds] %s\n' $((SECONDS - start)) "$line"
	[ $rc -eq 0 ] || [ $rc -eq 77 ] || sed 's/^/#   /' "$log" | tail -20
	# Leave tracing as the next test expects to find it.
	echo nop >/sys/kernel/tracing/current_tracer
	echo 0 >/sys/kernel/tracing/events/enable
	echo >/sys/kernel/tracing/set_ftrace_filter
	echo >/sys/kernel/tracing/set_graph_function
done
echo "clients $((SECONDS - start))" >>"$res/timings"
