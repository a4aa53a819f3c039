#!/usr/bin/env bash
# Configure and build a kernel flavour out of tree, with ccache.
#
#   build.sh [patched|base] [debug]
#
# patched: build/linux (base + series)   -> build/out/patched[-debug]
# base:    build/linux-base (tag "base") -> build/out/base[-debug]
# Prints the output directory on stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=${1:-patched}
debug=${2:-}
case $flavour in
patched) src=$TREE ;;
series) src=$BUILD/linux-series ;; # series-check's worktree and build directory
base) "$TOP/scripts/tree.sh" basetree; src=$BASE_TREE ;;
*) die "usage: $0 [patched|base|series] [debug]" ;;
esac
[ -d "$src" ] || die "no kernel tree at $src: run 'make tree'"
out=$OUT/$flavour${debug:+-debug}
mkdir -p "$out"
log=$out/build.log

frags=("$src/kernel/configs/kvm_guest.config" "$TOP/config/base.config" "$TOP/config/trim.config"
	"$src/tools/testing/selftests/ftrace/config" "$TOP/config/selftests.config")
[ -n "$debug" ] && frags+=("$TOP/config/debug.config")
[ -n "${EXTRA_CONFIG:-}" ] && frags+=($EXTRA_CONFIG)

export CCACHE_BASEDIR=$BUILD
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-10G}
export CCACHE_NOHASHDIR=1
export KBUILD_BUILD_TIMESTAMP="2000-01-01" KBUILD_BUILD_USER=fgraph KBUILD_BUILD_HOST=harness
mk() { make -C "$src" O="$out" CC="ccache gcc" HOSTCC="ccache gcc" LOCALVERSION= -j"$JOBS" "$@"; }

cfghash=$(cat "${frags[@]}" "$src/arch/x86/configs/x86_64_defconfig" | sha256sum | cut -c1-16)
if [ "$(cat "$out/.config-stamp" 2>/dev/null)" != "$cfghash" ] || [ ! -f "$out/.config" ]; then
	t0=$(now)
	info "configuring $flavour${debug:+-debug} in $out"
	mk x86_64_defconfig >"$log" 2>&1 || die "defconfig failed: see $log"
	(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" "${frags[@]}") \
		>>"$log" 2>&1 || die "merge_config failed: see $log"
	mk olddefconfig >>"$log" 2>&1 || die "olddefconfig failed: see $log"
	# Every option the fragments settle on (the last setting wins) must have
	# survived olddefconfig, unless the symbol does not exist in this tree.
	syms=$(find "$src" -name 'Kconfig*' -not -path '*/tools/*' -print0 | xargs -0 cat |
		sed -n 's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Z0-9_]*\).*/\2/p' | sort -u)
	bad=$(cat "${frags[@]}" | sed -n -e 's/^\(CONFIG_[A-Z0-9_]*\)=\(.*\)/\1 \2/p' \
		-e 's/^# \(CONFIG_[A-Z0-9_]*\) is not set/\1 n/p' |
		awk '{v[$1] = $2} END {for (k in v) print k, v[k]}' | sort | while read -r k v; do
		sym=${k#CONFIG_}
		grep -qxF "$sym" <<<"$syms" || continue
		if [ "$v" = n ]; then
			grep -q "^$k=" "$out/.config" && echo "$k=n"
		else
			grep -qxF "$k=$v" "$out/.config" || echo "$k=$v"
		fi
	done || true)
	[ -z "$bad" ] || warn "config options not taken (dependency missing?): $(echo $bad)"
	echo "$cfghash" >"$out/.config-stamp"
	stage_time "configure-$flavour${debug:+-debug}" "$t0"
fi

t0=$(now)
info "building $flavour${debug:+-debug} (log: $log)"
if ! mk bzImage modules >>"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -20 >&2
	die "kernel build failed ($flavour${debug:+-debug}): see $log"
fi
rm -rf "$out/modroot.new"
mk INSTALL_MOD_PATH="$out/modroot.new" INSTALL_MOD_STRIP=1 modules_install >>"$log" 2>&1 ||
	die "modules_install failed: see $log"
# A guest that is running may have this modroot mounted: leave it alone
# when nothing changed, so that an up-to-date build is harmless.
if [ -d "$out/modroot" ] && diff -rq "$out/modroot" "$out/modroot.new" >/dev/null 2>&1; then
	rm -rf "$out/modroot.new"
else
	rm -rf "$out/modroot" && mv "$out/modroot.new" "$out/modroot"
fi
make -s -C "$src" O="$out" LOCALVERSION= kernelrelease >"$out/kernelrelease"
stage_time "build-$flavour${debug:+-debug}" "$t0"
echo "$out"
