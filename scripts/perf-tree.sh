#!/usr/bin/env bash
# Build perf from the kernel tree (tools/perf), the perf a 6.12 user of
# this tree would run, into build/out/perf. Prints the binary's path.
# Only what the tests need: libtraceevent (tracepoint fields), libelf
# (symbols); no scripting, BPF skeletons, GUI or unwinders.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
src=${1:-$TREE}
[ -d "$src/tools/perf" ] || die "no tools/perf in $src: run 'make tree'"
"$TOP/scripts/deps.sh" perf
out=$OUT/perf
mkdir -p "$out"
t0=$(now)
make -C "$src/tools/perf" O="$out" -j"$JOBS" \
	NO_LIBPYTHON=1 NO_LIBPERL=1 BUILD_BPF_SKEL=0 NO_LIBBPF=1 NO_JVMTI=1 \
	NO_LIBUNWIND=1 NO_LIBDW=1 NO_SLANG=1 NO_GTK2=1 NO_LIBNUMA=1 NO_LIBCAP=1 \
	NO_LIBBABELTRACE=1 NO_LIBZSTD=1 NO_LIBLLVM=1 NO_DEMANGLE=1 NO_SDT=1 \
	NO_AUXTRACE=1 NO_LIBCRYPTO=1 NO_LIBPFM4=1 NO_CAPSTONE=1 \
	WERROR=0 >"$out/build.log" 2>&1 ||
	{ tail -30 "$out/build.log" >&2; die "tools/perf did not build: $out/build.log"; }
[ -x "$out/perf" ] || die "no $out/perf after the build"
stage_time perf-tree "$t0"
echo "$out/perf"
