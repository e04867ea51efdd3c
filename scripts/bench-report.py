#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make bench's report: bench-report.py RESULTS SIZES LOGDIR TITLE

RESULTS has one figure per line (pair, kernel, fs, metric, value, unit),
SIZES the object sizes; both are tab-separated with a header line.  Prints
the table and writes LOGDIR/bench.md, LOGDIR/bench.tsv (the plotted
figures, one metric per line, for gnuplot) and LOGDIR/bench.png.

For every metric: the median, min and max over the boots of each kernel;
the ratio of the medians, fsblock / stock; and the ratios within each pair
of boots (the two kernels booted one after the other), their median and
range.  A difference counts as "beyond the spread" when the two kernels'
ranges do not overlap; that needs at least MIN_BOOTS boots of each kernel
(with five, two samples of one distribution fail to overlap 0.8% of the
time), and the column says n/a with fewer.  A ratio of figures that are
not positive (a step quicker than the clock, a memory difference lost in
the noise) is n/a.  "-keep" figures are the block-state memory with
fsblock.keep_clean_blocks on; stock has no such switch, so they are
compared with stock's only figures.  minix and ext2 are on fsblock in the
kernel with the series and on buffer_heads in stock.
"""
import csv
import os
import statistics
import subprocess
import sys

FSB, STOCK = "fast", "stock-fast"
HIGHER_IS_BETTER = {"MB/s", "MiB/s"}
MIN_BOOTS = 5


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def main():
    results, sizes, logdir, title = sys.argv[1:5]
    rows = load(results)
    # (fs, metric) -> kernel -> {pair: value}; keep the order of first appearance.
    figures, units, order = {}, {}, []
    for r in rows:
        key = (r["fs"], r["metric"])
        if key not in figures:
            figures[key] = {}
            order.append(key)
        per_pair = figures[key].setdefault(r["kernel"], {})
        if r["pair"] in per_pair:
            sys.exit(f"bench-report: {r['fs']} {r['metric']} twice in one boot of {r['kernel']}")
        per_pair[r["pair"]] = float(r["value"])
        units[key] = r["unit"]
    pairs = len({r["pair"] for r in rows})

    table, plot, alone = [], [], []
    for fs, metric in order:
        fsb_p = figures[(fs, metric)].get(FSB)
        base = metric[:-5] if metric.endswith("-keep") else metric
        stock_p = figures.get((fs, base), {}).get(STOCK)
        if not fsb_p or not stock_p:
            if not (metric != base and stock_p):
                alone.append((fs, metric, FSB if fsb_p else STOCK))
            continue
        fsb, stock = list(fsb_p.values()), list(stock_p.values())
        unit = units[(fs, metric)]
        higher = unit in HIGHER_IS_BETTER
        sm, fm = statistics.median(stock), statistics.median(fsb)
        ratio = fm / sm if sm > 0 and fm > 0 else None
        in_pair = [fsb_p[p] / stock_p[p] for p in fsb_p
                   if p in stock_p and fsb_p[p] > 0 and stock_p[p] > 0]
        if min(len(fsb), len(stock)) < MIN_BOOTS:
            beyond = "n/a"
        else:
            beyond = "yes" if min(fsb) > max(stock) or max(fsb) < min(stock) else ""
        table.append((fs, metric, unit, stock, fsb, ratio, in_pair, beyond, higher))
        if unit == "KiB/GiB" or ratio is None or not in_pair:
            continue
        # For the plot: fsblock's speed relative to stock, > 1 is faster;
        # the point is the ratio of the medians, the bar the range of the
        # ratios within the pairs.
        if higher:
            rel, lo, hi = ratio, min(in_pair), max(in_pair)
        else:
            rel, lo, hi = 1 / ratio, 1 / max(in_pair), 1 / min(in_pair)
        plot.append((f"{fs} {metric}", rel, lo, hi))

    def num(x):
        return f"{x:.0f}" if abs(x) >= 1000 else f"{x:.3g}"

    def rng(v):
        return f"{num(statistics.median(v))} [{num(min(v))}–{num(max(v))}]"

    lines = [f"# make bench: {title}", "",
             f"{pairs} pairs of boots. Per kernel: median [min–max] over its boots; ratio = "
             "fsblock / stock of the medians; in pairs = the ratios within each pair, median "
             f"[min–max]; \"beyond\" = the two kernels' ranges do not overlap (needs {MIN_BOOTS} "
             "boots of each). minix and ext2 are on fsblock with the series, on buffer_heads in stock.", "",
             "| fs | metric | unit | better | stock | fsblock | ratio | in pairs | beyond the spread |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for fs, metric, unit, stock, fsb, ratio, in_pair, beyond, higher in table:
        r = f"{ratio:.2f}" if ratio is not None else "n/a"
        ip = (f"{statistics.median(in_pair):.2f} [{min(in_pair):.2f}–{max(in_pair):.2f}]"
              if in_pair else "n/a")
        lines.append(f"| {fs} | {metric} | {unit} | {'higher' if higher else 'lower'} | "
                     f"{rng(stock)} | {rng(fsb)} | {r} | {ip} | {beyond} |")
    if alone:
        lines += ["", "Measured on one kernel only: " +
                  ", ".join(f"{fs} {m} ({k})" for fs, m, k in alone) + "."]

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
set title "fsblock speed relative to stock 6.12 (point: ratio of the medians; bar: range of the ratios within pairs)\\n{title}"
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
