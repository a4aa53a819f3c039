#!/usr/bin/env bash
# The project works from any directory: a copy of it under /root (in a
# path with a space) and under /tmp boots the guest with a trivial command
# that reads the project's files and writes its results. Prints KTAP.
# Needs a built kernel (BUILD/out/patched); without one each case skips.
#   anydir.sh [BUILD]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${1:-${BUILD:-$top/build}}
kernel=$build/out/patched/arch/x86/boot/bzImage
places=("/root/fgraph any $$" "/tmp/fgraph-any-$$")
echo "TAP version 13"
echo "1..${#places[@]}"
n=0 fails=0
for p in "${places[@]}"; do
	n=$((n + 1))
	if [ ! -f "$kernel" ]; then
		echo "ok $n project under ${p%/*}/ # SKIP no kernel built in $build"
		continue
	fi
	rm -rf "$p"
	mkdir -p "$p"
	# The project's files as they are now, without the build directory
	tar -C "$top" --exclude=./build --exclude=./.git -cf - . | tar -C "$p" -xf -
	res=$p/build/results/anydir
	# A quick boot: ftrace=nop skips the startup self-tests
	out=$(BUILD=$build VM_CMDLINE="ftrace=nop" timeout 900 "$p/scripts/vm.sh" -q -r "$res" -t 600 -- \
		bash -c 'cat "$1/README.md" >/dev/null && echo "seen from $1" >/mnt/results/anydir.txt' _ "$p" 2>&1)
	rc=$?
	if [ $rc -eq 0 ] && grep -qx "seen from $p" "$res/anydir.txt" 2>/dev/null; then
		echo "ok $n project under ${p%/*}/"
	else
		echo "not ok $n project under ${p%/*}/ (guest status $rc)"
		tail -5 <<<"$out" | sed 's/^/# /'
		fails=$((fails + 1))
	fi
	rm -rf "$p"
done
[ $fails -eq 0 ]
