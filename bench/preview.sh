#!/bin/bash
# In the guest: a quick per-call cost preview of function_duration against
# function_graph on one filtered function (ksys_read under dd bs=1), and
# the ring-buffer bytes each writes per call. Ratios only: under TCG the
# absolute times mean nothing. The full benchmark is bench/ (make bench).
T=/sys/kernel/tracing
N=${1:-20000}
run() { # ns for N one-byte reads
	local t0 t1
	t0=$(date +%s%N)
	dd if=/dev/zero of=/dev/null bs=1 count=$N 2>/dev/null
	t1=$(date +%s%N)
	echo $((t1 - t0))
}
bytes() { # ring-buffer bytes in use, all CPUs
	cat $T/per_cpu/cpu*/stats | awk '/^bytes:/ { b += $2 } END { print b }'
}
setup() { # tracer
	echo nop >$T/current_tracer
	echo >$T/trace
	echo 1 >$T/tracing_on
	echo ksys_read >$T/set_ftrace_filter
	[ "$1" = none ] || echo "$1" >$T/current_tracer
}
echo 20 >$T/buffer_size_kb
echo 8192 >$T/buffer_size_kb
declare -A best
for round in 1 2 3 4 5; do
	for cfg in none function_graph function_duration; do
		setup $cfg
		t=$(run)
		# Reading "trace" while its own reads are traced never ends
		echo 0 >$T/tracing_on
		[ -z "${best[$cfg]}" ] || [ "$t" -lt "${best[$cfg]}" ] && best[$cfg]=$t
		if [ $round = 1 ] && [ $cfg != none ]; then
			echo "$cfg: $(( $(bytes) / N )) ring-buffer bytes per ksys_read call ($(grep -vc '^#' $T/trace) lines)"
		fi
	done
done
setup none
echo >$T/set_ftrace_filter
base=${best[none]}
g=$(( (best[function_graph] - base) / N ))
d=$(( (best[function_duration] - base) / N ))
echo "per-call overhead (best of 5, $N calls): function_graph ${g} ns, function_duration ${d} ns (TCG)"
awk -v g=$g -v d=$d 'BEGIN { if (g > 0) printf "function_duration / function_graph = %.2f\n", d / g }'
