#!/usr/bin/env python3
"""Turn bench/guest.sh's raw figures into a markdown table and a bar chart.

    report.py [--mode exact|wall] OUTDIR BENCH_TSV...

Writes OUTDIR/bench.md (also printed) and OUTDIR/bench.png (gnuplot).
Each BENCH_TSV is one boot. The tables are the first boot's: the medians
of its rounds, the spread as (max - min) / median, and min-max error bars.
With more boots, a table says how far the boots' medians agree.

In the exact mode (QEMU -icount shift=0,sleep=off) the guest clock counts
instructions, so a "ns" of the guest is one instruction; in the wall mode
it is emulator time, and only ratios mean anything.
"""
import os
import re
import statistics
import subprocess
import sys
from collections import defaultdict

LABELS = {
    "none": "untraced",
    "function": "function tracer",
    "function_graph": "function_graph tracer",
    "fgraph_empty": "empty fgraph user (function_graph, set_graph_notrace)",
    "fg_thresh": "function_graph, tracing_thresh above every call",
    "fdur_0": "function_duration, threshold 0",
    "fdur_floor": "function_duration, threshold above every call (floor)",
    "ev_function": "ftrace:function event (tracefs)",
    "ev_graph": "ftrace:function_graph event (tracefs)",
    "ev_duration": "ftrace:function_duration event (tracefs)",
    "ev_duration_idle1": "ftrace:function_duration, 1 idle consumer on other functions",
    "ev_duration_idle4": "ftrace:function_duration, 4 idle consumers on other functions",
    "ev_duration_idle16": "ftrace:function_duration, 16 idle consumers on other functions",
    "hist_duration": "hist trigger on ftrace:function_duration",
    "perf_function": "perf record -e ftrace:function (per task)",
    "perf_graph": "perf record -e ftrace:function_graph (per task)",
    "perf_duration": "perf record -e ftrace:function_duration (per task)",
    "ev_tp": "syscalls:sys_enter_read, a static tracepoint (tracefs, reference)",
    "perf_tp": "perf record -e syscalls:sys_enter_read (per task, reference)",
    "kretprobe": "kretprobe event (r:)",
    "fprobe_exit": "fprobe exit event (f:...%return)",
    "bpftrace": "bpftrace kprobe+kretprobe hist",
    "funclatency": "BCC funclatency (kprobe+kretprobe hist)",
    "perf_latency": "perf ftrace latency",
    "hist_slow": "hist trigger on ftrace:function_duration, duration above every call",
}
UNIT = {"exact": "instructions", "wall": "ns (TCG)"}


def load(path):
    runs = defaultdict(list)   # (loop, config) -> [ns/iteration]
    cpi, nbytes, na, sets = {}, {}, {}, {}
    attach = {}                # (method, size) -> (attach ns, detach ns)
    order = defaultdict(list)  # loop -> configs in run order
    with open(path) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if p[0] == "run":
                loop, cfg = p[1], p[2]
                try:
                    runs[(loop, cfg)].append(float(p[4]))
                except (IndexError, ValueError):
                    # a run that gave no figure: left out, and the
                    # table says "no result" if no round gave one
                    na.setdefault((loop, cfg), "no result")
                    continue
                if cfg not in order[loop]:
                    order[loop].append(cfg)
            elif p[0] == "cpi":
                cpi[p[1]] = float(p[2])
            elif p[0] == "bytes":
                nbytes[(p[1], p[2])] = float(p[3])
            elif p[0] == "na":
                na[(p[1], p[2])] = p[3]
                if p[2] not in order[p[1]]:
                    order[p[1]].append(p[2])
            elif p[0] == "set":
                sets[p[1]] = p[3:]
            elif p[0] == "attach":
                attach[(p[1], p[2])] = (float(p[3]), float(p[4]))
    return runs, cpi, nbytes, na, sets, order, attach


def med(v):
    return statistics.median(v)


def spread(v):
    m = med(v)
    return (max(v) - min(v)) / m * 100 if m else 0


def per_call(loop, runs, cpi, order):
    """(median, min, max) of each configuration's cost per traced call:
    (traced - median untraced) / traced calls per iteration."""
    base = runs.get((loop, "none"))
    if not base or not cpi.get(loop):
        return {}
    c, b = cpi[loop], med(base)
    return {cfg: ((med(runs[(loop, cfg)]) - b) / c,
                  (min(runs[(loop, cfg)]) - b) / c,
                  (max(runs[(loop, cfg)]) - b) / c)
            for cfg in order[loop] if (loop, cfg) in runs and cfg != "none"}


def loop_table(loop, runs, cpi, nbytes, na, order, unit):
    pcr = per_call(loop, runs, cpi, order)
    if not pcr:
        return [], {}
    percall = {k: v[0] for k, v in pcr.items()}
    fg = percall.get("function_graph")
    floor = percall.get("fdur_floor")
    out = [
        f"| configuration | {unit}/iteration (median) | spread | {unit} per traced call |"
        " min-max | x function_graph | x floor | ring-buffer bytes/call |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    # what ran, in run order, then what could not run
    cfgs = [c for c in order[loop] if (loop, c) not in na]
    cfgs += [c for c in order[loop] if (loop, c) in na]
    for cfg in cfgs:
        label = LABELS.get(cfg, cfg)
        if (loop, cfg) in na:
            out.append(f"| {label} | {na[(loop, cfg)]} | | | | | | |")
            continue
        v = runs[(loop, cfg)]
        row = [label, f"{med(v):.0f}", f"{spread(v):.1f}%"]
        if cfg == "none":
            row += ["0", "", "", "", ""]
        else:
            pc = percall[cfg]
            row.append(f"{pc:.0f}")
            row.append(f"{pcr[cfg][1]:.0f}-{pcr[cfg][2]:.0f}")
            row.append(f"{pc / fg:.2f}" if fg and fg > 0 else "")
            row.append(f"{pc / floor:.2f}" if floor and floor > 0 else "")
            b = nbytes.get((loop, cfg))
            row.append(f"{b:.0f}" if b else "0")
        out.append("| " + " | ".join(row) + " |")
    return out, percall


def scale_table(runs, cpi):
    base = runs.get(("scale", "none"))
    if not base:
        return []
    sizes = ["1", "10", "100", "1000", "all"]
    cfgs = ["function", "function_graph", "fdur_0"]
    out = [
        f"Multi-process load (4 processes); it calls {int(cpi.get('scale', 0))}"
        " distinct functions. Slowdown = traced / untraced time, the most"
        " called functions first.",
        "",
        "| functions traced | " + " | ".join(LABELS[c] for c in cfgs) +
        " | function_duration / function_graph |",
        "|---:|" + "---:|" * (len(cfgs) + 1),
    ]
    for s in sizes:
        if ("scale-" + s, "function") not in runs:
            continue
        r = {c: med(runs[("scale-" + s, c)]) / med(base) for c in cfgs
             if ("scale-" + s, c) in runs}
        row = [s] + [f"{r[c]:.2f}x" if c in r else "" for c in cfgs]
        fg, fd = r.get("function_graph"), r.get("fdur_0")
        # the traced part only: (slowdown - 1) of each
        row.append(f"{(fd - 1) / (fg - 1):.2f}" if fg and fd and fg > 1 else "")
        out.append("| " + " | ".join(row) + " |")
    return out


ATTACH_LABELS = {
    "fdur_tracer": "function_duration tracer",
    "fdur_event": "ftrace:function_duration event",
    "kretprobe": "a kretprobe event per function",
    "fprobe_exit": "an fprobe exit event per function",
    "bpftrace": "bpftrace, a kretprobe per function",
}


def attach_table(attach, na, mode):
    """Time to start and to stop tracing a set of functions."""
    if not attach:
        return []
    sizes = sorted({z for _, z in attach} |
                   {k[1].split("/")[1] for k in na if k[0] == "attach" and "/" in k[1]},
                   key=lambda z: (z == "all", int(z) if z.isdigit() else 0))
    unit = "s (guest clock)" if mode == "exact" else "s"
    out = [f"Attach: from nothing to tracing (the function filter included);"
           f" detach: back to nothing. In {unit}.", "",
           "| method | " + " | ".join(f"{z}: attach / detach" for z in sizes) + " |",
           "|---|" + "---:|" * len(sizes)]
    for m, label in ATTACH_LABELS.items():
        cells = []
        for z in sizes:
            if (m, z) in attach:
                a, d = attach[(m, z)]
                cells.append(f"{a / 1e9:.3f} / {d / 1e9:.3f}")
            else:
                cells.append(na.get(("attach", f"{m}/{z}"), ""))
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    return out


def slow_table(runs):
    """Every function, only slow calls kept: slowdown of the multi load."""
    base = runs.get(("slow", "none"))
    if not base:
        return []
    out = ["The multi load with every function traced and only calls above"
           " 10 s kept (none is that slow). Slowdown = traced / untraced"
           " (median of the rounds; min-max).", "",
           "| configuration | slowdown | min-max |", "|---|---:|---:|"]
    b = med(base)
    for cfg in ("fdur_floor", "fg_thresh", "hist_slow", "function"):
        v = runs.get(("slow", cfg))
        if not v:
            continue
        out.append(f"| {LABELS.get(cfg, cfg)} | {med(v) / b:.2f}x |"
                   f" {min(v) / b:.2f}-{max(v) / b:.2f}x |")
    return out


def goals(pc, nbytes):
    """The goals of issue 14, read off the syscall loop."""
    def ratio(a, b, d=pc):
        if a in d and b in d and d[b] > 0:
            return d[a] / d[b]
        return None
    by = {cfg: b for (loop, cfg), b in nbytes.items() if loop == "syscall"}

    def best(*cfgs):
        have = [c for c in cfgs if c in pc and pc[c] > 0]
        return min(have, key=lambda c: pc[c]) if have else None

    peer = best("fprobe_exit", "kretprobe")
    bpf = best("bpftrace", "funclatency")
    rows = [
        ("function_duration <= 0.6x function_graph per call",
         ratio("fdur_0", "function_graph"), 0.6),
        (f"function_duration <= its closest peer ({LABELS.get(peer, 'fprobe exit or kretprobe')})",
         ratio("fdur_0", peer) if peer else None, 1.0),
        ("above-threshold floor <= 1.2x the empty fgraph user",
         ratio("fdur_floor", "fgraph_empty"), 1.2),
        (f"hist aggregation <= 0.5x the best BPF tool ({LABELS.get(bpf, 'none ran')})",
         ratio("hist_duration", bpf) if bpf else None, 0.5),
        ("perf path <= 1.5x the tracefs path (ftrace:function)",
         ratio("perf_function", "ev_function"), 1.5),
        ("perf path <= 1.5x the tracefs path (ftrace:function_graph)",
         ratio("perf_graph", "ev_graph"), 1.5),
        ("perf path <= 1.5x the tracefs path (ftrace:function_duration)",
         ratio("perf_duration", "ev_duration"), 1.5),
        ("(reference, not a goal: perf / tracefs on a static tracepoint)",
         ratio("perf_tp", "ev_tp"), None),
        ("ring-buffer bytes per call <= 0.6x function_graph's entry and return",
         ratio("fdur_0", "function_graph", by), 0.6),
    ]
    out = ["| goal (syscall loop) | measured | met |", "|---|---:|---|"]
    for name, r, lim in rows:
        if r is None:
            out.append(f"| {name} | not measured | - |")
        else:
            met = "-" if lim is None else "met" if r <= lim else "not met"
            out.append(f"| {name} | {r:.2f} | {met} |")
    return out


def boots_table(loads, loop):
    """How far the boots agree: each boot's per-call median, and the spread
    of those medians as (max - min) / median."""
    pcs = [{k: v[0] for k, v in per_call(loop, ld[0], ld[1], ld[5]).items()}
           for ld in loads]
    if len(pcs) < 2 or not pcs[0]:
        return []
    out = ["| configuration | " + " | ".join(f"boot {i + 1}" for i in range(len(pcs))) +
           " | spread |", "|---|" + "---:|" * (len(pcs) + 1)]
    for cfg in pcs[0]:
        v = [p[cfg] for p in pcs if cfg in p]
        if len(v) < len(pcs):
            continue
        out.append(f"| {LABELS.get(cfg, cfg)} | " + " | ".join(f"{x:.0f}" for x in v) +
                   f" | {spread(v):.1f}% |")
    return out


def write_plot_data(outdir, pcrs, order):
    """One row per configuration, three columns (median, min, max) per
    loop; '?' when absent."""
    loops = list(pcrs)
    cfgs = []
    for loop in loops:
        cfgs += [c for c in order[loop] if c in pcrs[loop] and c not in cfgs]
    dat = f"{outdir}/bench-plot.dat"
    with open(dat, "w") as f:
        for c in cfgs:
            vals = []
            for lp in loops:
                vals += ([f"{x:.1f}" for x in pcrs[lp][c]] if c in pcrs[lp]
                         else ["?", "?", "?"])
            f.write(f'"{c}" ' + " ".join(vals) + "\n")
    return dat, loops


def cpus_table(outdir, paths, unit):
    """The per-call cost of each path against the vCPU count (BENCH_CPUS)"""
    pairs = (("ev_function", "perf_function", "ftrace:function"),
             ("ev_graph", "perf_graph", "ftrace:function_graph"),
             ("ev_duration", "perf_duration", "ftrace:function_duration"),
             ("ev_tp", "perf_tp", "syscalls:sys_enter_read (reference)"))
    md = ["# tracefs and perf paths against the number of vCPUs", "",
          f"{unit} per traced call of ksys_read above the untraced loop"
          " (`perf record -a` for perf), median of the rounds; the ratio"
          " is perf / tracefs.", "",
          "| vCPUs | " + " | ".join(f"{e} tracefs | {e} perf | ratio"
                                    for _, _, e in pairs) + " |",
          "|---:|" + "---:|---:|---:|" * len(pairs)]
    for path in paths:
        runs, cpi, _, na, _, _, _ = load(path)
        ncpu = "?"
        logp = os.path.join(os.path.dirname(path), "bench.log")
        if os.path.exists(logp):
            m = re.search(r"(\d+) CPUs", open(logp).read())
            ncpu = m.group(1) if m else "?"
        c = cpi.get("syscall")
        base = runs.get(("syscall", "none"))
        row = [ncpu]
        for ev, pf, _ in pairs:
            a, b = runs.get(("syscall", ev)), runs.get(("syscall", pf))
            pa = (med(a) - med(base)) / c if a and base and c else None
            pb = (med(b) - med(base)) / c if b and base and c else None
            row += [f"{pa:.1f}" if pa is not None else "n/a",
                    f"{pb:.1f}" if pb is not None else
                    na.get(("syscall", pf), "n/a"),
                    f"{pb / pa:.2f}" if pa and pb else "n/a"]
        md.append("| " + " | ".join(row) + " |")
    out = os.path.join(outdir, "bench-cpus.md")
    with open(out, "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))


def main():
    args = sys.argv[1:]
    mode = "wall"
    if args[:1] == ["--mode"]:
        mode, args = args[1], args[2:]
    if args[:1] == ["--cpus"]:
        cpus_table(args[1], args[2:], UNIT.get(mode, "ns"))
        return
    if args and args[0].endswith(".tsv"):      # the old form: TSV OUTDIR
        args = [args[1], args[0]]
    outdir, paths = args[0], args[1:]
    unit = UNIT.get(mode, "ns")
    loads = [load(p) for p in paths]
    runs, cpi, nbytes, na, sets, order, attach = loads[0]
    if mode == "exact":
        note = ("Exact mode: QEMU -icount shift=0,sleep=off, the guest clock"
                " counts instructions, so every figure is instructions. They"
                " are the same on every host; they do not see cache misses or"
                " the cost of an atomic, which real hardware does.")
    else:
        note = ("Wall-clock mode: under TCG a traced call costs emulator"
                " time; only the ratios carry over to hardware.")
    md = ["# Function tracing overhead", "",
          f"{note} Figures from {paths[0]}"
          f"{f' (boot 1 of {len(paths)})' if len(paths) > 1 else ''}.", ""]
    pcs, pcrs = {}, {}
    for loop, title in (("syscall", "read(2) of one byte, ksys_read traced"),
                        ("depth", "the same read, ksys_read and its callees"
                         " three levels down traced")):
        if loop not in cpi:
            continue
        table, pc = loop_table(loop, runs, cpi, nbytes, na, order, unit)
        pcs[loop] = pc
        pcrs[loop] = per_call(loop, runs, cpi, order)
        fs = sets.get(loop, [])
        md += [f"## Loop `{loop}`: {title}", "",
               f"{len(fs)} functions, {cpi[loop]:.2f} traced calls per"
               f" iteration: {' '.join(fs[:40])}{' ...' if len(fs) > 40 else ''}",
               ""] + table + [""]
        bt = boots_table(loads, loop)
        if bt:
            md += [f"Boots agree ({unit} per traced call, loop `{loop}`):", ""] + bt + [""]
    st = scale_table(runs, cpi)
    if st:
        md += ["## Scale", ""] + st + [""]
    at = attach_table(attach, na, mode)
    if at:
        md += ["## Attach and detach time", ""] + at + [""]
    sl = slow_table(runs)
    if sl:
        md += ["## Every function, only slow calls kept", ""] + sl + [""]
    if "syscall" in pcs:
        md += ["## Goals", ""] + goals(pcs["syscall"], nbytes) + [""]
    text = "\n".join(md)
    with open(f"{outdir}/bench.md", "w") as f:
        f.write(text + "\n")
    print(text)

    if pcrs:
        dat, loops = write_plot_data(outdir, pcrs, order)
        plots = ", ".join(
            f"'{dat}' using {3 * i + 2}:{3 * i + 3}:{3 * i + 4}:xtic(1) title '{loop} loop'"
            for i, loop in enumerate(loops))
        gp = f"""set terminal png size 1400,700
set output '{outdir}/bench.png'
set title 'Cost per traced call ({unit}; bars: median, error bars: min-max)'
set style data histogram
set datafile missing '?'
set style histogram errorbars gap 1 lw 1
set style fill solid border -1
set xtics rotate by -35 noenhanced
set ylabel '{unit} per traced call'
set grid ytics
set key top left
plot {plots}
"""
        try:
            subprocess.run(["gnuplot"], input=gp, text=True, check=True)
        except (OSError, subprocess.CalledProcessError) as e:
            print(f"gnuplot failed: {e}", file=sys.stderr)


if __name__ == "__main__":
    main()
