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
# The configurations and helpers of the benchmark (cfg_*, reset_all, rb_stats)
BENCH_LIB=1 . "$(dirname "$0")/guest.sh" "$FB" "$OUT"
TXT=$OUT/profile.txt
PTSV=$OUT/profile.tsv
: >"$TXT"
: >"$PTSV"
[ -n "$PERF" ] || { echo "no perf" >"$TXT"; exit 1; }

# config: set up, then the loop once on its own (the instructions per
# iteration: the sampling interrupt's own instructions would count in a
# profiled run, though no sample can fall in them), then under perf record
# of the fbench task (the shares of the symbols)
prof() { # name
	local ns st
	echo >trace
	ns=$("$FB" syscall "$N" | tail -1)
	read -ra st < <(rb_stats)
	"$PERF" record -q -e cpu-clock -F 20000 -o /tmp/prof.data -- "$FB" syscall "$N" \
		>/dev/null 2>>"$OUT/perf.log"
	{
		echo "=== $1: $ns instructions per iteration; ring buffer: ${st[0]} bytes in ${st[1]} records, ${st[2]} overruns ==="
		"$PERF" report -i /tmp/prof.data --stdio --sort sym 2>>"$OUT/perf.log" |
			awk -v ns="$ns" -v cfg="$1" -v tsv="$PTSV" -v top="${PROF_TOP:-30}" '
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
LOOP=syscall FUNCS=(ksys_read)
for c in none function fgraph_empty fdur_floor fdur_0 function_graph ev_duration; do
	reset_all
	"cfg_$c"
	prof "$c"
done
reset_all
# Whether BCC's libbpf-tools funclatency loads here (it needs the kernel's BTF)
if command -v funclatency >/dev/null; then
	echo "=== funclatency -d 1 ksys_read ===" >>"$TXT"
	timeout 60 funclatency -d 1 ksys_read 2>&1 | head -5 >>"$TXT"
fi
cat "$TXT"
