#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make bench's report: bench-report.py RESULTS SIZES LOGDIR TITLE

RESULTS has one figure per line (pair, kernel, fs, metric, value, unit),
SIZES the object sizes; both are tab-separated with a header line.  Prints
the table and writes LOGDIR/bench.md, LOGDIR/bench.tsv (the same figures,
one metric per line, for gnuplot) and LOGDIR/bench.png.

For every metric: the median, min and max over the boots of each kernel
and the ratio of the medians, fsblock / stock.  A difference counts as
"beyond the spread" when the two kernels' ranges do not overlap; with
fewer than three boots of each kernel a range says nothing, and the
column says so.  ext2 is on buffer_heads in both kernels: its rows are the
control, whose ratios show the noise of the machine.
"fsblock-keep" figures are the block-state memory with
fsblock.keep_clean_blocks on; stock has no such switch, so they are
compared with stock's only figures.
"""
import csv
import os
import statistics
import subprocess
import sys

FSB, STOCK = "fast", "stock-fast"
HIGHER_IS_BETTER = {"MB/s", "MiB/s"}


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def main():
    results, sizes, logdir, title = sys.argv[1:5]
    rows = load(results)
    # (fs, metric) -> kernel -> [values]; keep the order of first appearance.
    figures, units, order = {}, {}, []
    for r in rows:
        key = (r["fs"], r["metric"])
        if key not in figures:
            figures[key] = {}
            order.append(key)
        figures[key].setdefault(r["kernel"], []).append(float(r["value"]))
        units[key] = r["unit"]
    pairs = len({r["pair"] for r in rows})

    table, plot = [], []
    for fs, metric in order:
        fsb = figures[(fs, metric)].get(FSB)
        base = metric[:-5] if metric.endswith("-keep") else metric
        stock = figures.get((fs, base), {}).get(STOCK)
        if not fsb or not stock:
            continue
        unit = units[(fs, metric)]
        higher = unit in HIGHER_IS_BETTER
        sm, fm = statistics.median(stock), statistics.median(fsb)
        ratio = fm / sm if sm else float("nan") if fm else 1.0
        if min(len(fsb), len(stock)) < 3:
            beyond = "n/a"
        else:
            beyond = "yes" if min(fsb) > max(stock) or max(fsb) < min(stock) else ""
        table.append((fs, metric, unit, stock, fsb, ratio, beyond, higher))
        if unit == "KiB/GiB":
            continue
        # A time of 0 (a step too quick for the clock) has no ratio: leave
        # it out of the plot rather than divide by it.
        if min(fsb) <= 0 or min(stock) <= 0:
            continue
        # For the plot: fsblock's speed relative to stock, > 1 is faster.
        if higher:
            rel, lo, hi = fm / sm, min(fsb) / max(stock), max(fsb) / min(stock)
        else:
            rel, lo, hi = sm / fm, min(stock) / max(fsb), max(stock) / min(fsb)
        label = f"{fs} (control)" if fs.startswith("ext2") else fs
        plot.append((f"{label} {metric}", rel, lo, hi))

    def num(x):
        return f"{x:.0f}" if abs(x) >= 1000 else f"{x:.3g}"

    def rng(v):
        return f"{num(statistics.median(v))} [{num(min(v))}–{num(max(v))}]"

    lines = [f"# make bench: {title}", "",
             f"Median [min–max] over {pairs} boots of each kernel; ratio = fsblock / stock "
             "of the medians; \"beyond\" = the two ranges do not overlap.", "",
             "| fs | metric | unit | better | stock | fsblock | ratio | beyond the spread |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for fs, metric, unit, stock, fsb, ratio, beyond, higher in table:
        label = f"{fs} (control)" if fs.startswith("ext2") else fs
        lines.append(f"| {label} | {metric} | {unit} | {'higher' if higher else 'lower'} | "
                     f"{rng(stock)} | {rng(fsb)} | {ratio:.2f} | {beyond} |")

    size_rows = load(sizes)
    if size_rows:
        lines += ["", "Code size (`size`, bytes, same configuration):", "",
                  "| kernel | object | text | data | bss |", "| --- | --- | --- | --- | --- |"]
        for r in size_rows:
            kern = "fsblock" if r["kernel"] == FSB else "stock"
            lines.append(f"| {kern} | {r['object']} | {r['text']} | {r['data']} | {r['bss']} |")
    md = "\n".join(lines) + "\n"
    with open(os.path.join(logdir, "bench.md"), "w") as f:
        f.write(md)
    print(md)

    dat = os.path.join(logdir, "bench.tsv")
    with open(dat, "w") as f:
        for i, (label, rel, lo, hi) in enumerate(plot):
            f.write(f"{i}\t\"{label}\"\t{rel:.4f}\t{lo:.4f}\t{hi:.4f}\n")
    png = os.path.join(logdir, "bench.png")
    script = f"""
set terminal pngcairo size {max(900, 20 * len(plot) + 250)},800 font ",9"
set output "{png}"
set title "fsblock speed relative to stock 6.12 (median; bars: min-max over the boots)\\n{title}"
set ylabel "fsblock / stock (> 1: fsblock faster; log scale)"
set logscale y 2
set xtics rotate by -60 left
set xrange [-1:{len(plot)}]
set bmargin 16
set rmargin 12
set grid ytics
set key off
plot "{dat}" using 1:3:4:5:xtic(2) with yerrorbars pt 7 ps 0.8 lc rgb "blue", 1 lc rgb "red"
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    print(f"plot: {png}")


if __name__ == "__main__":
    main()
