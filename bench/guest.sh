#!/bin/bash
# In the guest: the function tracing benchmark. Runs every configuration on
# the same function set, interleaved, ROUNDS times, and writes raw figures
# to OUT/bench.tsv for bench/report.py:
#
#   run   LOOP CONFIG ROUND NS_PER_ITERATION
#   cpi   LOOP CALLS_PER_ITERATION        traced calls of the function set
#   bytes LOOP CONFIG BYTES_PER_CALL      ring-buffer bytes per traced call
#   na    LOOP CONFIG REASON              a configuration that could not run
#   set   LOOP N FUNCTIONS...             the function set
#   attach METHOD SIZE ATTACH_NS DETACH_NS time to start and to stop tracing
#                                         SIZE functions (or "all")
#
#   guest.sh FBENCH OUT
#
# With BENCH_LIB=1, sourcing it only defines the configurations and
# helpers (bench/profile.sh runs them its own way).
#
# Plain tracefs I/O, no library: what is measured is the kernel.
set -u
FB=$1
OUT=$2
T=/sys/kernel/tracing
ROUNDS=${ROUNDS:-5}
N_SYSCALL=${N_SYSCALL:-40000}
N_DEPTH=${N_DEPTH:-20000}
N_MULTI=${N_MULTI:-300}
SCALE_ROUNDS=${SCALE_ROUNDS:-3}
# the sizes of the attach timing; "all" is every function, for the
# methods that take them all at once
ATTACH_SIZES=${ATTACH_SIZES:-1 100 1000 all}
TSV=$OUT/bench.tsv
LOG=$OUT/bench.log
log() { echo "$*" | tee -a "$LOG" >&2; }
emit() { printf '%s\n' "$(IFS=$'\t'; echo "$*")" >>"$TSV"; }

cd $T || exit 1
PERF=$(command -v perf || true)
BPFTRACE=$(command -v bpftrace || true)
# BCC's funclatency: the libbpf-tools build (compiled once, CO-RE, starts at
# once) where it is installed, else the Python one, which compiles its
# program with clang in the guest at every start
FUNCLAT=$(command -v funclatency || true)
FUNCLAT_PY=$(command -v funclatency-bpfcc || true)
# The libbpf-tools build loads a compiled CO-RE object, which needs the
# kernel's BTF (CONFIG_DEBUG_INFO_BTF: DWARF and pahole at build time, off in
# the harness's config). BENCH_BCC=1 takes the Python build in any case.
FUNCLAT_WHY="no libbpf-tools"
if [ -n "$FUNCLAT" ] && [ ! -r /sys/kernel/btf/vmlinux ]; then
	FUNCLAT_WHY="libbpf-tools needs the kernel's BTF (CONFIG_DEBUG_INFO_BTF, off here)"
	FUNCLAT=
fi
[ "${BENCH_BCC:-0}" != 1 ] || FUNCLAT=
# BCC compiles its programs against the running kernel's headers. Its
# lookup of /lib/modules/RELEASE/{build,source} found the build directory
# but not the tree's include/linux/kconfig.h, so it gets one directory
# (BCC_KERNEL_SOURCE) that merges, as symbolic links in the guest's tmpfs,
# the headers of the tree and those the build generated
BCC_KDIR=/tmp/bcc-kernel
bcc_headers() {
	local k=${BENCH_KSRC:-} o=${BENCH_KBUILD:-}
	[ -n "$o" ] && [ -f "$o/include/generated/autoconf.h" ] && [ -f "$k/include/linux/kconfig.h" ] ||
		return 1
	[ -f $BCC_KDIR/include/generated/autoconf.h ] && return 0
	rm -rf $BCC_KDIR && mkdir -p $BCC_KDIR/arch/x86 &&
		cp -rs "$k/include" $BCC_KDIR/ &&
		cp -rs "$k/arch/x86/include" $BCC_KDIR/arch/x86/ &&
		cp -rs "$o/include/generated" "$o/include/config" $BCC_KDIR/include/ &&
		cp -rs "$o/arch/x86/include/generated" $BCC_KDIR/arch/x86/include/
}
echo 16384 >buffer_size_kb

reset_all() {
	echo 0 >tracing_on
	echo nop >current_tracer
	local e
	for e in function function_graph function_duration; do
		echo 0 >events/ftrace/$e/enable 2>/dev/null
		# a hist trigger is removed by its spec and its filter ("if ...")
		sed -n 's/^\(hist:.*\) \[[a-z]*\]$/!\1/p' events/ftrace/$e/trigger 2>/dev/null |
			while read -r t; do echo "$t" >events/ftrace/$e/trigger; done
	done
	echo 0 >events/enable
	for d in instances/fbidle_*; do
		[ -d "$d" ] || continue
		echo 0 >"$d/events/ftrace/function_duration/enable"
		rmdir "$d"
	done
	echo >dynamic_events 2>/dev/null
	echo >kprobe_events 2>/dev/null
	echo >set_ftrace_filter
	echo >set_graph_function
	echo >set_graph_notrace
	echo 0 >tracing_thresh
	echo 0 >max_graph_depth
	echo 1 >options/funcgraph-irqs
	echo 0 >duration_thresh_ns
	echo >trace
	echo 1 >tracing_on
}

# Ring-buffer bytes in use, records and overruns, all CPUs
rb_stats() {
	awk '/^bytes:/ { b += $2 } /^entries:/ { e += $2 } /^overrun:/ { o += $2 }
	     END { print b + 0, e + 0, o + 0 }' per_cpu/cpu*/stats
}

# Ring-buffer bytes in use; warn on overruns
rb_bytes() {
	local s
	read -ra s < <(rb_stats)
	[ "${s[2]}" = 0 ] || echo "overrun ${s[2]}" >&2
	echo "${s[0]}"
}

# set_ftrace_filter by index: fast for a thousand functions
set_filter() { # functions...
	if [ $# -eq 0 ]; then
		echo >set_ftrace_filter
		return
	fi
	printf '%s\n' "$@" | awk 'NR == FNR { want[$1] = 1; next }
		{ sub(/ .*/, "") } ($0 in want) { printf "%d ", FNR }' - available_filter_functions >/tmp/fb.idx
	cat /tmp/fb.idx >set_ftrace_filter
}

# --- the configurations: cfg_NAME sets up, the workload runs, reset_all ---
# FUNCS is the function set of the loop.
cfg_none() { :; }
cfg_function() { set_filter "${FUNCS[@]}"; echo function >current_tracer; }
cfg_function_graph() { set_filter "${FUNCS[@]}"; echo function_graph >current_tracer; }
cfg_fdur_0() { set_filter "${FUNCS[@]}"; echo function_duration >current_tracer; }
cfg_fdur_floor() {
	set_filter "${FUNCS[@]}"
	echo 10000000000 >duration_thresh_ns
	echo function_duration >current_tracer
}
# An fgraph user that does nothing: function_graph, with the functions in
# set_graph_notrace, hooks entry and return and writes nothing
cfg_fgraph_empty() {
	set_filter "${FUNCS[@]}"
	printf '%s\n' "${FUNCS[@]}" >set_graph_notrace
	echo function_graph >current_tracer
}
# function_graph's own threshold (tracing_thresh, in us): returns only
cfg_fg_thresh() {
	set_filter "${FUNCS[@]}"
	echo 10000000 >tracing_thresh
	echo function_graph >current_tracer
}
cfg_ev_function() { set_filter "${FUNCS[@]}"; echo 1 >events/ftrace/function/enable; }
cfg_ev_graph() { set_filter "${FUNCS[@]}"; echo 1 >events/ftrace/function_graph/enable; }
cfg_ev_duration() { set_filter "${FUNCS[@]}"; echo 1 >events/ftrace/function_duration/enable; }
# A reference for the perf rows: a static tracepoint that fires once per
# read(2) (once per traced call of the syscall loop), by tracefs and perf
cfg_ev_tp() { echo 1 >events/syscalls/sys_enter_read/enable; }
# ftrace:function_duration, and N more instances with the event on
# functions the loop does not call: consumers that do not want the call
# (the dispatch should not get slower with them)
idle_consumers() { # n
	local i f
	mapfile -t IDLE_F < <(grep -E '^(pci_|acpi_ut_)[a-z_]+$' available_filter_functions | head -16)
	for ((i = 0; i < $1; i++)); do
		mkdir -p instances/fbidle_$i
		echo 64 >instances/fbidle_$i/buffer_size_kb
		echo "${IDLE_F[i]}" >instances/fbidle_$i/set_ftrace_filter
		echo 1 >instances/fbidle_$i/events/ftrace/function_duration/enable || return 1
	done
}
cfg_ev_duration_idle1() { idle_consumers 1 && cfg_ev_duration; }
cfg_ev_duration_idle4() { idle_consumers 4 && cfg_ev_duration; }
cfg_ev_duration_idle16() { idle_consumers 16 && cfg_ev_duration; }
cfg_hist_duration() {
	set_filter "${FUNCS[@]}"
	echo 'hist:keys=func.sym,duration.log2' >events/ftrace/function_duration/trigger
}
# Every function, only slow calls kept: a hist trigger whose filter no
# call passes (the threshold of cfg_fdur_floor and cfg_fg_thresh)
cfg_hist_slow() {
	set_filter "${FUNCS[@]}"
	echo 'hist:keys=func.sym:vals=duration if duration > 10000000000' \
		>events/ftrace/function_duration/trigger
}
cfg_kretprobe() {
	local i=0 f
	for f in "${FUNCS[@]}"; do
		echo "r:fbench/r$i $f" >>kprobe_events 2>/dev/null || log "kretprobe: $f refused"
		i=$((i + 1))
	done
	echo 1 >events/fbench/enable
}
cfg_fprobe_exit() {
	local i=0 f
	for f in "${FUNCS[@]}"; do
		echo "f:fbench/f$i $f%return" >>dynamic_events 2>/dev/null || log "fprobe: $f refused"
		i=$((i + 1))
	done
	echo 1 >events/fbench/enable
}

# Runners: print ns per iteration of one run of the loop.
plain_run() { "$FB" "$LOOP" "$N"; }

# The functions the tracefs rows trace, as the perf filter that chooses
# them in the kernel
funcs_filter() {
	local f expr=
	for f in "${FUNCS[@]}"; do expr="${expr:+$expr || }ip == $f"; done
	echo "$expr"
}

# perf record of EVENT (with FILTER) around one run of the loop.
# - Per task by default (PERF_SCOPE=-a: system-wide). A system-wide session
#   records its own write(2) calls too, which run fdget_pos and
#   rw_verify_area of the depth loop's set: it fed itself (51-107% more
#   samples than the loop's calls, 14-42% spread).
# - With a buffer that holds the whole run (PERF_MMAP per CPU; perf wakes
#   its reader at half of it): perf record sleeps until the loop ends. The
#   exact mode's clock counts the instructions of every vCPU, so its
#   reading of the buffer during the loop counted as the traced calls'
#   cost (a busy loop on the other vCPU doubles the untraced figure).
# perf keeps the last file as .old: the guest's tmpfs holds only one.
perf_record_run() { # event [filter]
	rm -f /tmp/fb.perf.data /tmp/fb.perf.data.old
	"$PERF" record -q ${PERF_SCOPE:-} -m "${PERF_MMAP:-64M}" -e "$1" \
		${2:+--filter "$2"} -o /tmp/fb.perf.data -- \
		"$FB" "$LOOP" "$N" 2>>"$LOG" | tail -1
	rm -f /tmp/fb.perf.data /tmp/fb.perf.data.old
}

perf_run() { perf_record_run "$1" "$(funcs_filter)"; }

# Wait until a line of FILE matches PATTERN, while PID lives: at most TRIES
# times INTERVAL seconds. Fails if it never did.
wait_for_line() { # file pattern pid tries interval
	local i
	for i in $(seq "$4"); do
		grep -q "$2" "$1" && return 0
		kill -0 "$3" 2>/dev/null || break
		sleep "$5"
	done
	grep -q "$2" "$1"
}

# Run the loop under a tool started in the background: wait until its
# output shows READY, run the loop, stop the tool with SIGINT, and check
# that its output shows DONE. Its output goes to the log if it fails.
tool_run() { # output ready tries interval done command...
	local out=$1 ready=$2 tries=$3 interval=$4 done=$5 pid t
	shift 5
	"$@" >"$out" 2>&1 &
	pid=$!
	if ! wait_for_line "$out" "$ready" $pid "$tries" "$interval"; then
		kill -INT $pid 2>/dev/null
		wait $pid
		cat "$out" >>"$LOG"
		return 1
	fi
	sleep 1
	if ! kill -0 $pid 2>/dev/null; then
		cat "$out" >>"$LOG"
		return 1
	fi
	t=$("$FB" "$LOOP" "$N")
	kill -INT $pid
	wait $pid
	grep -q "$done" "$out" || { cat "$out" >>"$LOG"; return 1; }
	echo "$t"
}

perf_tp_run() { perf_record_run syscalls:sys_enter_read; }

bpftrace_run() {
	local prog='' i=0 f
	for f in "${FUNCS[@]}"; do
		prog="$prog kprobe:$f { @s${i}[tid] = nsecs; }
		kretprobe:$f /@s${i}[tid]/ { @h${i} = hist(nsecs - @s${i}[tid]); delete(@s${i}[tid]); }"
		i=$((i + 1))
	done
	tool_run /tmp/fb.bt '^Attaching' 600 0.1 '^@h0' \
		env BPFTRACE_MAX_PROBES=$((2 * ${#FUNCS[@]} + 10)) "$BPFTRACE" -e "$prog"
}

# BCC's funclatency: a kprobe and a kretprobe per function, a log2
# histogram of the durations in a BPF map, printed at the end. The
# libbpf-tools build takes one function; stdbuf, or its "Tracing" line
# would wait in stdio's buffer until it exits. The Python build takes a
# regular expression, but compiles its program with clang first: minutes
# under TCG
funclatency_run() {
	if [ -n "$FUNCLAT" ]; then
		tool_run /tmp/fb.fl '^Tracing' 600 0.1 '^Exiting trace' \
			stdbuf -oL "$FUNCLAT" "${FUNCS[0]}"
		return
	fi
	local re
	re="^($(IFS='|'; echo "${FUNCS[*]}"))\$"
	tool_run /tmp/fb.fl '^Tracing' 3600 0.5 'nsecs' \
		env BCC_KERNEL_SOURCE=$BCC_KDIR "$FUNCLAT_PY" -r "$re"
}

perf_latency_run() {
	"$PERF" ftrace latency -T "${FUNCS[0]}" -- "$FB" "$LOOP" "$N" 2>>"$LOG" |
		grep -E '^[0-9.]+$' | tail -1
}

# Which configurations exist on this kernel and with these tools
CONFIGS=(none function function_graph fgraph_empty fg_thresh fdur_0 fdur_floor ev_function ev_graph ev_duration
	ev_duration_idle1 ev_duration_idle4 ev_duration_idle16
	hist_duration hist_slow perf_function perf_graph perf_duration ev_tp perf_tp kretprobe fprobe_exit bpftrace funclatency perf_latency)
# BENCH_CONFIGS: run only these (the CPU sweep of scripts/bench.sh)
[ -z "${BENCH_CONFIGS:-}" ] || read -ra CONFIGS <<<"$BENCH_CONFIGS"
runnable() { # config -> 0 if it can run, else prints why
	case $1 in
	perf_*) [ -n "$PERF" ] || { echo "no perf"; return 1; } ;;
	esac
	case $1 in
	ev_tp | perf_tp)
		[ -d events/syscalls/sys_enter_read ] || { echo "no syscalls:sys_enter_read"; return 1; }
		[ "$LOOP" = syscall ] || { echo "a reference of the syscall loop only"; return 1; }
		;;
	bpftrace) [ -n "$BPFTRACE" ] || { echo "no bpftrace"; return 1; } ;;
	funclatency)
		if [ -n "$FUNCLAT" ]; then
			[ ${#FUNCS[@]} -eq 1 ] ||
				{ echo "libbpf-tools funclatency takes one function"; return 1; }
			return 0
		fi
		# The Python build compiles its program with clang in the guest:
		# in exact mode one start had not printed "Tracing" after 19 min
		[ -n "$FUNCLAT_PY" ] || { echo "no funclatency (libbpf-tools or bpfcc-tools)"; return 1; }
		[ "${BENCH_BCC:-0}" = 1 ] ||
			{ echo "$FUNCLAT_WHY; bpfcc-tools compiles in the guest, over 19 min under TCG (BENCH_BCC=1)"; return 1; }
		bcc_headers || { echo "no kernel headers for BCC (BENCH_KBUILD)"; return 1; }
		;;
	esac
	case $1 in
	perf_graph | perf_duration)
		local e=function_${1#perf_}
		if ! "$PERF" record -q -e ftrace:$e --filter "ip == ${FUNCS[0]}" -o /tmp/fb.probe.data -- true >/dev/null 2>&1; then
			echo "not yet (perf refuses ftrace:$e)"
			return 1
		fi
		;;
	perf_latency)
		[ ${#FUNCS[@]} -eq 1 ] || { echo "one function only"; return 1; }
		"$PERF" ftrace latency -h 2>&1 | grep -q -- '--use-bpf\|-T' ||
			{ echo "perf has no ftrace latency"; return 1; }
		;;
	esac
	return 0
}

run_config() { # config -> ns per iteration on stdout
	reset_all
	case $1 in
	perf_function) perf_run ftrace:function ;;
	perf_graph) perf_run ftrace:function_graph ;;
	perf_duration) perf_run ftrace:function_duration ;;
	perf_tp) perf_tp_run ;;
	bpftrace) bpftrace_run ;;
	funclatency) funclatency_run ;;
	perf_latency) perf_latency_run ;;
	*)
		"cfg_$1"
		plain_run
		;;
	esac
}

# Traced calls of FUNCS per iteration of LOOP, counted by the function
# tracer for one process
count_calls() {
	reset_all
	set_filter "${FUNCS[@]}"
	echo function >current_tracer
	local n=2000
	sh -c 'echo $$ >set_ftrace_pid; exec "$0" "$1" "$2" >/dev/null' "$FB" "$LOOP" $n
	echo 0 >tracing_on
	local c
	c=$(grep -vc '^#' trace)
	echo >set_ftrace_pid
	reset_all
	awk -v c="$c" -v n=$n 'BEGIN { printf "%.2f\n", c / n }'
}

# ksys_read and the functions it calls, three levels down, for "depth":
# those called in every iteration (not interrupts, softirqs or slow
# paths), less preempt_count_add/sub, which the tracers themselves call
depth_set() {
	local n=50
	reset_all
	echo ksys_read >set_graph_function
	echo 3 >max_graph_depth
	echo 0 >options/funcgraph-irqs
	echo function_graph >current_tracer
	sh -c 'echo $$ >set_ftrace_pid; exec "$0" syscall "$1" >/dev/null' "$FB" $n
	echo 0 >tracing_on
	echo >set_ftrace_pid
	grep -v '^#' trace | grep -oE '[A-Za-z_][A-Za-z0-9_.]*\(\)' | tr -d '()' | sort | uniq -c |
		awk -v n=$n '$1 >= n && $2 !~ /^preempt_count_/ { print $2 }' |
		awk 'NR == FNR { ok[$1] = 1; next } ($1 in ok)' <(sed 's/ .*//' available_filter_functions) - |
		kprobeable
	reset_all
}

# The functions of stdin that kprobes accept, so that every configuration
# traces the same set
kprobeable() {
	local f
	while read -r f; do
		if echo "r:fbench/probe $f" >>kprobe_events 2>/dev/null; then
			echo "-:fbench/probe" >>kprobe_events
			echo "$f"
		fi
	done
}

bench_loop() { # loop N functions...
	LOOP=$1 N=$2
	shift 2
	FUNCS=("$@")
	emit set "$LOOP" ${#FUNCS[@]} "${FUNCS[@]}"
	local cpi
	cpi=$(count_calls)
	emit cpi "$LOOP" "$cpi"
	log "== loop $LOOP: ${#FUNCS[@]} functions, $cpi traced calls per iteration, $N iterations"
	local ok=() c why
	for c in "${CONFIGS[@]}"; do
		if why=$(runnable "$c"); then
			ok+=("$c")
		else
			emit na "$LOOP" "$c" "$why"
			log "   $c: $why"
		fi
	done
	local r t b
	local -A got=()
	for r in $(seq "$ROUNDS"); do
		for c in "${ok[@]}"; do
			t=$(run_config "$c")
			if [ -z "$t" ]; then
				log "   $c: no result in round $r"
				continue
			fi
			emit run "$LOOP" "$c" "$r" "$t"
			if [ -z "${got[$c]:-}" ]; then
				got[$c]=1
				b=$(rb_bytes)
				[ "$b" -gt 0 ] && emit bytes "$LOOP" "$c" \
					"$(awk -v b="$b" -v n="$N" -v c="$cpi" 'BEGIN { printf "%.1f", b / (n * c) }')"
			fi
			log "   round $r $c $t ns/iteration"
		done
	done
	for c in "${ok[@]}"; do
		[ -n "${got[$c]:-}" ] || emit na "$LOOP" "$c" "no result in any round (see bench.log)"
	done
	reset_all
}

# --- Scale: all-function load, growing function sets ---
# The functions the multi-process load calls, most called first, counted
# by a hist trigger on ftrace:function (nothing goes to the ring buffer)
hot_functions() {
	reset_all
	echo 'hist:keys=ip.sym:sort=hitcount.descending:size=32768' >events/ftrace/function/trigger
	"$FB" multi 20 >/dev/null
	echo 0 >tracing_on
	sed -n 's/^{ ip: \[[0-9a-f]*\] \([A-Za-z_][A-Za-z0-9_.]*\) *} hitcount: *\([0-9]*\).*/\1/p' \
		events/ftrace/function/hist | awk '!seen[$1]++'
	reset_all
}

scale() {
	LOOP=multi N=$N_MULTI
	local hot sizes=(1 10 100 1000 all) r s c t
	mapfile -t hot < <(hot_functions)
	log "== scale: the load calls ${#hot[@]} distinct functions"
	emit cpi scale "${#hot[@]}"
	for r in $(seq "$SCALE_ROUNDS"); do
		t=$(run_config none)
		[ -n "$t" ] && emit run scale none "$r" "$t"
		log "   round $r none $t"
		for s in "${sizes[@]}"; do
			if [ "$s" = all ]; then
				FUNCS=()
			else
				[ "$s" -le ${#hot[@]} ] || continue
				FUNCS=("${hot[@]:0:$s}")
			fi
			for c in function function_graph fdur_0; do
				reset_all
				if [ "$s" = all ]; then
					case $c in
					function) echo function >current_tracer ;;
					function_graph) echo function_graph >current_tracer ;;
					fdur_0) echo function_duration >current_tracer ;;
					esac
				else
					"cfg_$c"
				fi
				t=$(plain_run)
				[ -n "$t" ] && emit run "scale-$s" "$c" "$r" "$t"
				log "   round $r $c/$s $t"
			done
		done
	done
	reset_all
}

# --- Every function, only slow calls kept (issue 14, item 3) ---
# The multi load with no function filter: each way of keeping only the
# calls above 10 s (none is that slow), and the function tracer
slow_only() {
	# the multi load; its rows are labelled "slow"
	LOOP=multi N=$N_MULTI FUNCS=()
	local r c t
	log "== slow: every function, only calls above 10 s kept"
	for r in $(seq "$SCALE_ROUNDS"); do
		for c in none fdur_floor fg_thresh hist_slow function; do
			t=$(run_config "$c")
			[ -n "$t" ] && emit run slow "$c" "$r" "$t"
			log "   round $r $c $t"
		done
	done
	reset_all
}

# --- Attach and detach time (issue 14, item 4) ---
# For 1, 100 and 1000 functions (the multi load's most called, so that
# every method takes the same set) and for every function: the time from
# nothing to tracing (the function filter included), and back.
ns_now() { date +%s%N; }
attach_one() { # method functions... -> "ATTACH_NS DETACH_NS", or fails
	local m=$1 t0 t1 t2 i=0 f pid
	shift
	reset_all
	case $m in
	fdur_tracer | fdur_event)
		t0=$(ns_now)
		if [ $# -gt 0 ]; then set_filter "$@"; fi
		if [ $m = fdur_tracer ]; then
			echo function_duration >current_tracer
		else
			echo 1 >events/ftrace/function_duration/enable
		fi
		t1=$(ns_now)
		echo nop >current_tracer
		echo 0 >events/ftrace/function_duration/enable
		echo >set_ftrace_filter
		t2=$(ns_now)
		;;
	kretprobe | fprobe_exit)
		for f in "$@"; do
			if [ $m = kretprobe ]; then
				echo "r:fbatt/p$i $f"
			else
				echo "f:fbatt/p$i $f%return"
			fi
			i=$((i + 1))
		done >/tmp/fb.probes
		t0=$(ns_now)
		if [ $m = kretprobe ]; then
			cat /tmp/fb.probes >>kprobe_events 2>/dev/null || return 1
		else
			cat /tmp/fb.probes >>dynamic_events 2>/dev/null || return 1
		fi
		echo 1 >events/fbatt/enable || return 1
		t1=$(ns_now)
		echo 0 >events/fbatt/enable
		echo >dynamic_events
		t2=$(ns_now)
		;;
	bpftrace)
		# BEGIN runs once every probe is attached
		local prog
		prog="BEGIN { printf(\"ready\\n\"); } $(printf 'kretprobe:%s,' "$@" | sed 's/,$//') { @n = count(); }"
		t0=$(ns_now)
		# bpftrace 0.17 attaches at most 512 probes unless told
		BPFTRACE_MAX_PROBES=$(($# + 10)) "$BPFTRACE" -e "$prog" >/tmp/fb.att 2>&1 &
		pid=$!
		wait_for_line /tmp/fb.att '^ready' $pid 6000 0.05 ||
			{ kill $pid 2>/dev/null; cat /tmp/fb.att >>"$LOG"; return 1; }
		t1=$(ns_now)
		kill -INT $pid
		wait $pid
		t2=$(ns_now)
		;;
	esac
	echo "$((t1 - t0)) $((t2 - t1))"
}

attach_times() {
	local hot s m r
	# The same set for every method: the functions that kprobes accept,
	# less those bpftrace refuses as unsafe to probe (the spinlocks) and
	# the preempt_count and RCU helpers that every probe itself runs
	mapfile -t hot < <(hot_functions |
		grep -Ev 'raw_spin|spin_(un)?lock|queued_|preempt_count|rcu_read_(un)?lock' | kprobeable)
	log "== attach: $ATTACH_SIZES of the ${#hot[@]} probeable functions the multi load calls (all: every function)"
	for s in $ATTACH_SIZES; do
		[ "$s" = all ] || [ "$s" -le ${#hot[@]} ] || continue
		for m in fdur_tracer fdur_event kretprobe fprobe_exit bpftrace; do
			if [ $m = bpftrace ] && [ -z "$BPFTRACE" ]; then
				emit na attach "$m/$s" "no bpftrace"
				continue
			fi
			if [ "$s" = all ] && [ $m != fdur_tracer ] && [ $m != fdur_event ]; then
				emit na attach "$m/$s" "one probe per function: not tried on all $(grep -c . available_filter_functions)"
				continue
			fi
			if [ "$s" = all ]; then
				r=$(attach_one $m)
			else
				r=$(attach_one $m "${hot[@]:0:$s}")
			fi
			if [ -n "$r" ]; then
				emit attach "$m" "$s" $r
				log "   $m $s: attach/detach $r ns"
			else
				emit na attach "$m/$s" "failed (see bench.log)"
			fi
		done
	done
	reset_all
}

[ -z "${BENCH_LIB:-}" ] || return 0
: >"$TSV"
: >"$LOG"
log "fbench on $(uname -r), $(nproc) CPUs; perf: ${PERF:-none}; bpftrace: ${BPFTRACE:-none}; funclatency: ${FUNCLAT:-${FUNCLAT_PY:-none}}"
bench_loop syscall "$N_SYSCALL" ksys_read
if [ "${SKIP_DEPTH:-0}" != 1 ]; then
	mapfile -t DEPTH < <(depth_set)
	bench_loop depth "$N_DEPTH" "${DEPTH[@]}"
fi
[ "${SKIP_SCALE:-0}" = 1 ] || scale
[ "${SKIP_SLOW:-0}" = 1 ] || slow_only
[ "${SKIP_ATTACH:-0}" = 1 ] || attach_times
reset_all
log "done"
