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
N=${PROF_N:-200000}
TXT=$OUT/profile.txt
TSV=$OUT/profile.tsv
: >"$TXT"
: >"$TSV"
PERF=$(command -v perf) || { echo "no perf" >"$TXT"; exit 1; }
cd $T || exit 1

reset() {
	echo nop >current_tracer
	local e
	for e in function function_graph function_duration; do
		echo 0 >events/ftrace/$e/enable
	done
	echo 0 >duration_thresh_ns
	echo >set_graph_notrace
	echo >trace
}

# Ring-buffer bytes and records, all CPUs: "bytes records overruns"
rb_stats() {
	awk '/^bytes:/ { b += $2 } /^entries:/ { e += $2 } /^overrun:/ { o += $2 }
	     END { print b + 0, e + 0, o + 0 }' per_cpu/cpu*/stats
}

# config: set up, then the loop once on its own (the instructions per
# iteration: the sampling interrupt's own instructions would count in a
# profiled run, though no sample can fall in them), then under perf record
# of the fbench task (the shares of the symbols)
prof() { # name
	local ns st
	echo >trace
	ns=$("$FB" syscall "$N" | tail -1)
	st=($(rb_stats))
	"$PERF" record -q -e cpu-clock -F 20000 -o /tmp/prof.data -- "$FB" syscall "$N" \
		>/dev/null 2>>"$OUT/perf.log"
	{
		echo "=== $1: $ns instructions per iteration; ring buffer: ${st[0]} bytes in ${st[1]} records, ${st[2]} overruns ==="
		"$PERF" report -i /tmp/prof.data --stdio --sort sym 2>>"$OUT/perf.log" |
			awk -v ns="$ns" -v cfg="$1" -v tsv="$TSV" -v top="${PROF_TOP:-30}" '
				/^ *[0-9.]+%/ {
					p = $1; sub(/%/, "", p)
					sym = $NF
					if (++n <= top)
						printf "%8.1f  %6.2f%%  %s\n", p * ns / 100, p, sym
					printf "%s\t%s\t%.1f\n", cfg, sym, p * ns / 100 >> tsv
				}'
	} >>"$TXT"
}

# 32 MB per CPU: the records of N calls fit, so no write takes the
# overwrite path
echo 32768 >buffer_size_kb
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
# Whether BCC's libbpf-tools funclatency loads here (it needs the kernel's BTF)
if command -v funclatency >/dev/null; then
	echo "=== funclatency -d 1 ksys_read ===" >>"$TXT"
	timeout 60 funclatency -d 1 ksys_read 2>&1 | head -5 >>"$TXT"
fi
cat "$TXT"
