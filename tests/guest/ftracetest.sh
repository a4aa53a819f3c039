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
echo "$name $((SECONDS - start))" >>"$res/timings"
