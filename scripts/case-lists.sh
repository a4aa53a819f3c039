#!/usr/bin/env bash
# Write the ftracetest case lists of a run into RESULTS (paths under test.d/):
#   series.list    cases the series adds (committed or not)
#   upstream.list  tests/upstream-check.list without those
#   case-lists.sh TREE RESULTS
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tree=$1 res=$2
rel=tools/testing/selftests/ftrace/test.d
{
	git -C "$tree" diff --name-only --diff-filter=A base -- "$rel"
	git -C "$tree" ls-files --others --exclude-standard -- "$rel"
} | sed -n "s|^$rel/||p" | grep '\.tc$' | sort -u >"$res/series.list" || true
(
	cd "$tree/$rel"
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/tests/upstream-check.list" | while read -r pat; do
		for f in $pat; do [ -f "$f" ] && echo "$f"; done
	done
) | sort -u | grep -vxF -f "$res/series.list" >"$res/upstream.list" || true
info "$(wc -l <"$res/upstream.list") upstream case(s), $(wc -l <"$res/series.list") series case(s)"
