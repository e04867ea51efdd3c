#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make bench-profile's report: bench-profile-report.py FSBLOG STOCKLOG OUT TITLE

FSBLOG and STOCKLOG are the consoles of one boot of the fast-prof and the
stock-fast-prof kernel (qemu-integration/bench/profile.sh).  Writes OUT, a
markdown report, and prints it:

- fsbtree's own times of create and unlink, without tracing;
- per operation, the functions whose inclusive CPU time (the function
  profiler's, callees included, sleep left out) differs most between the
  kernels, and those called most more often;
- the fsblock functions next to the buffer_head functions they replace;
- the growth of each slab cache per GiB of cached file data.

The profiler's own cost inflates every time under it, and more so on the
path that makes more calls; the times compare the kernels, they are not
what a workload costs without the profiler.  The times "without tracing"
come from the same kernels (compiled for ftrace, tracing off).  The idle
loop's functions are left out: their time is the CPUs' idle time.
"""
import statistics
import sys

# fsblock's function and the buffer_head-era function it stands for in
# minix: the metadata cache against the block device's buffers, the file
# data path against mpage and __block_write_begin.
COUNTERPARTS = [
    ("mblock_read", "__bread_gfp"),
    ("mblock_sync", "sync_dirty_buffer"),
    ("mblock_mark_dirty", "mark_buffer_dirty"),
    ("mblock_mark_dirty_inode", "mark_buffer_dirty_inode"),
    ("mblock_put", "__brelse"),
    # Directory chunks; stock's __block_write_begin and block_write_end
    # also serve its file writes (block_write_begin, generic_write_end).
    ("fsblock_prepare_chunk", "__block_write_begin"),
    ("fsblock_commit_chunk", "block_write_end"),
    ("fsblock_write_begin", "block_write_begin"),
    ("fsblock_write_end", "generic_write_end"),
    ("fsblock_writepages", "mpage_writepages"),
    # ext2's and minix's reads: mpage against fsblock's read path, each
    # filesystem's mapping call.
    ("fsblock_readahead", "mpage_readahead"),
    ("fsblock_read_folio", "mpage_read_folio"),
    ("ext2_map_block", "ext2_get_block"),
    ("minix_map_block", "minix_get_block"),
]
# Folio-level state changes and what they cost, the same on both sides.
SHARED = ["minix_write_inode", "sync_inode_metadata", "filemap_write_and_wait_range",
          "folio_clear_dirty_for_io", "__folio_start_writeback", "folio_end_writeback",
          "filemap_dirty_folio", "__mark_inode_dirty", "submit_bio", "__kmalloc_cache_noprof",
          "__kmalloc_noprof", "kfree", "kvfree_call_rcu", "__filemap_get_folio"]
IDLE = {"do_idle", "cpu_startup_entry", "start_secondary", "rest_init", "start_kernel",
        "x86_64_start_kernel", "x86_64_start_reservations", "common_startup_64",
        "secondary_startup_64", "schedule_idle", "pv_native_safe_halt", "native_safe_halt"}


def is_idle(name):
    return name in IDLE or "idle" in name
TOP = 25


def parse(path):
    times, prof, slab = {}, {}, {}
    with open(path, errors="replace") as f:
        for line in f:
            w = line.replace("\r", "").split()
            if not w:
                continue
            if w[0] == "FSB-TIME" and len(w) == 4:
                times.setdefault((w[1], w[2]), []).append(float(w[3]))
            elif w[0] == "FSB-PROF" and len(w) == 6 and not is_idle(w[3]):
                prof.setdefault((w[1], w[2]), {})[w[3]] = (int(w[4]), float(w[5]))
            elif w[0] == "FSB-SLAB" and len(w) == 7:
                slab.setdefault((w[1], w[2]), []).append((w[3], int(w[4]), int(w[5]), int(w[6])))
    return times, prof, slab


def fmt_ms(us):
    return "%.1f" % (us / 1000.0)


def fmt_avg(h, us):
    return "%.2f" % (us / h) if h else "-"


def cell(p, name):
    if name not in p:
        return ["-", "-", "-"]
    h, us = p[name]
    return [str(h), fmt_ms(us), fmt_avg(h, us)]


def spread(values):
    if not values:
        return "-"
    return "%g [%g-%g]" % (statistics.median(values), min(values), max(values))


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def main():
    fsb_log, stock_log, out_path, title = sys.argv[1:5]
    ft, fp, fs = parse(fsb_log)
    st, sp, ss = parse(stock_log)
    if not fp or not sp:
        sys.exit("no profile in %s" % (fsb_log if not fp else stock_log))
    if set(fp) != set(sp) or set(ft) - set(st) != {k for k in ft if k[1].endswith("-keep")}:
        sys.exit("the two boots profiled or timed different operations: %s against %s"
                 % (sorted(set(fp) | set(ft)), sorted(set(sp) | set(st))))
    out = ["# make bench-profile: %s" % title, "",
           "One boot of each kernel; fsblock = fast-prof (the series), stock = "
           "stock-fast-prof (6.12).", ""]

    out += ["## fsbtree's times, without tracing (s)", "",
            "The median [min-max] of the rounds of one boot; \"-keep\": with "
            "fsblock.keep_clean_blocks on, against stock's only figures.", ""]
    rows = []
    for key in sorted(set(ft) | set(st)):
        # "-keep": fsblock.keep_clean_blocks on, against stock's only figures.
        a, b = st.get((key[0], key[1].removesuffix("-keep"))), ft.get(key)
        ratio = "%.2f" % (statistics.median(b) / statistics.median(a)) \
            if a and b and statistics.median(a) > 0 else "n/a"
        rows.append([key[0], key[1], spread(a), spread(b), ratio])
    out += table(["fs", "op", "stock", "fsblock", "ratio of medians"], rows) + [""]

    head = ["function", "stock calls", "stock ms", "stock us/call",
            "fsblock calls", "fsblock ms", "fsblock us/call", "difference ms"]
    for key in sorted(set(fp) & set(sp)):
        a, b = sp[key], fp[key]
        names = set(a) | set(b)

        def delta_us(n):
            return b.get(n, (0, 0.0))[1] - a.get(n, (0, 0.0))[1]

        def delta_hits(n):
            return b.get(n, (0, 0.0))[0] - a.get(n, (0, 0.0))[0]

        out += ["## %s %s: the largest differences in inclusive CPU time" % key, "",
                "Every function called in either kernel; one not called in a "
                "kernel shows -, and counts as 0 in the difference.", ""]
        by_time = sorted(names, key=lambda n: -abs(delta_us(n)))[:TOP]
        out += table(head, [[n] + cell(a, n) + cell(b, n) + [fmt_ms(delta_us(n))]
                            for n in by_time]) + [""]
        out += ["## %s %s: called most more often with fsblock" % key, ""]
        by_hits = sorted(names, key=lambda n: -delta_hits(n))[:15]
        out += table(head, [[n] + cell(a, n) + cell(b, n) + [fmt_ms(delta_us(n))]
                            for n in by_hits]) + [""]
        out += ["## %s %s: counterparts and shared functions" % key, ""]
        rows = []
        for f, s in COUNTERPARTS:
            if f in b or s in a:
                rows.append(["%s / %s" % (f, s)] + cell(a, s) + cell(b, f) +
                            [fmt_ms(b.get(f, (0, 0.0))[1] - a.get(s, (0, 0.0))[1])])
        for n in SHARED:
            if n in a or n in b:
                rows.append([n] + cell(a, n) + cell(b, n) + [fmt_ms(delta_us(n))])
        out += table(["fsblock / stock function"] + head[1:], rows) + [""]

    out += ["## Slab growth per GiB of cached file data", "",
            "Caches that grew or shrank by more than 64 KiB; objects and KiB per "
            "GiB of the files.", ""]
    rows = []
    for key in sorted(set(fs) | set(ss)):
        for kname, src in (("stock", ss), ("fsblock", fs)):
            for cache, size, objs, nbytes in sorted(src.get(key, []), key=lambda r: -r[3]):
                rows.append([key[0], key[1], kname, cache, str(size), str(objs),
                             "%d" % (nbytes // 1024)])
            total = sum(r[3] for r in src.get(key, []))
            rows.append([key[0], key[1], kname, "**all listed**", "", "",
                         "**%d**" % (total // 1024)])
    out += table(["fs", "stage", "kernel", "cache", "object bytes", "objects/GiB",
                  "KiB/GiB"], rows) + [""]

    text = "\n".join(out)
    with open(out_path, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
