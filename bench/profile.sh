#!/bin/bash
# In the guest: where the instructions of one traced call go. ksys_read
# traced, the syscall loop under perf's cpu-clock sampling of the fbench
# task alone. In exact mode (make bench BENCH_PROFILE=1) the guest clock
# counts instructions, so a cpu-clock sample falls every so many
# instructions, and a symbol's share of the samples times the loop's
# instructions per iteration is the instructions it runs per iteration.
#
#   profile.sh FBENCH OUT      writes OUT/profile.txt and OUT/profile.tsv
#                              (config, symbol, instructions per iteration)
set -u
FB=$1
OUT=$2
T=/sys/kernel/tracing
N=${PROF_N:-300000}
TXT=$OUT/profile.txt
TSV=$OUT/profile.tsv
: >"$TXT"
: >"$TSV"
PERF=$(command -v perf) || { echo "no perf" >"$TXT"; exit 1; }
cd $T || exit 1

reset() {
	echo nop >current_tracer
	echo 0 >events/ftrace/enable
	echo 0 >duration_thresh_ns
	echo >set_graph_notrace
	echo >trace
}

# config: set up, then the loop under perf record of the fbench task
prof() { # name
	local ns
	ns=$("$PERF" record -q -e cpu-clock -F 20000 -o /tmp/prof.data -- "$FB" syscall "$N" 2>/dev/null | tail -1)
	{
		echo "=== $1: $ns instructions per iteration ==="
		"$PERF" report -i /tmp/prof.data --stdio --sort sym 2>/dev/null |
			awk -v ns="$ns" -v cfg="$1" -v tsv="$TSV" '
				/^ *[0-9.]+%/ {
					p = $1; sub(/%/, "", p)
					sym = $NF
					printf "%8.1f  %6.2f%%  %s\n", p * ns / 100, p, sym
					printf "%s\t%s\t%.1f\n", cfg, sym, p * ns / 100 >> tsv
				}' | head -"${PROF_TOP:-30}"
	} >>"$TXT"
}

reset
echo ksys_read >set_ftrace_filter
prof none
echo function >current_tracer
prof function
reset
echo ksys_read >set_graph_notrace
echo function_graph >current_tracer
prof fgraph_empty
reset
echo 10000000000 >duration_thresh_ns
echo function_duration >current_tracer
prof fdur_floor
reset
echo function_duration >current_tracer
prof fdur_0
reset
echo function_graph >current_tracer
prof function_graph
reset
echo 1 >events/ftrace/function_duration/enable
prof ev_duration
reset
echo >set_ftrace_filter
cat "$TXT"
