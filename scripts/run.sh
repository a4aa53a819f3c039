#!/usr/bin/env bash
# make run: build the patched kernel (cached), boot it, show the feature on a
# small workload; leave a shell in the guest when stdin is a terminal.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
"$TOP/scripts/deps.sh" build vm clients
"$TOP/scripts/tree.sh" create
"$TOP/scripts/build.sh" patched >/dev/null
i=()
[ -t 0 ] && i=(-i)
# Record the slow calls of boot: with a boot config in an instance, or,
# for a kernel without CONFIG_BOOT_CONFIG, with the same settings on the
# command line in the top level instance
if grep -q '^CONFIG_BOOT_CONFIG=y' "$OUT/patched/.config"; then
	export VM_BOOTCONFIG=${VM_BOOTCONFIG:-$TOP/config/boot-slow.bconf}
else
	export VM_CMDLINE="${VM_CMDLINE:-} ftrace=function_duration ftrace_graph_filter=do_one_initcall ftrace_graph_max_depth=2 ftrace_duration_thresh_ns=1000000"
fi
exec "$TOP/scripts/vm.sh" -k patched "${i[@]}" -r "$BUILD/results/run" -t "${RUN_TIMEOUT:-86400}" -- \
	bash "$TOP/tests/guest/demo.sh"
