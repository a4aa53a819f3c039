#!/usr/bin/env bash
# make series-check: every patch passes checkpatch --strict and builds on
# its own, in order; the whole series also builds with
# CONFIG_FUNCTION_GRAPH_TRACER=n and with CONFIG_FUNCTION_DURATION_TRACER=n
# (x86_64), and with CONFIG_PERF_EVENTS=n (arm64: x86 always selects
# PERF_EVENTS). Variant builds compile kernel/ only, unless FULL=1.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
"$TOP/scripts/deps.sh" build
need_pkgs gcc-aarch64-linux-gnu python3-git python3-ply
"$TOP/scripts/tree.sh" create
cd "$TREE"
[ -z "$(git status --porcelain --untracked-files=no)" ] || die "$TREE has uncommitted changes"
[ -z "$("$TOP/scripts/tree.sh" unexported)" ] || die "$TREE has commits not exported to patches/ (make export)"
fails=0 passes=0
ok() { echo "ok - $*"; passes=$((passes + 1)); }
bad() { echo "not ok - $*"; fails=$((fails + 1)); }

n=0
[ -n "${VARIANTS_ONLY:-}" ] && n=-1
[ -n "${VARIANTS_ONLY:-}" ] || for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PATCHES/series"); do
	n=$((n + 1))
	# Debian's python3 (spdxcheck needs its git and ply modules). New files
	# under kernel/trace and selftests/ftrace are covered by MAINTAINERS
	# already, so the "does MAINTAINERS need updating?" notice is ignored.
	# The base is a tarball without upstream history, where checkpatch
	# cannot look up the commit of a Fixes: tag (UNKNOWN_COMMIT_ID); the
	# tag's id and subject are checked against upstream's log by hand.
	# perf test takes a shell test's description from its second line,
	# so every test in tools/perf/tests/shell has its SPDX tag on the
	# third (SPDX_LICENSE_TAG), as does a patch that adds one.
	ignore=FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID
	if ! grep '^+++ b/' "$PATCHES/$p" | grep -qv '^+++ b/tools/perf/tests/shell/'; then
		ignore+=,SPDX_LICENSE_TAG
	fi
	if out=$(PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --quiet --no-summary \
		--ignore "$ignore" "$PATCHES/$p" 2>&1) && [ -z "$out" ]; then
		ok "checkpatch $p"
	else
		bad "checkpatch $p"
		sed 's/^/#   /' <<<"$out"
	fi
done
[ $n -ne 0 ] || echo "# the series is empty"
[ $n -ge 0 ] || n=0

# Each patch in order, incrementally, in a build directory of its own
# (a sibling of build/out/patched, so ccache serves both), from a worktree
# of its own: build/linux never moves, so a guest of "make check" that
# reads its selftests meanwhile sees the series as it is.
wt=$BUILD/linux-series
if [ -z "${VARIANTS_ONLY:-}" ]; then
	# A worktree left by an earlier tree (make tree recreates build/linux)
	# is made again
	if [ "$(git -C "$wt" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)" != "$TREE/.git" ]; then
		rm -rf "$wt"
		git worktree prune
		git worktree add -q --detach "$wt" HEAD
	fi
	# FROM=N builds from the Nth patch on (the earlier ones unchanged since
	# a full run); checkpatch still reads every patch
	i=0
	for c in $(git rev-list --reverse base..HEAD); do
		i=$((i + 1))
		[ "$i" -ge "${FROM:-1}" ] || continue
		s=$(git log -1 --format=%s "$c")
		git -C "$wt" checkout -q --detach "$c"
		if "$TOP/scripts/build.sh" series >/dev/null 2>"$BUILD/series-build.err"; then
			ok "builds: $s"
		else
			bad "builds: $s"
			tail -5 "$BUILD/series-build.err" | sed 's/^/#   /'
		fi
	done
fi

variant() { # name arch cross config-lines...
	local name=$1 arch=$2 cross=$3 out=$OUT/variant-$1 log
	shift 3
	mkdir -p "$out"
	log=$out/build.log
	local mk=(make -C "$TREE" O="$out" ARCH="$arch" CROSS_COMPILE="$cross" CC="ccache ${cross}gcc" -j"$JOBS")
	printf '%s\n' "$@" >"$out/variant.config"
	{
		"${mk[@]}" defconfig &&
			(cd "$TREE" && ARCH=$arch scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" \
				"$TOP/config/base.config" "$out/variant.config") &&
			"${mk[@]}" olddefconfig
	} >"$log" 2>&1 || { bad "variant $name: configure (see $log)"; return; }
	local want
	for want in "$@"; do
		case $want in
		"# CONFIG_"*" is not set") want=${want#\# }; want="${want%% *}=n" ;;
		esac
		case $want in
		*=n) if grep -q "^${want%=n}=" "$out/.config"; then
			bad "variant $name: ${want%=n} is still set (selected by something else?)"
			return
		fi ;;
		esac
	done
	local targets=(kernel/)
	[ -n "${FULL:-}" ] && targets=(all)
	if "${mk[@]}" "${targets[@]}" >>"$log" 2>&1; then
		ok "variant $name builds (${targets[*]})"
	else
		bad "variant $name builds (see $log)"
		grep -E 'error:|Error' "$log" | head -10 | sed 's/^/#   /'
	fi
}
variant no-fgraph x86_64 "" "# CONFIG_FUNCTION_GRAPH_TRACER is not set"
# The function trace events without the function_duration tracer
variant no-fdur x86_64 "" "# CONFIG_FUNCTION_DURATION_TRACER is not set"
# On arm64 only CORESIGHT and KVM select PERF_EVENTS.
variant no-perf arm64 aarch64-linux-gnu- "# CONFIG_PERF_EVENTS is not set" "# CONFIG_HW_PERF_EVENTS is not set" \
	"# CONFIG_KVM is not set" "# CONFIG_CORESIGHT is not set" "# CONFIG_BPF_SYSCALL is not set"

# Count what ran (FROM=N and VARIANTS_ONLY skip builds, which are neither)
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
