#!/usr/bin/env bash
# Host-side tests of the harness itself; prints KTAP. Runs in seconds.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
report=$top/tests/report.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fails=0
tests=()
t() { tests+=("$1"); }

# 1. export round trip: a tree with two commits on "base" exports to
#    patches/, re-applies to the same tree, and re-exports byte-identical.
test_export_roundtrip() {
	local b=$tmp/rt
	mkdir -p "$b/build/linux" "$b/patches"
	(
		cd "$b/build/linux" && git init -q -b master &&
			printf 'one\ntwo\n' >f.c && git add f.c &&
			git -c user.name=t -c user.email=t@t commit -q -m base && git tag base &&
			printf 'one\n2\n' >f.c &&
			git -c user.name=t -c user.email=t@t commit -q -am 'tracing: change two' -m 'Body.' &&
			printf 'one\n2\nthree\n' >f.c &&
			git -c user.name=t -c user.email=t@t commit -q -am 'tracing: add three'
	) || return 1
	BUILD=$b/build PATCHES=$b/patches "$top/scripts/tree.sh" export 2>/dev/null || return 1
	[ "$(grep -vc '^#' "$b/patches/series")" = 2 ] || return 1
	cp -r "$b/patches" "$b/first"
	local tree1
	tree1=$(git -C "$b/build/linux" rev-parse HEAD^{tree})
	BUILD=$b/build PATCHES=$b/patches "$top/scripts/tree.sh" apply 2>/dev/null || return 1
	[ "$(git -C "$b/build/linux" rev-parse HEAD^{tree})" = "$tree1" ] || return 1
	BUILD=$b/build PATCHES=$b/patches "$top/scripts/tree.sh" export 2>/dev/null || return 1
	diff -r "$b/first" "$b/patches" >/dev/null || return 1
	# Nothing that changes from one export to the next.
	! grep -qE '^From 0*[1-9a-f][0-9a-f]* ' "$b/patches"/0001-*.patch || return 1
	! grep -q '^-- $' "$b/patches"/0001-*.patch
}
t test_export_roundtrip

# 2. an empty series is valid and a missing patch is named.
test_series_errors() {
	local b=$tmp/se
	mkdir -p "$b/build/linux" "$b/patches"
	(cd "$b/build/linux" && git init -q -b master && echo a >a && git add a &&
		git -c user.name=t -c user.email=t@t commit -q -m base && git tag base) || return 1
	: >"$b/patches/series"
	BUILD=$b/build PATCHES=$b/patches "$top/scripts/tree.sh" apply 2>/dev/null || return 1
	echo 0001-missing.patch >"$b/patches/series"
	local out
	out=$(BUILD=$b/build PATCHES=$b/patches "$top/scripts/tree.sh" apply 2>&1) && return 1
	grep -q '0001-missing.patch' <<<"$out"
}
t test_series_errors

# 3. a patch that does not apply is named.
test_patch_conflict() {
	local b=$tmp/pc
	mkdir -p "$b/build/linux" "$b/patches"
	(cd "$b/build/linux" && git init -q -b master && echo a >a && git add a &&
		git -c user.name=t -c user.email=t@t commit -q -m base && git tag base &&
		echo b >a && git -c user.name=t -c user.email=t@t commit -q -am 'tracing: b') || return 1
	BUILD=$b/build PATCHES=$b/patches "$top/scripts/tree.sh" export 2>/dev/null || return 1
	sed -i 's/^-a$/-zzz/' "$b/patches"/0001-*.patch
	local out
	out=$(BUILD=$b/build PATCHES=$b/patches "$top/scripts/tree.sh" apply 2>&1) && return 1
	grep -q "patch 0001-tracing-b.patch does not apply" <<<"$out"
}
t test_patch_conflict

# 4. KTAP parsing: every status is counted, and a short run is a failure.
test_ktap_parse() {
	local d=$tmp/kt
	mkdir -p "$d"
	cp "$here/data/sample.ktap" "$d/ftracetest.ktap"
	cp "$here/data/clean-dmesg.txt" "$d/dmesg.txt"
	local out
	out=$(python3 "$report" summary "$d") && return 1 # one FAIL, one UNRESOLVED, one missing
	grep -qx '4 passed, 3 failed, 1 skipped' <<<"$out" || { echo "$out"; return 1; }
	python3 "$report" cases "$d/ftracetest.ktap" >"$d/cases.tsv"
	grep -qx $'XFAIL\tMeta: xfail' "$d/cases.tsv" &&
		grep -qx $'UNRESOLVED\t(instance) event tracing - enable/disable' "$d/cases.tsv"
}
t test_ktap_parse

# 4b. in the series' own suite a SKIP (feature missing) is a failure.
test_series_strict() {
	local d=$tmp/st
	mkdir -p "$d"
	printf 'TAP version 13\n1..2\nok 1 ftrace - function_duration output format\nok 2 ftrace - x # SKIP\n' >"$d/series.ktap"
	cp "$here/data/clean-dmesg.txt" "$d/dmesg.txt"
	local out
	out=$(python3 "$report" summary "$d") && return 1
	grep -qx '2 passed, 1 failed, 0 skipped' <<<"$out" && grep -q 'SKIP (feature missing) ftrace - x' <<<"$out"
}
t test_series_strict

# 4b0. a suite cut short names the case it was in, once; a case that
#       reported after its "# running" line is not named.
test_cut_short() {
	local d=$tmp/cs out
	mkdir -p "$d"
	printf 'TAP version 13\n1..3\n# running 1 a\nok 1 a\n# running 2 b-client\n' >"$d/clients.ktap"
	cp "$here/data/clean-dmesg.txt" "$d/dmesg.txt"
	out=$(python3 "$report" summary "$d") && return 1
	grep -q 'clients: 2 planned case(s) never reported (cut short in 2 b-client)' <<<"$out" || { echo "$out"; return 1; }
	printf 'TAP version 13\n1..2\n# running 1 a\nok 1 a\n' >"$d/clients.ktap"
	out=$(python3 "$report" summary "$d") && return 1
	grep -q 'clients: 1 planned case(s) never reported (run cut short?)' <<<"$out" || { echo "$out"; return 1; }
}
t test_cut_short

# 4b'. an upstream case that failed and passed when run again alone
#      (SUITE.retry) counts as passed and is listed as FLAKY; one that
#      failed again stays failed, and so does a series case.
test_retry() {
	local d=$tmp/rt out
	mkdir -p "$d"
	printf 'TAP version 13\n1..3\nok 1 a\nnot ok 2 b\nnot ok 3 c\n' >"$d/ftracetest.ktap"
	printf 'TAP version 13\n1..2\nok 1 b\nnot ok 2 c\n' >"$d/ftracetest.retry"
	printf 'TAP version 13\n1..1\nnot ok 1 s\n' >"$d/series.ktap"
	printf 'TAP version 13\n1..1\nok 1 s\n' >"$d/series.retry"
	cp "$here/data/clean-dmesg.txt" "$d/dmesg.txt"
	out=$(python3 "$report" summary "$d") && return 1
	grep -qx '3 passed, 2 failed, 0 skipped' <<<"$(tail -1 <<<"$out")" &&
		grep -q 'ftracetest: FLAKY b (failed, then passed' <<<"$out" &&
		! grep -q 'FLAKY c' <<<"$out" && grep -q 'ftracetest: FAIL c' <<<"$out" &&
		grep -q 'series: FAIL s' <<<"$out" || { echo "$out"; return 1; }
	python3 "$report" cases "$d/ftracetest.ktap" >"$d/cases.tsv"
	grep -qx $'PASS\tb' "$d/cases.tsv" && grep -qx $'FAIL\tc' "$d/cases.tsv"
}
t test_retry

# 4c. the last line is honest: every way a run can fail is a failed test
#     with a one-line reason, even when every case that ran passed.
test_honest_summary() {
	local d out good='TAP version 13\n1..2\nok 1 a\nok 2 b\n'
	check_summary() { # name expected-line reason-regex
		out=$(python3 "$report" summary "$d") && { echo "$1: exit 0"; return 1; }
		grep -qx "$2" <<<"$(tail -1 <<<"$out")" || { echo "$1: $out"; return 1; }
		grep -qE "$3" <<<"$out" || { echo "$1: no reason: $out"; return 1; }
	}
	fresh() {
		d=$tmp/hs-$1
		mkdir -p "$d"
		printf "$good" >"$d/series.ktap"
		cp "$here/data/clean-dmesg.txt" "$d/dmesg.txt"
		echo series >"$d/expected-suites"
		echo "0 guest command finished" >"$d/vm.status"
	}
	fresh ok
	out=$(python3 "$report" summary "$d") || { echo "ok: $out"; return 1; }
	grep -qx '3 passed, 0 failed, 0 skipped' <<<"$(tail -1 <<<"$out")" || { echo "ok: $out"; return 1; }
	# name|file|content|expected last line|reason
	local name file content want reason
	while IFS='|' read -r name file content want reason; do
		fresh "$name"
		if [ "$file" = dmesg.txt ]; then
			cp "$here/data/$content" "$d/dmesg.txt"
		else
			printf "$content" >"$d/$file"
		fi
		check_summary "$name" "$want" "$reason" || return 1
	done <<'EOF'
died|vm.status|125 guest died before the command finished (qemu exit 1)\n|3 passed, 1 failed, 0 skipped|# *guest: guest died
timeout|vm.status|124 guest timed out after 3000s and was killed\n|3 passed, 1 failed, 0 skipped|# *guest: guest timed out
exit|vm.status|127 guest command exited with status 127\n|3 passed, 1 failed, 0 skipped|exited with status 127
missing|expected-suites|series\nstress\n|3 passed, 1 failed, 0 skipped|# *stress: suite missing
short|series.ktap|TAP version 13\n1..3\nok 1 a\n|2 passed, 2 failed, 0 skipped|never reported
extra|series.ktap|TAP version 13\n1..1\nok 1 a\nok 2 b\n|3 passed, 1 failed, 0 skipped|plan 1\.\.1 but 2 results
noplan|series.ktap|TAP version 13\nok 1 a\n|2 passed, 1 failed, 0 skipped|no plan
splat|dmesg.txt|splat-dmesg.txt|2 passed, 1 failed, 0 skipped|splat line
EOF
	# a failed case carries its own reason, from its log
	fresh reason
	printf 'TAP version 13\n1..1\nnot ok 1 60-net\n' >"$d/clients.ktap"
	mkdir -p "$d/clients-logs"
	printf 'listening\nFAIL: event: expected >= 50 decoded records, got 7\n' >"$d/clients-logs/60-net.log"
	echo 'series clients' >"$d/expected-suites"
	check_summary reason '3 passed, 1 failed, 0 skipped' \
		'clients: FAIL 60-net \(FAIL: event: expected >= 50 decoded records, got 7\)$' || return 1
	# a known, analysed line (KNOWN_RE) is reported, not counted
	fresh known
	echo '[  175.355087] WARNING: stack going in the wrong direction? at return_to_handler+0x46/0x50' >>"$d/dmesg.txt"
	out=$(python3 "$report" summary "$d") || { echo "known: $out"; return 1; }
	grep -q 'known (not counted' <<<"$out" || { echo "known: $out"; return 1; }
	# where the first splat happened comes last, where a tail of the
	# output (all that CI may show) still has it
	fresh where
	cp "$here/data/splat-dmesg.txt" "$d/dmesg.txt"
	out=$(python3 "$report" summary "$d") && { echo "where: $out"; return 1; }
	tail -n 4 <<<"$out" | grep -q 'RIP: 0010:ftrace_bug+0x1f0' || { echo "where: $out"; return 1; }
}
t test_honest_summary

# 5. dmesg scanning finds a WARN splat and a lockdep report, not noise.
test_dmesg_scan() {
	python3 "$report" scan "$here/data/clean-dmesg.txt" >/dev/null || return 1
	local out
	out=$(python3 "$report" scan "$here/data/splat-dmesg.txt") && return 1
	grep -q 'WARNING: CPU: 1 PID: 230 at kernel/trace/ftrace.c' <<<"$out" &&
		grep -q 'possible recursive locking detected' <<<"$out" &&
		grep -q 'BUG: KASAN: slab-use-after-free' <<<"$out"
}
t test_dmesg_scan

# 6. the case-by-case diff reports new failures and lost passes only.
test_diff() {
	printf 'PASS\ta\nPASS\tb\nFAIL\tc\nPASS\td\nPASS\te\n' >"$tmp/base.tsv"
	printf 'PASS\ta\nFAIL\tb\nPASS\tc\nSKIP\td\n' >"$tmp/new.tsv"
	local out
	out=$(python3 "$report" diff "$tmp/base.tsv" "$tmp/new.tsv") && return 1
	grep -q 'REGRESSION PASS -> FAIL: b' <<<"$out" &&
		grep -q 'REGRESSION PASS -> SKIP: d' <<<"$out" &&
		grep -q 'REGRESSION PASS -> MISSING: e' <<<"$out" &&
		grep -q 'fixed      c' <<<"$out" &&
		grep -q '3 regression' <<<"$out" &&
		python3 "$report" diff "$tmp/base.tsv" "$tmp/base.tsv" >/dev/null
}
t test_diff

# 7. shell scripts parse.
test_syntax() {
	local f
	for f in "$top"/scripts/*.sh "$top"/scripts/guest-init "$top"/tests/guest/*.sh \
		"$top"/tests/clients/*.sh "$top"/.ci/run; do
		[ -f "$f" ] || continue
		bash -n "$f" || return 1
	done
}
t test_syntax

echo "TAP version 13"
echo "1..${#tests[@]}"
for f in "${tests[@]}"; do
	n=$((n + 1))
	if out=$("$f" 2>&1); then
		echo "ok $n $f"
	else
		echo "not ok $n $f"
		[ -n "$out" ] && sed 's/^/# /' <<<"$out"
		fails=$((fails + 1))
	fi
done
[ $fails -eq 0 ]
