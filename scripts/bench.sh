#!/usr/bin/env bash
# make bench: build the patched kernel (cached) and the workload, boot once,
# run every configuration interleaved (bench/guest.sh), then print a
# markdown table and draw a bar chart (bench/report.py, gnuplot).
# Figures are ratios measured in one boot; under TCG the absolute ns are
# the emulator's, not the hardware's.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
"$TOP/scripts/deps.sh" build vm clients bench
"$TOP/scripts/tree.sh" create
"$TOP/scripts/build.sh" patched >/dev/null
mkdir -p "$BUILD/bench"
gcc -O2 -Wall -Wextra -o "$BUILD/bench/fbench" "$TOP/bench/fbench.c"
res=$BUILD/results/bench
rm -rf "$res"
start=$(now)
"$TOP/scripts/vm.sh" -k patched -r "$res" -t "${BENCH_TIMEOUT:-5400}" -- \
	env ROUNDS="${ROUNDS:-5}" SKIP_SCALE="${SKIP_SCALE:-0}" \
	bash "$TOP/bench/guest.sh" "$BUILD/bench/fbench" /mnt/results
stage_time bench "$start"
python3 "$TOP/bench/report.py" "$res/bench.tsv" "$res"
info "table: $res/bench.md, chart: $res/bench.png, raw: $res/bench.tsv"
