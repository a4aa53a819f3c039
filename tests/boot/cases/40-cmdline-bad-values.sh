# Bad boot values: each is reported once in the kernel log and changes
# nothing, the good values next to them still apply, and nothing panics
desc="bad values of ftrace_duration_thresh_ns=, trace_event= and trace_trigger= are reported and change nothing"
boot_cmdline="ftrace=function_duration ftrace_filter=do_one_initcall ftrace_duration_thresh_ns=12abc trace_event=ftrace:function_duration,ftrace:no_such_event trace_trigger=function_duration.no_such_trigger,no_such_event.stacktrace"

check() {
	local log n
	log=$(dmesg)
	grep -q 'ftrace_duration_thresh_ns=12abc is not a duration in nanoseconds: ignored' <<<"$log" ||
		fail "no message about ftrace_duration_thresh_ns=12abc"
	expect $T/duration_thresh_ns 0
	expect $T/current_tracer function_duration
	n=$(grep -c 'Failed to enable trace event: ftrace:no_such_event' <<<"$log")
	[ "$n" = 1 ] || fail "'Failed to enable trace event: ftrace:no_such_event' $n times, expected once"
	expect $T/events/ftrace/function_duration/enable 1
	grep -q "Failed to register trigger 'no_such_trigger' on event function_duration" <<<"$log" ||
		fail "no message about the trigger no_such_trigger"
	grep -q "No event no_such_event for trigger 'stacktrace'" <<<"$log" ||
		fail "no message about the trigger of no_such_event"
	[ -z "$(grep -v '^#' $T/events/ftrace/function_duration/trigger)" ] ||
		fail "function_duration has a trigger: $(cat $T/events/ftrace/function_duration/trigger)"
	# The good values still apply: the tracer and the event record do_one_initcall
	n=$(grep -v '^#' $T/trace | grep -c 'do_one_initcall' || true)
	[ "$n" -gt 0 ] || fail "no record of do_one_initcall"
	grep -E 'ftrace_duration_thresh_ns|no_such' <<<"$log" | sed 's/^/# dmesg: /'
}
