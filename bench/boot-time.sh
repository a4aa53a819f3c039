#!/usr/bin/env bash
# The cost of function_duration on the boot itself: one boot per
# configuration, and the kernel log time at which init starts. Every
# configuration has trace_event=initcall:initcall_finish, which turns the
# startup self-tests off from the start (ftrace=function_duration alone
# would let those of the tracers registered before it run). Prints a
# markdown table; the raw logs stay in build/results/boot-time/.
#   bench/boot-time.sh [ROUNDS]      (1 by default: one boot each)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$top/scripts/lib.sh"
rounds=${1:-1}
res=$BUILD/results/boot-time
mkdir -p "$res"
names=(untraced every-function-1ms initcalls-1ms)
params=(
	"ftrace=nop"
	"ftrace=function_duration ftrace_duration_thresh_ns=1000000"
	"ftrace=function_duration ftrace_graph_filter=do_one_initcall ftrace_graph_max_depth=2 ftrace_duration_thresh_ns=1000000"
)
echo "| configuration | kernel parameters | init started at (s) | records |"
echo "| --- | --- | --- | --- |"
for i in "${!names[@]}"; do
	for r in $(seq "$rounds"); do
		d=$res/${names[$i]}-$r
		VM_CMDLINE="trace_event=initcall:initcall_finish ${params[$i]}" "$top/scripts/vm.sh" -q -r "$d" -t "${BOOT_TIME_TIMEOUT:-900}" -- \
			bash -c 'grep -v "^#" /sys/kernel/tracing/trace | grep -vc initcall_finish >/mnt/results/records || true' >/dev/null 2>&1 || true
		t=$(sed -n 's/^\[ *\([0-9.]*\)\] Run .* as init process.*/\1/p' "$d/console.log" | head -1)
		echo "| ${names[$i]} | \`${params[$i]}\` | ${t:-?} | $(cat "$d/records" 2>/dev/null || echo ?) |"
	done
done
