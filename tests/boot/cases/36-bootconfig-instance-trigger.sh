# trace_trigger= together with instances made at boot (trace_instance= and
# bootconfig). A bootconfig instance is made with event_mutex held, and
# adding a trigger of trace_trigger= to its early event files took
# event_mutex again: the boot hung before init, on the base kernel too
# (0002). And each early file of the event cut up the same string, so
# the second one got a bare "traceon" without its filter (0003).
desc="trace_trigger= with a filter, and instances made at boot (trace_instance=, bootconfig)"
# An event enabled at boot turns the startup self-tests off
boot_cmdline='trace_event=initcall:initcall_finish trace_instance=early trace_trigger="initcall_finish.traceon if ret < 0,function_duration.traceon"'
boot_config='ftrace.instance.trig {
	buffer_size = 64KB
}'

check() {
	local d t
	# The top level, the trace_instance= one and the bootconfig one each
	# get the whole trigger
	for d in $T $T/instances/early $T/instances/trig; do
		[ -d "$d" ] || { fail "no $d"; continue; }
		t=$(cat $d/events/initcall/initcall_finish/trigger)
		[[ "$t" == traceon*"if ret < 0"* ]] ||
			fail "$d: initcall_finish trigger reads '$t', expected traceon with 'if ret < 0'"
	done
	if [ -d $T/events/ftrace/function_duration ]; then
		grep -q '^traceon' $T/events/ftrace/function_duration/trigger ||
			fail "top level: function_duration has no traceon trigger: $(cat $T/events/ftrace/function_duration/trigger)"
	fi
	info "init started at $(init_time) s"
}
