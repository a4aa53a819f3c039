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
exec "$TOP/scripts/vm.sh" -k patched "${i[@]}" -r "$BUILD/results/run" -t "${RUN_TIMEOUT:-86400}" -- \
	bash "$TOP/tests/guest/demo.sh"
