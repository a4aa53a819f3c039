#!/bin/bash
# In the guest: where the instructions of one traced call go. ksys_read
# traced, the syscall loop under perf's cpu-clock sampling of the fbench
# task alone (PROF_LOOP=depth: the depth loop, with the functions of
# bench/guest.sh's depth rows traced). In exact mode (make bench BENCH_PROFILE=1) the guest clock
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
	local ns nsj spin st
	echo >trace
	ns=$("$FB" "$LOOP" "$N" | tail -1)
	read -ra st < <(rb_stats)
	# The profiled run spins a pseudo-random while after each read
	# (bench/fbench.c, FBENCH_JITTER): in exact mode the sampling timer
	# falls every so many instructions, and without it the samples land
	# on the same few points of the loop. The spin is in user space, the
	# same in every run: nsj - ns is its cost, and the kernel symbols'
	# shares of nsj are their instructions per iteration.
	nsj=$(FBENCH_JITTER=1 "$FB" "$LOOP" "$N" | tail -1)
	spin=$(awk -v j="$nsj" -v ns="$ns" 'BEGIN { printf "%.1f", j - ns }')
	FBENCH_JITTER=1 "$PERF" record -q -e cpu-clock -F "${PROF_FREQ:-20000}" -o /tmp/prof.data -- "$FB" "$LOOP" "$N" \
		>/dev/null 2>>"$OUT/perf.log"
	# The fbench task's own time (cpu-clock counts it alone): with one
	# vCPU, what other tasks ran (perf record draining its buffer) is the
	# difference from the elapsed time
	local own
	own=$("$PERF" report -i /tmp/prof.data --stdio --sort sym 2>/dev/null |
		sed -n 's/^# Event count (approx\.): *\([0-9]*\).*/\1/p' | head -1)
	{
		echo "=== $1: $ns instructions per iteration; ring buffer: ${st[0]} bytes in ${st[1]} records, ${st[2]} overruns; fbench's own cpu-clock $(awk -v o="${own:-0}" -v n="$N" -v s="$spin" 'BEGIN { printf "%.1f", o / n - s }') per iteration (the spin's $spin taken out) ==="
		"$PERF" report -i /tmp/prof.data --stdio --sort sym 2>>"$OUT/perf.log" |
			awk -v ns="$nsj" -v cfg="$1" -v tsv="$PTSV" -v top="${PROF_TOP:-30}" '
				/^ *[0-9.]+%/ {
					p = $1; sub(/%/, "", p)
					sym = $NF
					if (++n <= top)
						printf "%8.1f  %6.2f%%  %s\n", p * ns / 100, p, sym
					printf "%s\t%s\t%.1f\n", cfg, sym, p * ns / 100 >> tsv
				}'
	} >>"$TXT"
}

# The perf paths: a background "perf record -a" of the event (ksys_read
# chosen by its filter, as bench/guest.sh's perf rows do) while the loop is
# measured and profiled. The background session reads its buffers on the
# other vCPU; the profile is of the fbench task, so it sees the cost of
# writing a sample in the traced call, not of reading it.
BG=
bg_start() { # event [filter]
	local i
	# perf keeps the last file as .old: two of them fill the guest's tmpfs
	rm -f /tmp/prof.bg.data /tmp/prof.bg.data.old
	"$PERF" record -q -e "$1" ${2:+--filter "$2"} -a -o /tmp/prof.bg.data \
		>/dev/null 2>>"$OUT/perf.log" &
	BG=$!
	# ready when the session's function is patched (the ftrace events), or
	# after a few seconds (the static tracepoint)
	for i in $(seq 30); do
		if [ -n "${2:-}" ] && grep -q "^${FUNCS[0]} " enabled_functions; then
			sleep 1
			return 0
		fi
		kill -0 $BG 2>/dev/null || return 1
		sleep 1
		[ -z "${2:-}" ] && [ "$i" -ge 3 ] && return 0
	done
	return 1
}
bg_stop() {
	[ -n "$BG" ] || return 0
	kill -INT $BG 2>/dev/null
	wait $BG 2>/dev/null
	BG=
}
cfg_perf_graph() { bg_start ftrace:function_graph "$(funcs_filter)"; }
cfg_perf_duration() { bg_start ftrace:function_duration "$(funcs_filter)"; }
cfg_perf_function() { bg_start ftrace:function "$(funcs_filter)"; }
cfg_perf_tp() { bg_start syscalls:sys_enter_read; }

# 32 MB per CPU: the records of N calls fit, so no write takes the
# overwrite path
echo 32768 >buffer_size_kb
LOOP=syscall FUNCS=(ksys_read)
if [ "${PROF_LOOP:-syscall}" = depth ]; then
	LOOP=depth
	mapfile -t FUNCS < <(depth_set)
	echo "# depth loop: ${FUNCS[*]} traced; $(count_calls) traced calls per iteration" >>"$TXT"
fi
for c in ${PROF_CONFIGS:-none function fgraph_empty fdur_floor fdur_0 function_graph ev_duration ev_function \
	ev_graph ev_tp perf_function perf_graph perf_duration perf_tp}; do
	reset_all
	if ! "cfg_$c"; then
		echo "=== $c: could not start ===" >>"$TXT"
		bg_stop
		continue
	fi
	prof "$c"
	# A background session that ended before the profiled run left its
	# call untraced there: say so, the figures of that run are not its own
	if [ -n "$BG" ] && ! kill -0 "$BG" 2>/dev/null; then
		echo "=== $c: the background perf record had ended before the profiled run: its profile and own cpu-clock are of an untraced loop ===" >>"$TXT"
	fi
	bg_stop
	rm -f /tmp/prof.bg.data /tmp/prof.bg.data.old
done
reset_all
# Whether BCC's libbpf-tools funclatency loads here (it needs the kernel's BTF)
if command -v funclatency >/dev/null; then
	echo "=== funclatency -d 1 ksys_read ===" >>"$TXT"
	timeout 60 funclatency -d 1 ksys_read 2>&1 | head -5 >>"$TXT"
fi
cat "$TXT"
