# Helpers of the boot cases, sourced in the guest by run.sh.
T=/sys/kernel/tracing
errs=0
fail() { echo "FAIL: $*"; errs=$((errs + 1)); }
info() { echo "# $*"; }

# The kernel log time (seconds since boot) at which init was started
init_time() {
	dmesg | sed -n 's/^\[ *\([0-9.]*\)\] \(Run .* as init process\|Freeing unused kernel image\).*/\1/p' | head -1
}

# file: check that a file reads a value
expect() { # file value
	local got
	got=$(cat "$1" 2>/dev/null)
	[ "$got" = "$2" ] || fail "$1 reads '$got', expected '$2'"
}

# The records of a function_duration tracer: "TIMESTAMP DURATION FUNCTION"
tracer_records() { # trace file
	grep -v '^#' "$1" | awk '{
		for (i = 1; i < NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/) {
				sub(":", "", $i); print $i, $(i + 1), $(i + 2); break
			}
	}'
}

# The records of the ftrace:function_duration event: "TIMESTAMP DURATION FUNCTION"
event_records() { # trace file
	grep -v '^#' "$1" | grep 'function_duration: func=' | awk '{
		ts = ""; fn = ""; d = ""
		for (i = 1; i <= NF; i++) {
			if (ts == "" && $i ~ /^[0-9]+\.[0-9]+:$/) { ts = $i; sub(":", "", ts) }
			if ($i ~ /^func=/) { fn = substr($i, 6) }
			if ($i ~ /^duration=/) { d = substr($i, 10) }
		}
		print ts, d, fn
	}'
}

# Records ("TS DURATION FUNC" lines on stdin) exist, none is shorter than
# the threshold, and the first one was written before init started
check_records() { # what thresh_ns
	local what=$1 thresh=$2 recs n short first init
	recs=$(cat)
	n=$(grep -c . <<<"$recs")
	[ "$n" -gt 0 ] || { fail "$what: no records"; return; }
	short=$(awk -v t="$thresh" '$2 < t' <<<"$recs" | head -3)
	[ -z "$short" ] || fail "$what: records under $thresh ns: $short"
	first=$(sort -n <<<"$recs" | head -1 | cut -d' ' -f1)
	init=$(init_time)
	info "$what: $n records, the first at ${first}s, init started at ${init}s"
	if [ -z "$init" ]; then
		fail "$what: no line in the kernel log says when init started"
	elif ! awk -v a="$first" -v b="$init" 'BEGIN { exit !(a < b) }'; then
		fail "$what: no record from before init (first at ${first}s, init at ${init}s)"
	fi
	info "$what: the slowest:"
	sort -k2,2nr <<<"$recs" | head -5 | sed 's/^/#   /'
}
