#!/bin/bash
# Records gathered over the network, as a fleet would send them: a
# "trace-cmd listen" collector on loopback, and "trace-cmd record -N" of
# ftrace:function_duration and of the function_duration tracer. The
# listener's files decode every field, with no "FAILED TO PARSE".
# The data goes over TCP (-t): trace-cmd's default, UDP, drops pages when
# the listener falls behind, as it can on a slow 2-CPU guest.
. "$(dirname "$0")/lib.sh"
need trace-cmd
[ -f $T/events/ftrace/function_duration/format ] || fail "no events/ftrace/function_duration/format"
grep -qw function_duration $T/available_tracers || fail "no function_duration tracer"
port=${NET_PORT:-18765}
dir=$PWD/listener
rm -rf "$dir"
mkdir -p "$dir"
trace-cmd listen -p "$port" -d "$dir" -o fleet -l "$dir/listen.log" &
lpid=$!
trap 'kill $lpid 2>/dev/null; wait $lpid 2>/dev/null' EXIT
for i in $(seq 50); do
	ss -ltn 2>/dev/null | grep -q ":$port " && break
	sleep 0.2
done
ss -ltn 2>/dev/null | grep -q ":$port " || fail "trace-cmd listen is not listening on $port: $(cat "$dir/listen.log")"

record() { # what, trace-cmd record arguments...
	local what=$1
	shift
	trace-cmd record -q -N "127.0.0.1:$port" -t "$@" -- \
		dd if=/dev/zero of=/dev/null bs=1 count=50 >"$what.log" 2>&1 ||
		fail "trace-cmd record -N $*: $(tail -3 "$what.log")"
}
# The listener names each client's file fleet.HOST:PORT.dat; the newest is ours
newest() { ls -t "$dir"/fleet.*.dat 2>/dev/null | head -1; }
decode() { # what, pattern, minimum
	local f n i
	# The listener forks a child per client, which may still be writing
	# the file when record returns: wait until it has exited.
	for i in $(seq 60); do
		pgrep -P $lpid >/dev/null || break
		sleep 1
	done
	pgrep -P $lpid >/dev/null && fail "$1: the listener's child still runs after 60 s"
	f=$(newest)
	[ -n "$f" ] || fail "$1: the listener wrote no file: $(ls "$dir"; cat "$dir/listen.log")"
	trace-cmd report -i "$f" >"$1.txt" 2>&1 || fail "$1: trace-cmd report -i $f failed: $(tail -3 "$1.txt")"
	grep -q 'FAILED TO PARSE' "$1.txt" && fail "$1: unparsed records: $(grep -m1 'FAILED TO PARSE' "$1.txt")"
	n=$(grep -cE "$2" "$1.txt")
	[ "$n" -ge "$3" ] || fail "$1: expected >= $3 decoded records, got $n: $(grep -v '^ *#' "$1.txt" | head -5)"
	echo "$1: $n records from the listener's $(basename "$f")"
	grep -m2 -E "$2" "$1.txt" | sed 's/^/  /'
	rm -f "$f"
}
fields='func=ksys_read parent=[A-Za-z0-9_.]+ depth=[0-9]+ calltime=[0-9]+ duration=[0-9]+ retval=-?[0-9]+'
record event -e ftrace:function_duration -l ksys_read
decode event "function_duration: +$fields" 50
record tracer -p function_duration -l ksys_read
decode tracer "function_duration: +$fields" 50
