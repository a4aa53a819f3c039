#!/usr/bin/env python3
"""Turn bench/guest.sh's raw figures into a markdown table and a bar chart.

    report.py BENCH_TSV OUTDIR

Writes OUTDIR/bench.md (also printed) and OUTDIR/bench.png (gnuplot).
Every figure is a ratio or a difference between runs of one boot: the
medians of the rounds, with the spread as (max - min) / median.
"""
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
    "hist_duration": "hist trigger on ftrace:function_duration",
    "perf_function": "perf record -e ftrace:function",
    "perf_graph": "perf record -e ftrace:function_graph",
    "perf_duration": "perf record -e ftrace:function_duration",
    "kretprobe": "kretprobe event (r:)",
    "fprobe_exit": "fprobe exit event (f:...%return)",
    "bpftrace": "bpftrace kprobe+kretprobe hist",
    "perf_latency": "perf ftrace latency",
}


def load(path):
    runs = defaultdict(list)   # (loop, config) -> [ns/iteration]
    cpi, nbytes, na, sets = {}, {}, {}, {}
    order = defaultdict(list)  # loop -> configs in run order
    with open(path) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if p[0] == "run":
                loop, cfg = p[1], p[2]
                runs[(loop, cfg)].append(float(p[4]))
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
    return runs, cpi, nbytes, na, sets, order


def med(v):
    return statistics.median(v)


def spread(v):
    m = med(v)
    return (max(v) - min(v)) / m * 100 if m else 0


def loop_table(loop, runs, cpi, nbytes, na, order):
    base = runs.get((loop, "none"))
    if not base:
        return [], {}
    c = cpi[loop]
    percall = {}
    for cfg in order[loop]:
        if (loop, cfg) in runs and cfg != "none":
            percall[cfg] = (med(runs[(loop, cfg)]) - med(base)) / c
    fg = percall.get("function_graph")
    floor = percall.get("fdur_floor")
    out = [
        "| configuration | ns/iteration (median) | spread | ns per traced call |"
        " x function_graph | x floor | ring-buffer bytes/call |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    # what ran, in run order, then what could not run
    cfgs = [c for c in order[loop] if (loop, c) not in na]
    cfgs += [c for c in order[loop] if (loop, c) in na]
    for cfg in cfgs:
        label = LABELS.get(cfg, cfg)
        if (loop, cfg) in na:
            out.append(f"| {label} | {na[(loop, cfg)]} | | | | | |")
            continue
        v = runs[(loop, cfg)]
        row = [label, f"{med(v):.0f}", f"{spread(v):.0f}%"]
        if cfg == "none":
            row += ["0", "", "", ""]
        else:
            pc = percall[cfg]
            row.append(f"{pc:.0f}")
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


def goals(pc):
    """The issue's goals, read off the syscall loop."""
    def ratio(a, b):
        if a in pc and b in pc and pc[b] > 0:
            return pc[a] / pc[b]
        return None

    rows = [
        ("function_duration <= 0.6x function_graph per call",
         ratio("fdur_0", "function_graph"), 0.6),
        ("above-threshold floor <= 1.2x the empty fgraph cost",
         ratio("fdur_floor", "fgraph_empty"), 1.2),
        ("perf path <= 1.5x the tracefs path (ftrace:function)",
         ratio("perf_function", "ev_function"), 1.5),
        ("perf path <= 1.5x the tracefs path (ftrace:function_duration)",
         ratio("perf_duration", "ev_duration"), 1.5),
        ("hist aggregation <= 0.5x bpftrace",
         ratio("hist_duration", "bpftrace"), 0.5),
    ]
    out = ["| goal (syscall loop) | measured | met |", "|---|---:|---|"]
    for name, r, lim in rows:
        if r is None:
            out.append(f"| {name} | not measured | - |")
        else:
            out.append(f"| {name} | {r:.2f} | {'yes' if r <= lim else 'no'} |")
    return out


def write_plot_data(outdir, pcs, order):
    """One row per configuration, one column per loop; '?' when absent."""
    loops = list(pcs)
    cfgs = []
    for loop in loops:
        cfgs += [c for c in order[loop] if c in pcs[loop] and c not in cfgs]
    dat = f"{outdir}/bench-plot.dat"
    with open(dat, "w") as f:
        for c in cfgs:
            vals = [f"{pcs[lp][c]:.1f}" if c in pcs[lp] else "?" for lp in loops]
            f.write(f'"{c}" ' + " ".join(vals) + "\n")
    return dat, loops


def main():
    path, outdir = sys.argv[1], sys.argv[2]
    runs, cpi, nbytes, na, sets, order = load(path)
    md = ["# Function tracing overhead", "",
          "Ratios measured in one boot. Under TCG a traced call costs "
          "emulator time; only the ratios carry over to hardware.", ""]
    pcs = {}
    for loop, title in (("syscall", "read(2) of one byte, ksys_read traced"),
                        ("depth", "the same read, ksys_read and its callees"
                         " three levels down traced")):
        if loop not in cpi:
            continue
        table, pc = loop_table(loop, runs, cpi, nbytes, na, order)
        pcs[loop] = pc
        fs = sets.get(loop, [])
        md += [f"## Loop `{loop}`: {title}", "",
               f"{len(fs)} functions, {cpi[loop]:.2f} traced calls per"
               f" iteration: {' '.join(fs[:40])}{' ...' if len(fs) > 40 else ''}",
               ""] + table + [""]
    st = scale_table(runs, cpi)
    if st:
        md += ["## Scale", ""] + st + [""]
    if "syscall" in pcs:
        md += ["## Goals", ""] + goals(pcs["syscall"]) + [""]
    text = "\n".join(md)
    with open(f"{outdir}/bench.md", "w") as f:
        f.write(text + "\n")
    print(text)

    if pcs:
        dat, loops = write_plot_data(outdir, pcs, order)
        plots = ", ".join(
            f"'{dat}' using {i + 2}:xtic(1) title '{loop} loop'"
            for i, loop in enumerate(loops))
        gp = f"""set terminal png size 1400,700
set output '{outdir}/bench.png'
set title 'Overhead per traced call (ns, TCG: compare ratios only)'
set style data histogram
set datafile missing '?'
set style histogram clustered gap 1
set style fill solid border -1
set xtics rotate by -35 noenhanced
set ylabel 'ns per traced call'
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
