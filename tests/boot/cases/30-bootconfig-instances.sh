# Boot-time tracing (bootconfig): the function_duration tracer in one
# instance, a hist of ftrace:function_duration in another, and a filtered
# ftrace:function_graph with a hist action in a third, each with its own
# graph filter, depth and threshold
desc="bootconfig: function_duration, and the events with hist, filter and actions, in three instances"
# An event enabled at boot turns the startup self-tests off: the boot
# takes 10 s instead of 80
boot_cmdline="trace_event=initcall:initcall_finish"
boot_config='ftrace.instance {
	slow {
		tracer = function_duration
		fgraph.filters = do_one_initcall
		fgraph.max_depth = 2
		duration_thresh_ns = 1000000
	}
	initcalls {
		fgraph.filters = do_one_initcall
		fgraph.max_depth = 1
		duration_thresh_ns = 2000000
		event.ftrace.function_duration {
			enable
			hist {
				keys = func.sym
				values = duration
			}
		}
	}
	graph {
		fgraph.filters = do_one_initcall
		fgraph.max_depth = 1
		event.ftrace.function_graph {
			filter = "exit == 1"
			actions = "hist:keys=func.sym:vals=duration"
			enable
		}
	}
}'

check() {
	local i=$T/instances other
	expect $i/slow/current_tracer function_duration
	expect $i/slow/duration_thresh_ns 1000000
	expect $i/slow/max_graph_depth 2
	grep -qx do_one_initcall $i/slow/set_graph_function || fail "slow/set_graph_function: $(head -3 $i/slow/set_graph_function)"
	# "1*": enabled, and in soft mode for its hist trigger
	expect $i/initcalls/events/ftrace/function_duration/enable "1*"
	expect $i/initcalls/duration_thresh_ns 2000000
	expect $i/initcalls/max_graph_depth 1
	# The top level instance is left alone
	expect $T/current_tracer nop
	expect $T/duration_thresh_ns 0
	tracer_records $i/slow/trace | check_records "instance slow" 1000000
	event_records $i/initcalls/trace | check_records "instance initcalls" 2000000
	other=$(event_records $i/initcalls/trace | awk '{ print $3 }' | sort -u | grep -vx do_one_initcall | head -3)
	[ -z "$other" ] || fail "instance initcalls, depth 1: records of $other"
	grep -q '^{ func: .*do_one_initcall' $i/initcalls/events/ftrace/function_duration/hist ||
		fail "no hist entry: $(grep -v '^#' $i/initcalls/events/ftrace/function_duration/hist | head -5)"
	# The filter and the action of ftrace:function_graph: returns only
	local g=$i/graph/events/ftrace/function_graph
	expect $g/enable "1*"
	expect $g/filter "exit == 1"
	grep -q '^hist:keys=func.sym:vals=hitcount,duration' $g/trigger || fail "graph trigger: $(cat $g/trigger)"
	grep -q '^{ func: .*do_one_initcall' $g/hist || fail "no graph hist entry: $(grep -v '^#' $g/hist | head -5)"
	grep -v '^#' $i/graph/trace | grep -q 'function_graph: return func=do_one_initcall ' ||
		fail "instance graph: no return record of do_one_initcall"
	! grep -v '^#' $i/graph/trace | grep -q 'function_graph: entry ' ||
		fail "instance graph: entry records pass the filter exit == 1"
}
