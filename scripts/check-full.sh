#!/usr/bin/env bash
# make check-full: the whole upstream ftracetest on the patched kernel and on
# the unpatched base (same config, own build directory), diffed case by case;
# in the patched stage, every real-client test, the perf ones with Debian's
# perf and with the tree's; then the series suite and the stress on the
# debug kernel. Hours under TCG.
#
#   STAGES="base patched debug"  which stages to run (default: all)
#   STRESS_SECONDS=600           the debug stage's stress
#   STRESS_HOTPLUG=1             ... with its cpu1 offline/online loop
#   DEBUG_ONLY=stress            the debug stage runs the stress alone
#   DEBUG_ONLY=perf              ... the stress and the perf client tests
#   DEBUG_ONLY=series            ... the series suite and the stress
#   DEBUG_CMDLINE="ftrace=nop no5lvl"
#                                boot parameters of the debug kernel: by
#                                default the startup selftests are skipped
#                                (the check tier runs them on the plain kernel),
#                                and the guest stays on 4-level paging: with
#                                LA57, 6.12's KASAN reports a false
#                                wild-memory-access for an interrupt taken
#                                while identify_cpu() has cleared the boot
#                                CPU's feature bits (see the README)
#   base: on success the base results are also written to tests/baseline/
set -euo pipefail
. "$(dirname "$0")/lib.sh"
stages=${STAGES:-base patched debug}
has() { [[ " $stages " == *" $1 "* ]]; }
t_all=$(now)
top_res=$BUILD/results/full-$(date +%Y%m%d-%H%M%S)
mkdir -p "$top_res"
ln -sfn "$(basename "$top_res")" "$BUILD/results/full-latest"
"$TOP/scripts/deps.sh" build vm clients
"$TOP/scripts/tree.sh" create
rc=0
baseline=$TOP/tests/baseline

suite() { # flavour tree name
	local res=$top_res/$1 t0
	mkdir -p "$res"
	echo ftracetest >"$res/expected-suites"
	"$TOP/scripts/build.sh" "$1" >/dev/null
	t0=$(now)
	"$TOP/scripts/vm.sh" -k "$1" -r "$res" -t "${FULL_TIMEOUT:-10800}" -- \
		bash "$TOP/tests/guest/full.sh" "$2" ftracetest || true
	stage_time "suite-$1" "$t0"
	python3 "$TOP/tests/report.py" cases "$res/ftracetest.ktap" >"$res/cases.tsv"
	python3 "$TOP/tests/report.py" summary "$res" | tee "$res/summary.txt" || true
}

if has base; then
	"$TOP/scripts/tree.sh" basetree
	suite base "$BASE_TREE"
	mkdir -p "$baseline"
	cp "$top_res/base/cases.tsv" "$baseline/ftracetest-base.tsv"
	cp "$top_res/base/ftracetest.ktap" "$baseline/ftracetest-base.ktap"
	{
		echo "# Base run of the whole upstream ftracetest (tests/guest/full.sh)"
		echo "kernel: $(cat "$OUT/base/kernelrelease") from $(git -C "$TREE" log -1 --format=%s base)"
		echo "config-sha256: $(sha256sum "$OUT/base/.config" | cut -c1-16)"
		echo "accel: $(tail -1 "$BUILD/accel-probe" 2>/dev/null || echo tcg), vcpus: ${VM_SMP:-2}"
		echo "wall: $(sed -n 's/^ftracetest //p' "$top_res/base/timings") s"
		echo "date: $(date -u +%Y-%m-%d)"
		cut -f1 "$baseline/ftracetest-base.tsv" | sort | uniq -c | awk '{print "count " $2 ": " $1}'
		grep -v '^count' "$top_res/base/summary.txt" | sed -n '/kernel log/,$p' | head -20
	} >"$baseline/ftracetest-base.txt"
fi

if has patched; then
	suite patched "$TREE"
	[ -f "$baseline/ftracetest-base.tsv" ] || die "no base results in tests/baseline: run STAGES=base first"
	echo "=== patched vs base (tests/baseline/ftracetest-base.tsv) ==="
	python3 "$TOP/tests/report.py" diff "$baseline/ftracetest-base.tsv" "$top_res/patched/cases.tsv" |
		tee "$top_res/diff.txt" || rc=1
	grep -q 'kernel log clean' "$top_res/patched/summary.txt" || rc=1
	# Every real-client test, the perf ones with Debian's perf and again
	# with the perf of the tree (make check runs only some of them again)
	res=$top_res/clients
	mkdir -p "$res"
	echo clients >"$res/expected-suites"
	"$TOP/scripts/perf-tree.sh" >"$res/perf-tree" || echo "$OUT/perf/perf" >"$res/perf-tree"
	t0=$(now)
	"$TOP/scripts/vm.sh" -k patched -r "$res" -t "${FULL_TIMEOUT:-10800}" -- \
		bash -c 'KTREE=$1 bash "$2"' _ "$TREE" "$TOP/tests/guest/clients.sh" || true
	stage_time clients "$t0"
	python3 "$TOP/tests/report.py" summary "$res" | tee "$res/summary.txt" || rc=1
fi

if has debug; then
	# The series suite and the stress on the debug kernel (lockdep, KASAN,
	# kmemleak), STRESS_SECONDS long (600 by default).
	res=$top_res/debug
	mkdir -p "$res"
	"$TOP/scripts/build.sh" patched debug >/dev/null
	"$TOP/scripts/case-lists.sh" "$TREE" "$res"
	echo "${STRESS_SECONDS:-600}" >"$res/stress.seconds"
	[ -z "${STRESS_HOTPLUG:-}" ] || echo hotplug >"$res/stress.hotplug"
	# DEBUG_ONLY=stress: the stress alone (the suite takes 90 minutes
	# here); DEBUG_ONLY=perf: the stress and the perf client tests (35
	# minutes); DEBUG_ONLY=series: the suite and the stress
	case ${DEBUG_ONLY:-} in
	stress) echo stress ;;
	perf) echo stress clients ;;
	series) echo series stress ;;
	*) echo series stress clients ;;
	esac >"$res/expected-suites"
	t0=$(now)
	VM_MEM=${VM_MEM:-4G} VM_CMDLINE="${VM_CMDLINE:-} ${DEBUG_CMDLINE-ftrace=nop no5lvl}" \
		"$TOP/scripts/vm.sh" -k patched-debug -s "${STRESS_SMP:-2}" -r "$res" \
		-t "${FULL_TIMEOUT:-10800}" -- bash "$TOP/tests/guest/debug.sh" "$TREE" ${DEBUG_ONLY:-} || true
	stage_time debug "$t0"
	python3 "$TOP/tests/report.py" summary "$res" | tee "$res/summary.txt" || rc=1
fi

stage_time check-full "$t_all"
echo "results: $top_res"
exit $rc
