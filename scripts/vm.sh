#!/usr/bin/env bash
# Boot a built kernel in QEMU with the host root read-only over 9p and run
# a command in it.
#
#   vm.sh [-k FLAVOUR] [-s SMP] [-m MEM] [-t TIMEOUT] [-r RESULTS] [-i] [-q] -- CMD [ARGS...]
#
# VM_CMDLINE adds kernel parameters; VM_CPU picks QEMU's -cpu under TCG
# (max by default). VM_BOOTCONFIG=FILE boots with that boot
# config (Documentation/admin-guide/bootconfig.rst): tools/bootconfig of the
# tree appends it to an initrd that holds nothing else, so the root is
# still the 9p share, and "bootconfig" is added to the parameters.
#
# The command runs as root in the guest, with /mnt/results shared read-write
# with RESULTS on the host. The kernel log goes to RESULTS/console.log and
# RESULTS/dmesg.txt. The exit status is the command's, 124 on a timeout,
# 125 when the guest died before the command finished.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=patched smp=${VM_SMP:-2} mem=${VM_MEM:-2G} timeout=${VM_TIMEOUT:-3600}
results="" interactive=0 quiet=0
while getopts "k:s:m:t:r:iq" o; do
	case $o in
	k) flavour=$OPTARG ;;
	s) smp=$OPTARG ;;
	m) mem=$OPTARG ;;
	t) timeout=$OPTARG ;;
	r) results=$OPTARG ;;
	i) interactive=1 ;;
	q) quiet=1 ;;
	*) die "usage: $0 [-k flavour] [-s smp] [-m mem] [-t timeout] [-r results] [-i] -- cmd" ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || die "no command given"

kdir=$OUT/$flavour
kernel=$kdir/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no kernel at $kernel: run 'make build'"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 is missing (apt-get install qemu-system-x86)"
[ -n "$results" ] || results=$BUILD/results/vm-$(date +%Y%m%d-%H%M%S)
mkdir -p "$results"
results=$(cd "$results" && pwd)
rm -f "$results/rc" "$results/vm.status" "$results/console.log" "$results/dmesg.txt"

{
	printf 'MODROOT=%q\n' "$kdir/modroot"
	printf 'INTERACTIVE=%q\n' "$interactive"
	printf 'TOP=%q\n' "$TOP"
	printf 'PANIC_ON_OOPS=%q\n' "${PANIC_ON_OOPS:-0}"
} >"$results/guest.env"
{
	echo "cd /tmp"
	printf '%q ' "$@"
	echo
} >"$results/cmd.sh"

# QEMU's option values escape a comma as two
qesc() { printf '%s' "${1//,/,,}"; }

qemu_args() { # accel
	local cpu=${VM_CPU:-max} accel=$1
	if [ "$accel" = kvm ]; then
		cpu=host
	else
		accel="tcg,thread=single"
	fi
	local cmdline="console=ttyS0,115200 root=root rootfstype=9p"
	[ -z "${VM_BOOTCONFIG:-}" ] || cmdline+=" bootconfig"
	cmdline+=" rootflags=trans=virtio,version=9p2000.L,msize=1048576,cache=loose,posixacl"
	cmdline+=" ro init=\"$TOP/scripts/guest-init\" panic=-1 mitigations=off nokaslr"
	# TCG keys the code it has translated on the virtual address: with
	# randomized mappings every exec translates ld.so and libc again.
	# Without them 200 execs of /bin/true took 4.8 s in place of 14.1 s
	# (and a trivial ftracetest case 13.5 s in place of 20-23 s).
	cmdline+=" norandmaps"
	cmdline+=" tsc=reliable no_timer_check ${VM_CMDLINE:-}"
	printf '%s\n' -accel "$accel" -cpu "$cpu" -smp "$smp" -m "$mem" \
		-machine q35 -no-reboot -display none -monitor none -nodefaults \
		-kernel "$kernel" -append "$cmdline" \
		-serial "file:$results/console.log" \
		-device virtio-serial-pci \
		-chardev "stdio,id=out,signal=off" -device virtconsole,chardev=out \
		-fsdev "local,id=root,path=/,security_model=none,readonly=on,multidevs=remap" \
		-device virtio-9p-pci,fsdev=root,mount_tag=root \
		-fsdev "local,id=res,path=$(qesc "$results"),security_model=none,multidevs=remap" \
		-device virtio-9p-pci,fsdev=res,mount_tag=results \
		-fsdev "local,id=proj,path=$(qesc "$TOP"),security_model=none,readonly=on,multidevs=remap" \
		-device virtio-9p-pci,fsdev=proj,mount_tag=project \
		-device pvpanic-pci
	[ -z "${VM_BOOTCONFIG:-}" ] || printf '%s\n' -initrd "$results/initrd.img"
	# Extra QEMU arguments, e.g. VM_QEMU_ARGS="-icount shift=0,sleep=off"
	# for the exact (instruction-count) mode of the benchmark (TCG only)
	if [ "$1" != kvm ] && [ -n "${VM_QEMU_ARGS:-}" ]; then
		printf '%s\n' ${VM_QEMU_ARGS}
	fi
}

# tools/bootconfig of the tree, built once into the build directory
bootconfig_tool() {
	local out=$OUT/bootconfig
	if [ ! -x "$out/bootconfig" ] || [ "$TREE/lib/bootconfig.c" -nt "$out/bootconfig" ]; then
		mkdir -p "$out"
		make -s -C "$TREE/tools/bootconfig" OUTPUT="$out/" "$out/bootconfig" \
			>"$out/build.log" 2>&1 || die "tools/bootconfig did not build: $out/build.log"
	fi
	echo "$out/bootconfig"
}

# The initrd of VM_BOOTCONFIG: an empty initramfs (no /init, so the kernel
# mounts root= as without one) with the boot config appended
make_bootconfig_initrd() {
	local tool
	grep -q '^CONFIG_BOOT_CONFIG=y' "$kdir/.config" ||
		die "VM_BOOTCONFIG: the kernel in $kdir has no CONFIG_BOOT_CONFIG"
	[ -f "$VM_BOOTCONFIG" ] || die "VM_BOOTCONFIG: no file $VM_BOOTCONFIG"
	tool=$(bootconfig_tool)
	: | (cd "$results" && cpio -o -H newc --quiet) >"$results/initrd.img"
	"$tool" -a "$VM_BOOTCONFIG" "$results/initrd.img" >"$results/bootconfig.log" 2>&1 ||
		die "bootconfig refused $VM_BOOTCONFIG: $(tail -1 "$results/bootconfig.log")"
}
[ -z "${VM_BOOTCONFIG:-}" ] || make_bootconfig_initrd

# KVM where it works, else single-threaded TCG (multi-threaded TCG races
# with text_poke_bp here). A quick probe decides once per machine.
pick_accel() {
	if [ -n "${ACCEL:-}" ]; then echo "$ACCEL"; return; fi
	if [ ! -w /dev/kvm ]; then echo tcg; return; fi
	local cache=$BUILD/accel-probe key
	key="$(uname -r) $(grep -m1 'model name' /proc/cpuinfo)"
	if [ -f "$cache" ] && [ "$(head -1 "$cache")" = "$key" ]; then
		tail -1 "$cache"
		return
	fi
	local p=$BUILD/results/kvm-probe a=tcg
	rm -rf "$p"
	mkdir -p "$p"
	echo "MODROOT=" >"$p/guest.env"
	echo "true" >"$p/cmd.sh"
	mapfile -t args < <(results=$p smp=1 mem=512M qemu_args kvm)
	if timeout -k 5 30 qemu-system-x86_64 "${args[@]}" </dev/null >/dev/null 2>&1 &&
		[ "$(cat "$p/rc" 2>/dev/null)" = 0 ]; then
		a=kvm
	fi
	printf '%s\n%s\n' "$key" "$a" >"$cache"
	echo "$a"
}

accel=$(pick_accel)
[ "$quiet" = 1 ] || info "booting $(cat "$kdir/kernelrelease" 2>/dev/null) ($flavour) with $accel, $smp vCPUs, $mem; results in $results"
mapfile -t args < <(qemu_args "$accel")
set +e
if [ "$interactive" = 1 ]; then
	timeout -k 10 --foreground "$timeout" qemu-system-x86_64 "${args[@]}"
else
	timeout -k 10 "$timeout" qemu-system-x86_64 "${args[@]}" </dev/null
fi
qrc=$?
set -e
# One line for the report (tests/report.py): the guest's fate, and why.
status() { # code reason
	echo "$1 $2" >"$results/vm.status"
	[ "$1" = 0 ] || echo "ERROR: $2" >&2
	exit "$1"
}
if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
	status 124 "guest timed out after ${timeout}s and was killed (kernel log: $results/console.log)"
fi
if [ ! -f "$results/rc" ]; then
	tail -30 "$results/console.log" >&2 || true
	status 125 "guest died before the command finished (qemu exit $qrc; kernel log: $results/console.log)"
fi
grc=$(cat "$results/rc")
[ "$grc" = 0 ] && status 0 "guest command finished"
status "$grc" "guest command exited with status $grc"
