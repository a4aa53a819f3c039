#!/usr/bin/env bash
# make bench: build the patched kernel (cached) and the workload, boot,
# run every configuration interleaved (bench/guest.sh), then print a
# markdown table and draw a bar chart (bench/report.py, gnuplot).
#
#   BENCH_MODE=exact (default)  TCG with -icount shift=0,sleep=off: the
#                               guest clock counts instructions, so every
#                               figure is instructions, exact and the same
#                               on any host
#   BENCH_MODE=wall             TCG (or KVM where it works) in real time:
#                               emulator nanoseconds, ratios only
#   BENCH_BOOTS=N               boot N times (default 1): the report then
#                               says how far the boots agree
#   ROUNDS, SKIP_SCALE, SKIP_SLOW, SKIP_ATTACH, SKIP_DEPTH
#                               passed to bench/guest.sh
#   BENCH_CONFIGS="none ..."    the per-call rows to run (default: all)
#   PERF_SCOPE=-a, PERF_MMAP=N  the perf rows' perf record: system-wide
#                               instead of per task, and its buffer per
#                               CPU (64M: the whole run, so that perf
#                               record does not read during the loop)
#   QUICK=1                     a subset: 2 rounds, 1 scale round, attach
#                               for 1, 100 and all functions
#   BENCH_PROFILE=1             instead of the benchmark: where the
#                               instructions of one traced call go, per
#                               symbol (bench/profile.sh; exact mode),
#                               tracefs and perf paths; PROF_CONFIGS
#                               picks configurations, PROF_LOOP=depth
#                               profiles the depth loop, PROF_FREQ sets
#                               perf's sampling frequency (20000)
#   BENCH_CPUS="2 8 24"         instead of the benchmark: the per-call
#                               cost of the tracefs and perf paths of the
#                               three function events (perf record -a),
#                               one boot per vCPU count; BENCH_KERNEL=base
#                               runs it on the unpatched kernel
#   BENCH_BCC=1                 with no libbpf-tools, BCC's Python
#                               funclatency (it compiles at every start:
#                               minutes under TCG)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
"$TOP/scripts/deps.sh" build vm clients bench
"$TOP/scripts/tree.sh" create
"$TOP/scripts/build.sh" patched >/dev/null
mkdir -p "$BUILD/bench"
gcc -O2 -Wall -Wextra -o "$BUILD/bench/fbench" "$TOP/bench/fbench.c"
mode=${BENCH_MODE:-exact}
case $mode in
exact)
	export ACCEL=tcg
	export VM_QEMU_ARGS="${VM_QEMU_ARGS:-} -icount shift=0,sleep=off"
	;;
wall) ;;
*) die "BENCH_MODE is exact or wall, not '$mode'" ;;
esac
res=$BUILD/results/bench-$mode
[ "${QUICK:-0}" != 1 ] || res=$res-quick
[ "${BENCH_PROFILE:-0}" != 1 ] || res=$BUILD/results/profile-$mode
rm -rf "$res"
mkdir -p "$res"
tsvs=()
if [ "${BENCH_PROFILE:-0}" = 1 ]; then
	"$TOP/scripts/vm.sh" -k patched -r "$res" -t "${BENCH_TIMEOUT:-5400}" -- \
		env PROF_N="${PROF_N:-200000}" PROF_TOP="${PROF_TOP:-30}" ${PROF_CONFIGS:+PROF_CONFIGS="$PROF_CONFIGS"} PROF_LOOP="${PROF_LOOP:-syscall}" \
		PROF_FREQ="${PROF_FREQ:-20000}" bash "$TOP/bench/profile.sh" "$BUILD/bench/fbench" /mnt/results
	[ "$mode" = exact ] || warn "wall mode: the profile's figures are emulator ns, not instructions"
	info "profile: $res/profile.txt"
	exit 0
fi
if [ -n "${BENCH_CPUS:-}" ]; then
	# BENCH_KERNEL=base: the same on the unpatched kernel (ftrace:function)
	kflav=${BENCH_KERNEL:-patched}
	[ "$kflav" = patched ] || "$TOP/scripts/build.sh" "$kflav" >/dev/null
	res=$BUILD/results/bench-cpus-$mode${BENCH_KERNEL:+-$BENCH_KERNEL}
	rm -rf "$res"
	for n in $BENCH_CPUS; do
		start=$(now)
		# ftrace=nop: no startup self-tests (see the manycpus stage of make check)
		# perf record -a: by default a 32 MiB buffer per vCPU (768 MiB at 24)
		VM_CMDLINE="${VM_CMDLINE:-} ftrace=nop" VM_MEM="${VM_MEM:-4G}" \
		"$TOP/scripts/vm.sh" -k "$kflav" -s "$n" -r "$res/cpus$n" -t "${BENCH_TIMEOUT:-5400}" -- \
			env ROUNDS="${ROUNDS:-2}" SKIP_DEPTH=1 SKIP_SCALE=1 SKIP_SLOW=1 SKIP_ATTACH=1 \
			PERF_SCOPE=-a PERF_MMAP="${PERF_MMAP:-32M}" \
			BENCH_CONFIGS="none ev_function perf_function ev_graph perf_graph ev_duration perf_duration ev_tp perf_tp" \
			bash "$TOP/bench/guest.sh" "$BUILD/bench/fbench" /mnt/results ||
			warn "the $n-vCPU boot ended with status $?: the report takes what it wrote"
		stage_time "bench-cpus$n-$mode" "$start"
	done
	python3 "$TOP/bench/report.py" --mode "$mode" --cpus "$res" $(for n in $BENCH_CPUS; do echo "$res/cpus$n/bench.tsv"; done)
	info "table: $res/bench-cpus.md"
	exit 0
fi
if [ "${QUICK:-0}" = 1 ]; then
	: "${ROUNDS:=2}" "${SCALE_ROUNDS:=1}" "${ATTACH_SIZES:=1 100 all}"
fi
for b in $(seq "${BENCH_BOOTS:-1}"); do
	start=$(now)
	"$TOP/scripts/vm.sh" -k patched -r "$res/boot$b" -t "${BENCH_TIMEOUT:-5400}" -- \
		env ROUNDS="${ROUNDS:-5}" SCALE_ROUNDS="${SCALE_ROUNDS:-3}" \
		ATTACH_SIZES="${ATTACH_SIZES:-1 100 1000 all}" SKIP_SCALE="${SKIP_SCALE:-0}" \
		SKIP_SLOW="${SKIP_SLOW:-0}" SKIP_ATTACH="${SKIP_ATTACH:-0}" \
		SKIP_DEPTH="${SKIP_DEPTH:-0}" ${BENCH_CONFIGS:+BENCH_CONFIGS="$BENCH_CONFIGS"} \
		${PERF_SCOPE:+PERF_SCOPE="$PERF_SCOPE"} ${PERF_MMAP:+PERF_MMAP="$PERF_MMAP"} \
		BENCH_KBUILD="$OUT/patched" BENCH_KSRC="$TREE" BENCH_BCC="${BENCH_BCC:-0}" \
		bash "$TOP/bench/guest.sh" "$BUILD/bench/fbench" /mnt/results ||
		warn "boot $b ended with status $?: the report takes what it wrote"
	stage_time "bench-$mode-boot$b" "$start"
	tsvs+=("$res/boot$b/bench.tsv")
done
python3 "$TOP/bench/report.py" --mode "$mode" "$res" "${tsvs[@]}"
ln -sfn "$(basename "$res")" "$BUILD/results/bench"
info "table: $res/bench.md, chart: $res/bench.png, raw: $res/boot*/bench.tsv"
