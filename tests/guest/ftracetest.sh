#!/bin/bash
# In the guest: run ftracetest from a kernel tree on a list of cases and
# leave NAME.ktap (and failing cases' logs) in /mnt/results.
#
#   ftracetest.sh SELFTEST_DIR NAME LISTFILE|all
set -u
dir=$1 name=$2 list=$3
res=/mnt/results
cd "$dir" || exit 1
cases=()
if [ "$list" != all ]; then
	while read -r pat; do
		pat=${pat%%#*}
		pat=$(echo $pat)
		[ -n "$pat" ] || continue
		for f in test.d/$pat; do
			[ -f "$f" ] && cases+=("$f")
		done
	done <"$list"
	[ ${#cases[@]} -gt 0 ] || { echo "no cases matched $list"; exit 1; }
	mapfile -t cases < <(printf '%s\n' "${cases[@]}" | sort -u)
fi
start=$SECONDS
./ftracetest -K -l "$res/$name-logs" "${cases[@]}" 2>&1 |
	tee "$res/$name.ktap" |
	while IFS= read -r line; do
		case $line in
		"ok "* | "not ok "* | "# Totals"*) printf '[%4ds] %s\n' $((SECONDS - start)) "$line" ;;
		esac
	done
# An upstream case that failed runs once more, alone, into NAME.retry
# (tests/report.py counts it as passed if it passes there, and lists it as
# FLAKY), when at most 10 failed. The series' own cases are never run
# again: they must not flake.
if [ "${name#series}" = "$name" ]; then
	retry=()
	for log in "$res/$name-logs"/*.tc-log.*; do
		[ -f "$log" ] || continue
		n=${log##*/}
		n=${n%%-*}
		# a plain failure: not UNRESOLVED, XFAIL or SKIP
		grep -qE "^not ok $n [^#]*\$" "$res/$name.ktap" || continue
		base=${log##*/}
		base=${base#*-}
		base=${base%-log.*}
		for f in test.d/*/"$base" test.d/*/*/"$base"; do
			[ -f "$f" ] && retry+=("$f")
		done
	done
	# A case that failed at the top level and in an instance runs once
	[ ${#retry[@]} -eq 0 ] || mapfile -t retry < <(printf '%s\n' "${retry[@]}" | sort -u)
	# More than a few failures are no flake: those are not run again
	if [ ${#retry[@]} -gt 10 ]; then
		echo "${#retry[@]} cases failed: none is run again"
	elif [ ${#retry[@]} -gt 0 ]; then
		echo "running again alone: ${retry[*]}"
		./ftracetest -K -l "$res/$name-retry-logs" "${retry[@]}" >"$res/$name.retry" 2>&1
		grep '^ok \|^not ok ' "$res/$name.retry" | sed 's/^/  again: /'
	fi
fi
echo "$name $((SECONDS - start))" >>"$res/timings"
