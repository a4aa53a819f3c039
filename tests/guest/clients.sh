#!/bin/bash
# In the guest: run the harness' real-client tests (tests/clients/*.sh) and
# leave clients.ktap in /mnt/results. Exit 0 passes, 77 skips, else fails.
#   clients.sh [PATTERN]   only the tests whose name contains PATTERN
# The perf tests run twice: with Debian's perf, then with the perf built
# from the kernel tree (scripts/perf-tree.sh), whose path the host leaves
# in /mnt/results/perf-tree. A path that is named there but does not run
# is a failure, not a skip. /mnt/results/perf-tree-only, if the host left
# it, names the perf tests that run again with that perf (substrings of
# their names, one per line); without it all of them do.
set -u
dir=$(cd "$(dirname "$0")/../clients" && pwd)
res=/mnt/results
mkdir -p "$res/clients-logs"
runs=()
for t in "$dir"/[0-9]*.sh; do
	case $(basename "$t") in *"${1:-}"*) ;; *) continue ;; esac
	runs+=("$t:")
done
tree_perf=$(cat "$res/perf-tree" 2>/dev/null)
tree_only=()
[ -f "$res/perf-tree-only" ] && mapfile -t tree_only <"$res/perf-tree-only"
tree_picks() { # NAME: a test perf-tree-only names, or there is no such list
	local o
	[ -f "$res/perf-tree-only" ] || return 0
	for o in "${tree_only[@]}"; do
		[[ -n $o && $1 == *"$o"* ]] && return 0
	done
	return 1
}
if [ -n "$tree_perf" ]; then
	for t in "$dir"/[0-9]*perf*.sh; do
		case $(basename "$t") in
		*"${1:-}"*) tree_picks "$(basename "$t")" && runs+=("$t:$tree_perf") ;;
		esac
	done
fi
# 50 took 409 s alone on a slow day, and more than 600 s beside the
# other lane's guest
limit=${CLIENT_TIMEOUT:-1200}
start=$SECONDS
{
	echo "TAP version 13"
	echo "1..${#runs[@]}"
} >"$res/clients.ktap"
n=0
for r in "${runs[@]}"; do
	t=${r%%:*}
	perf=${r#*:}
	n=$((n + 1))
	name=$(basename "$t" .sh)${perf:+ (tools/perf)}
	log=$res/clients-logs/$(basename "$t" .sh)${perf:+-tools-perf}.log
	# A guest killed in the middle of a case leaves its name
	echo "# running $n $name" >>"$res/clients.ktap"
	if [ -n "$perf" ] && ! "$perf" --version >/dev/null 2>&1; then
		echo "the perf of the tree, $perf, does not run" >"$log"
		rc=1
	else
		# timeout leads its own process group: what the test leaves
		# running when it ends or is killed (its perf sessions) is
		# killed with the group, or it would hold its functions and
		# fgraph slots in the tests after it
		(cd "$(mktemp -d)" && PERF=$perf exec timeout "$limit" bash "$t") >"$log" 2>&1 &
		tpid=$!
		wait $tpid
		rc=$?
		[ $rc -ne 124 ] || echo "timed out after $limit s" >>"$log"
		if kill -KILL -- -$tpid 2>/dev/null; then
			echo "killed what the test left running" >>"$log"
			for _ in $(seq 40); do
				pgrep -g $tpid >/dev/null || break
				sleep 0.5
			done
		fi
	fi
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
