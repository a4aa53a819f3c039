# An instance that bootconfig makes exists before tracefs: a graph tracer
# given to it at boot used to find the instance without its fgraph_ops
# and crash init with a NULL pointer dereference (0001). The same for
# function_graph on the base kernel, so this case runs there too.
desc="bootconfig: function_graph in an instance made at boot"
# An event enabled at boot turns the startup self-tests off: the boot
# takes 10 s instead of 80
boot_cmdline="trace_event=initcall:initcall_finish"
boot_config='ftrace.instance.graph {
	tracer = function_graph
	ftrace.filters = do_one_initcall
}'

check() {
	local i=$T/instances/graph n
	expect $i/current_tracer function_graph
	expect $T/current_tracer nop
	n=$(grep -v '^#' $i/trace | grep -c 'do_one_initcall' || true)
	[ "$n" -gt 0 ] || fail "instance graph: no record of do_one_initcall: $(grep -v '^#' $i/trace | head -3)"
	info "instance graph: $n lines of do_one_initcall"
}
