# The function_duration tracer from the kernel command line, with the graph
# filter, depth and threshold parameters
desc="ftrace=function_duration with ftrace_graph_filter=, ftrace_graph_max_depth= and ftrace_duration_thresh_ns="
boot_cmdline="ftrace=function_duration ftrace_graph_filter=do_one_initcall ftrace_graph_max_depth=2 ftrace_duration_thresh_ns=1000000"

check() {
	expect $T/current_tracer function_duration
	expect $T/duration_thresh_ns 1000000
	expect $T/max_graph_depth 2
	grep -qx do_one_initcall $T/set_graph_function || fail "set_graph_function: $(head -3 $T/set_graph_function)"
	tracer_records $T/trace | check_records "tracer" 1000000
	tracer_records $T/trace | awk '{ print $3 }' | grep -qx do_one_initcall || fail "no record of do_one_initcall"
}
