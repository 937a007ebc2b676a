#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot a sweep's results.json with gnuplot, as PNG and SVG.

  plot.py RESULTS.json OUTDIR

dmaengine sweeps, for each prep mode (prep_memcpy, prep_memcpy_sg,
prep_memcpy_vec, cpu)
and sg entry count (and depth and buffers, when the sweep varies them:
-dN, -distinct, -reuse in the names):
  throughput-MODE[-sgeN]   GB/s against folio size, a line per channel
                           count, error bars: SD over the runs
  phases-MODE[-sgeN]       time in prep, submit, issue_pending, wait, map
                           and unmap (the cpu mode: copy; memcpy_vec:
                           convert, the dma_vec arrays' part of prep, and
                           the rest of prep) stacked, per
                           channel (the table's sums over channels /
                           channels), a bar per cell, and the wall time of
                           a run (run_ms) as a dot
  throughput-both[-sgeN]   the DMA forms together, when the sweep has two
                           or three: prep_memcpy (solid), prep_memcpy_sg
                           (dashed), prep_memcpy_vec (dotted)
  throughput-modes-chN[-sgeN]  GB/s against folio size at N channels, a
                           line per prep mode, the CPU copy included: where
                           the offload beats the CPU
migrate sweeps (sweep.py --migrate), shaped like the mail's table:
  migrate-throughput       move_pages() GB/s against folio size, a line per
                           prep mode and channel count (colour: channels,
                           dash: mode), the CPU copy (the offload off) a
                           thick black reference line
  migrate-throughput-chN   the same at N channels, a line per prep mode,
                           the cpu row included
map sweeps, for each map mode:
  map-latency-MODE         map (solid) and unmap (dashed) latency in us
                           against granule / sg entries, a line per
                           thread count; with the tool's --sync also
                           sync_cpu and sync_device (dotted)
Failed cells are left out (a gap). OUTDIR/data/ keeps the gnuplot data
and scripts. Needs gnuplot (gnuplot-nox): pngcairo if it has it, else
png. See Documentation/sweeps.rst.
"""

import argparse
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from report import results  # noqa: E402

WIDTH, HEIGHT = 1000, 620
# the phases of a prep mode's bars and their colours; memcpy_vec: its prep
# split in the conversion and the rest
DMA_PHASES = (("prep_ms", "#1f77b4"), ("submit_ms", "#ff7f0e"),
              ("issue_ms", "#2ca02c"), ("wait_ms", "#d62728"),
              ("map_ms", "#9467bd"), ("unmap_ms", "#8c564b"))
PHASES = {"cpu": (("copy_ms", "#7f7f7f"),),
          "prep_memcpy_vec": (("convert_ms", "#17becf"),
                              ("prep_rest_ms", "#1f77b4")) + DMA_PHASES[1:]}


def terminals(gnuplot, want="auto"):
    """(png terminal line, svg terminal line) this gnuplot supports."""
    p = subprocess.run([gnuplot, "-e", "set terminal"], capture_output=True,
                       text=True)
    names = {ln.split()[0] for ln in (p.stdout + p.stderr).splitlines()
             if ln.strip() and not ln.startswith(" " * 20)}
    if want != "auto":
        names.discard("pngcairo" if want == "png" else "png")
    size = f"size {WIDTH},{HEIGHT}"
    line = {"pngcairo": f"pngcairo {size} enhanced font 'Sans,11' noenhanced",
            "png": f"png {size} font 'Sans' 11 noenhanced",
            "svg": f"svg {size} dynamic font 'Sans,11' noenhanced"}
    return (next((line[t] for t in ("pngcairo", "png") if t in names), None),
            line["svg"] if "svg" in names else None)


def plural(n, what):
    return f"{n} {what}{'s' if n > 1 else ''}"


def gp_quote(s):
    return "'" + str(s).replace("'", "''") + "'"


def subtitle(res):
    s = res.get("system", {})
    vm = (res.get("params") or {}).get("vm")
    where = f" (VM {vm['machine']}/{vm['dma_config']})" if vm else ""
    label = f"{res['label']}: " if res.get("label") else ""
    return f"{label}kernel {s.get('kernel') or '?'}{where}, {res.get('date', '')[:10]}"


def phase_mean(row, name):
    """A phase's mean; 0 for a figure the row lacks (a format 1 file, a
    tool from before memcpy_vec). prep_rest_ms: prep_ms less convert_ms."""
    def mean(fig):
        return (row.get(fig) or {"mean": 0})["mean"]
    if name == "prep_rest_ms":
        return max(0.0, mean("prep_ms") - mean("convert_ms"))
    return mean(name)


class Plotter:
    def __init__(self, res, outdir, gnuplot, png_terminal="auto"):
        self.res = res
        self.outdir = os.path.abspath(outdir)
        self.data = os.path.join(self.outdir, "data")
        os.makedirs(self.data, exist_ok=True)
        self.gnuplot = gnuplot
        self.png, self.svg = terminals(gnuplot, png_terminal)
        if not self.png and not self.svg:
            raise RuntimeError("gnuplot has neither a png nor an svg terminal")
        self.made = []

    def write(self, name, text):
        path = os.path.join(self.data, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def data_file(self, name, heading, rows):
        """A gnuplot data file: '#' and the column names, then a line a row
        (its label, then its values), in data/; its name quoted."""
        self.write(name, "# " + " ".join(heading) + "\n" + "".join(
            " ".join([str(label)] + [f"{v:.6f}" for v in vals]) + "\n"
            for label, vals in rows))
        return gp_quote(name)

    def render(self, stem, title, settings, plots):
        """A plot under TITLE (and the results' subtitle), after the gnuplot
        commands SETTINGS; drawn once per format."""
        body = "\n".join([f"set title {gp_quote(title)} . \"\\n\" . "
                          f"{gp_quote(subtitle(self.res))}"] + settings +
                         ["plot " + ", \\\n     ".join(plots)])
        outs = []
        script = ["set encoding utf8", "set termoption noenhanced"]
        for term, ext in ((self.png, "png"), (self.svg, "svg")):
            if not term:
                continue
            out = os.path.join(self.outdir, f"{stem}.{ext}")
            script += [f"set terminal {term}", f"set output {gp_quote(out)}",
                       body, "unset output"]
            outs.append(out)
        gp = self.write(f"{stem}.gp", "\n".join(script) + "\n")
        p = subprocess.run([self.gnuplot, gp], capture_output=True, text=True,
                           cwd=self.data)
        if p.returncode != 0:
            raise RuntimeError(f"gnuplot {gp} failed:\n{p.stderr.strip()}")
        self.made += outs

    # --- dmaengine -------------------------------------------------------

    def dmaengine(self):
        rows = [r for r in self.res["rows"] if r["status"] == "ok"]
        modes = [m for m in results.PREP_MODES if any(r["prep_mode"] == m for r in rows)]
        # a set of plots per sg entry count, depth and buffers
        def group(r):
            return (r["sge"], results.field(r, "depth"),
                    results.field(r, "buffers"))
        groups = sorted({group(r) for r in rows})
        vary = [len({g[i] for g in groups}) > 1 for i in range(3)]
        for sge, depth, bufs in groups:
            suffix = (f"-sge{sge}" if vary[0] else "") + \
                (f"-d{depth}" if vary[1] else "") + (f"-{bufs}" if vary[2] else "")
            grp = [r for r in rows if group(r) == (sge, depth, bufs)]
            of = {m: [r for r in grp if r["prep_mode"] == m] for m in modes}
            for mode, sel in of.items():
                if sel:
                    self.throughput(f"throughput-{mode}{suffix}", {mode: sel}, sge)
                    self.phases(f"phases-{mode}{suffix}", mode, sel, sge)
            dma = {m: sel for m, sel in of.items() if m in results.DMA_MODES}
            if len(dma) > 1:
                self.throughput(f"throughput-both{suffix}", dma, sge)
            if len(modes) > 1:
                for ch in sorted({r["channels"] for r in grp}):
                    by_mode = {m: [r for r in sel if r["channels"] == ch]
                               for m, sel in of.items()}
                    by_mode = {m: sel for m, sel in by_mode.items() if sel}
                    if len(by_mode) > 1:
                        self.throughput(f"throughput-modes-ch{ch}{suffix}",
                                        by_mode, sge, per_mode=True)

    # --- migrate -----------------------------------------------------------

    def migrate(self):
        rows = [r for r in self.res["rows"] if r["status"] == "ok"]
        modes = [m for m in results.PREP_MODES
                 if any(r["prep_mode"] == m for r in rows)]
        dma = {m: [r for r in rows if r["prep_mode"] == m]
               for m in modes if m != "cpu"}
        # the CPU copy does not depend on --channels: one reference line,
        # the cpu rows of the smallest channel count
        cpu = [r for r in rows if r["prep_mode"] == "cpu"]
        if cpu:
            least = min(r["channels"] for r in cpu)
            cpu = [r for r in cpu if r["channels"] == least]
        what = "move_pages() throughput"
        self.throughput("migrate-throughput", dma, None, heading=what,
                        reference=cpu)
        for ch in sorted({r["channels"] for r in rows}):
            by_mode = {m: [r for r in rows if r["prep_mode"] == m and
                           r["channels"] == ch] for m in modes}
            by_mode = {m: sel for m, sel in by_mode.items() if sel}
            if by_mode:
                self.throughput(f"migrate-throughput-ch{ch}", by_mode, None,
                                per_mode=True, heading=what)

    def throughput(self, stem, by_mode, sge, per_mode=False, heading=None,
                   reference=None):
        """GB/s against folio size: a line per channel count (and mode), or
        with per_mode (one channel count) a line per mode, in its colour;
        REFERENCE rows a thick black line (the CPU copy). HEADING: what is
        plotted, else the batches of SGE folios'."""
        orders = sorted({r["folio_order"] for sel in by_mode.values() for r in sel})
        sizes = {r["folio_order"]: r["folio_bytes"] for sel in by_mode.values() for r in sel}
        plots = []
        for mi, (mode, sel) in enumerate(by_mode.items()):
            for ci, ch in enumerate(sorted({r["channels"] for r in sel})):
                d = self.data_file(
                    f"{stem}-{mode}-c{ch}.dat",
                    ("folio_order", "gbps_mean", "gbps_stddev"),
                    sorted((r["folio_order"], (r["gbps"]["mean"], r["gbps"]["stddev"]))
                           for r in sel if r["channels"] == ch))
                title = plural(ch, "channel")
                if per_mode:
                    title = mode
                elif len(by_mode) > 1:
                    title = f"{mode}, {title}"
                lc, dt = (mi + 1, 1) if per_mode else (ci + 1, mi + 1)
                plots.append(f"{d} using 1:2:3 "
                             f"with yerrorlines lc {lc} dt {dt} lw 2 pt {ci + mi + 5} "
                             f"title {gp_quote(title)}")
        if reference:
            sizes.update({r["folio_order"]: r["folio_bytes"] for r in reference})
            orders = sorted(set(orders) | set(sizes))
            d = self.data_file(
                f"{stem}-reference.dat",
                ("folio_order", "gbps_mean", "gbps_stddev"),
                sorted((r["folio_order"], (r["gbps"]["mean"], r["gbps"]["stddev"]))
                       for r in reference))
            plots.append(f"{d} using 1:2:3 with yerrorlines lc rgb 'black' "
                         f"dt 1 lw 4 pt 7 title {gp_quote('cpu (offload off)')}")
        xtics = ", ".join(f"{gp_quote(results.format_size(sizes[o]))} {o}" for o in orders)
        what = " vs ".join(by_mode) if len(by_mode) > 1 else \
            next(iter(by_mode), "cpu")
        if per_mode:
            ch = next(iter(by_mode.values()))[0]["channels"]
            what += f", {plural(ch, 'channel')}"
        tail = heading or f"throughput, batches of {sge} folios"
        self.render(stem, f"{what}: {tail}", [
            "set xlabel 'folio size'", "set ylabel 'GB/s (10^9 bytes/s), mean ± SD'",
            f"set xtics ({xtics})",
            f"set xrange [{orders[0] - 0.5}:{orders[-1] + 0.5}]",
            "set yrange [0:*]", "set grid ytics", "set key outside right top",
            "set bars small"], plots)

    def phases(self, stem, mode, sel, sge):
        names, colors = zip(*PHASES.get(mode, DMA_PHASES))
        sel = sorted(sel, key=lambda r: (r["channels"], r["folio_order"]))
        d = self.data_file(f"{stem}.dat", ("label",) + names + ("run_ms",), [
            (f"\"{r['channels']}ch {results.format_size(r['folio_bytes'])}\"",
             [phase_mean(r, p) / (r.get("chan") or r["channels"]) for p in names]
             + [r["run_ms"]["mean"]]) for r in sel])
        plots = [f"{d} using {i + 2}:xtic(1) title {gp_quote(p[:-3])} lc rgb {gp_quote(c)}"
                 for i, (p, c) in enumerate(zip(names, colors))]
        plots.append(f"{d} using ($0):{len(names) + 2} with points pt 7 ps 1.2 lc rgb 'black' "
                     "title 'run (wall time)'")
        rotate = ("set xtics rotate by -45 nomirror\nset bmargin 6" if len(sel) > 6
                  else "set xtics nomirror")
        self.render(stem, f"{mode}: time by phase per channel (sum over "
                    f"channels / channels), batches of {sge} folios", [
            "set style data histograms", "set style histogram rowstacked",
            "set style fill solid 0.85 border -1", "set boxwidth 0.75",
            "set ylabel 'ms per run and channel (mean over runs)'",
            "set xlabel 'channels, folio size'",
            rotate, "set yrange [0:*]", "set grid ytics", "set key outside right top"],
            plots)

    # --- map ---------------------------------------------------------------

    def map(self):
        rows = [r for r in self.res["rows"] if r["status"] == "ok"]
        for mode in results.MAP_MODES:
            sel = [r for r in rows if r["mode"] == mode]
            if sel:
                self.map_latency(f"map-latency-{mode}", mode, sel)

    def map_latency(self, stem, mode, sel):
        plots = []
        granules = sorted({r["granule"] for r in sel})
        # map solid, unmap dashed, the syncs (the tool's --sync) dotted
        ops = [op for op in results.MAP_OPS
               if all(r.get(op + "_us") for r in sel)]
        style = {"map": (1, 7), "unmap": (2, 6), "sync_cpu": (3, 5),
                 "sync_device": (4, 4)}
        for ti, t in enumerate(sorted({r["threads"] for r in sel})):
            d = self.data_file(
                f"{stem}-t{t}.dat", ["granule"] + [f"{op}_{s}" for op in ops
                                                   for s in ("mean", "stddev")],
                sorted((r["granule"], [r[op + "_us"][s] for op in ops
                                       for s in ("mean", "stddev")])
                       for r in sel if r["threads"] == t))
            th = plural(t, "thread")
            for oi, op in enumerate(ops):
                dt, pt = style[op]
                plots.append(f"{d} using 1:{2 * oi + 2}:{2 * oi + 3} with yerrorlines "
                             f"lc {ti + 1} dt {dt} lw 2 pt {pt} "
                             f"title {gp_quote(op + ', ' + th)}")
        what = "sg entries (one page each)" if mode == "sg" else "granule (pages)"
        api = "dma_map_sg()" if mode == "sg" else "dma_map_single()"
        self.render(stem, f"{mode} mode: {api} latency", [
            f"set xlabel {gp_quote(what)}",
            "set ylabel 'latency, us (mean over runs ± SD)'",
            "set logscale x 2", "set logscale y 10",
            f"set xtics ({', '.join(f'{gp_quote(g)} {g}' for g in granules)})",
            f"set xrange [{granules[0] / 1.5}:{granules[-1] * 1.5}]",
            "set grid xtics ytics mytics", "set key outside right top",
            "set bars small"], plots)


def main(argv=None):
    p = argparse.ArgumentParser(prog="plot.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n".join(__doc__.split("\n\n")[1:]))
    p.add_argument("results", metavar="RESULTS.json",
                   help="results.json of scripts/sweep.py (or its directory)")
    p.add_argument("outdir", metavar="OUTDIR")
    p.add_argument("--gnuplot", default="gnuplot", help="the gnuplot to run")
    p.add_argument("--png-terminal", choices=("auto", "pngcairo", "png"),
                   default="auto", help="gnuplot's PNG terminal: pngcairo "
                   "(antialiased) when there is one, else png (libgd) "
                   "[%(default)s]")
    a = p.parse_args(argv)
    path = results.results_path(a.results)
    gnuplot = shutil.which(a.gnuplot)
    if not gnuplot:
        print("plot.py: gnuplot not found: apt-get install gnuplot-nox "
              "(scripts/setup.sh bench)", file=sys.stderr)
        return 1
    try:
        res = results.load(path)
        os.makedirs(a.outdir, exist_ok=True)
        pl = Plotter(res, a.outdir, gnuplot, a.png_terminal)
        if not any(r["status"] == "ok" for r in res["rows"]):
            print("plot.py: no cell succeeded: nothing to plot", file=sys.stderr)
            return 1
        {"map": pl.map, "migrate": pl.migrate}.get(res.get("kind"),
                                                   pl.dmaengine)()
    except (OSError, ValueError, RuntimeError) as e:
        print(f"plot.py: {e}", file=sys.stderr)
        return 1
    for f in pl.made:
        print(f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
