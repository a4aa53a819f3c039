#!/usr/bin/env bash
# Boot-time tracing: boot the kernel once per case in tests/boot/cases,
# with the case's kernel parameters and, if it has one, its boot config
# (VM_BOOTCONFIG of scripts/vm.sh), then run the case's check() in the
# guest. Prints KTAP.
#   run.sh [BUILD] [FLAVOUR]       BOOT_CASES="10 30" picks cases by prefix
#   BOOT_EXTRA_CMDLINE=...         more kernel parameters for every case
#                                  (no5lvl for the debug kernel: see README)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${1:-${BUILD:-$top/build}}
flavour=${2:-patched}
kdir=$build/out/$flavour
res=${BOOT_RESULTS:-$build/results/boot}
cases=()
for c in "$here"/cases/*.sh; do
	if [ -n "${BOOT_CASES:-}" ]; then
		b=$(basename "$c")
		[[ " $BOOT_CASES " == *" ${b%%-*} "* ]] || continue
	fi
	cases+=("$c")
done
echo "TAP version 13"
echo "1..${#cases[@]}"

n=0 fails=0
for c in "${cases[@]}"; do
	n=$((n + 1))
	name=$(basename "$c" .sh)
	desc="" boot_cmdline="" boot_config=""
	# shellcheck source=/dev/null
	. "$c"
	if [ ! -f "$kdir/arch/x86/boot/bzImage" ]; then
		echo "ok $n $name # SKIP no kernel built in $kdir"
		continue
	fi
	r=$res/$name
	rm -rf "$r"
	mkdir -p "$r"
	bconf=""
	if [ -n "$boot_config" ]; then
		if ! grep -q '^CONFIG_BOOT_CONFIG=y' "$kdir/.config"; then
			echo "ok $n $name # SKIP the kernel has no CONFIG_BOOT_CONFIG"
			continue
		fi
		bconf=$r/boot.bconf
		printf '%s\n' "$boot_config" >"$bconf"
	fi
	cmdline="$boot_cmdline${BOOT_EXTRA_CMDLINE:+ $BOOT_EXTRA_CMDLINE}"
	echo "$cmdline" >"$r/cmdline"
	BUILD=$build VM_CMDLINE="$cmdline" VM_BOOTCONFIG="$bconf" \
		timeout "${BOOT_TIMEOUT:-1200}" "$top/scripts/vm.sh" -q -k "$flavour" -r "$r" -t "${BOOT_TIMEOUT:-1200}" -- \
		bash -c '. "$1/lib.sh"; . "$2"; check >/mnt/results/check.txt 2>&1; echo "errors: $errs" >>/mnt/results/check.txt; [ "$errs" -eq 0 ]' \
		_ "$here" "$c" >"$r/vm.out" 2>&1
	rc=$?
	splats=$(python3 "$top/tests/report.py" scan "$r/console.log" 2>/dev/null | head -5)
	if [ $rc -eq 0 ] && [ -z "$splats" ]; then
		echo "ok $n $name: $desc"
	elif [ $rc -eq 0 ]; then
		echo "not ok $n $name: $desc (kernel log: $(head -1 <<<"$splats"))"
		fails=$((fails + 1))
	else
		echo "not ok $n $name: $desc (guest status $rc)"
		fails=$((fails + 1))
	fi
	sed 's/^#* */# /' "$r/check.txt" 2>/dev/null | head -30
done
[ $fails -eq 0 ]
