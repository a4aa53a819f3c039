# The three function events from trace_event=, and a hist trigger on
# ftrace:function_duration from trace_trigger=
desc="trace_event=ftrace:function,ftrace:function_graph,ftrace:function_duration and trace_trigger= with a hist"
boot_cmdline="ftrace_filter=do_one_initcall ftrace_graph_filter=do_one_initcall ftrace_graph_max_depth=1 ftrace_duration_thresh_ns=1000000 trace_event=ftrace:function,ftrace:function_graph,ftrace:function_duration trace_trigger=function_duration.hist:keys=func.sym:vals=duration"

check() {
	local n
	expect $T/events/ftrace/function/enable 1
	expect $T/events/ftrace/function_graph/enable 1
	# Enabled, and in soft mode for its hist trigger, as any event with one
	expect $T/events/ftrace/function_duration/enable '1*'
	# ftrace:function and ftrace:function_graph: do_one_initcall only
	n=$(grep -v '^#' $T/trace | grep -c 'function_graph: entry func=do_one_initcall ' || true)
	[ "$n" -gt 0 ] || fail "no ftrace:function_graph entry of do_one_initcall"
	n=$(grep -v '^#' $T/trace | grep -v 'function_graph: \|function_duration: ' | grep -c ' do_one_initcall <-' || true)
	[ "$n" -gt 0 ] || fail "no ftrace:function record of do_one_initcall"
	event_records $T/trace | check_records "ftrace:function_duration" 1000000
	grep -q '^{ func: .*do_one_initcall' $T/events/ftrace/function_duration/hist ||
		fail "no hist entry: $(grep -v '^#' $T/events/ftrace/function_duration/hist | head -5)"
	grep -A3 'do_one_initcall' $T/events/ftrace/function_duration/hist | head -3 | sed 's/^/# hist: /'
}
