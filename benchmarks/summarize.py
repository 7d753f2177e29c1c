#!/usr/bin/env python3
"""Turns JMH JSON results (-rf json) into the Markdown tables of README.md.

usage: python3 benchmarks/summarize.py benchmarks/results/*.json

Per benchmark: the median of the measurement iterations, JMH's mean with its 99.9% error, and the
figure converted to what the README compares (MiB/s, GB/s, us per file, s). If the unit-cryptor and
file-channel results are both given, also the file-channel/cryptor ratios (the 70% target).
"""
import json
import sys

MIB = 1024 * 1024


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def short(name):
    return name.replace("dev.coffer.benchmarks.", "")


def derive(b, value):
    """The converted figure for a score `value` of benchmark record `b`, as (number, unit) or None."""
    name = short(b["benchmark"])
    params = b.get("params", {})
    if name.startswith("XtsBenchmark."):
        size = int(params["unitSize"])
        return value * size / MIB, "MiB/s"
    if name.startswith("UnitCryptorBenchmark."):
        return value * 4096 / MIB, "MiB/s"
    if name.startswith("FileChannelBenchmark.seq"):
        return 256 / (value / 1000), "MiB/s"
    if name.startswith("FileChannelBenchmark.random"):
        return value * 4096 / MIB, "MiB/s"
    if name.startswith("XtsPartsBenchmark."):
        return 4096 / value, "GB/s"
    if name.startswith("ListingBenchmark."):
        return value * 1000 / int(params["count"]), "us/file"
    if name.startswith("UnlockBenchmark."):
        return value / 1000, "s"
    return None


def fmt(x):
    if x >= 1e6:
        return f"{x:,.0f}"
    if x >= 100:
        return f"{x:,.1f}"
    if x >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


def rows(records):
    out = ["| Benchmark | Params | Median | Mean ± 99.9% error | Converted (median) | Alloc/op |",
           "|---|---|---:|---:|---:|---:|"]
    for b in records:
        pm = b["primaryMetric"]
        raw = [x for fork in pm["rawData"] for x in fork]
        med = median(raw)
        unit = pm["scoreUnit"]
        params = ", ".join(f"{k}={v}" for k, v in b.get("params", {}).items())
        err = pm.get("scoreError")
        err_s = "" if err is None or err != err else f" ± {fmt(err)}"
        d = derive(b, med)
        conv = f"{fmt(d[0])} {d[1]}" if d else ""
        alloc = b.get("secondaryMetrics", {}).get("gc.alloc.rate.norm")
        alloc_s = f"{fmt(alloc['score'])} B" if alloc else ""
        out.append(f"| {short(b['benchmark'])} | {params} | {fmt(med)} {unit} | "
                   f"{fmt(pm['score'])}{err_s} {unit} | {conv} | {alloc_s} |")
    return out


def ratios(records):
    by = {}
    for b in records:
        pm = b["primaryMetric"]
        raw = [x for fork in pm["rawData"] for x in fork]
        d = derive(b, median(raw))
        if d:
            key = (short(b["benchmark"]), tuple(sorted(b.get("params", {}).items())))
            by[key] = d[0]
    out = []
    for mode in ("SIV_XTSHMAC", "SIV_XTS"):
        for op, cop in (("seqWrite", "encrypt"), ("seqRead", "decrypt")):
            ch = by.get((f"FileChannelBenchmark.{op}", (("target", mode),)))
            cr = by.get((f"UnitCryptorBenchmark.{cop}", (("mode", mode),)))
            if ch and cr:
                out.append(f"| {mode} | {op} vs {cop} | {fmt(ch)} MiB/s | {fmt(cr)} MiB/s | {100 * ch / cr:.0f}% |")
    if out:
        out = ["| Mode | Compared | Vault FileChannel | Cryptor alone | Ratio (target >= 70%) |",
               "|---|---|---:|---:|---:|"] + out
    return out


def main(paths):
    records = []
    for p in paths:
        with open(p) as f:
            records.extend(json.load(f))
    print("\n".join(rows(records)))
    r = ratios(records)
    if r:
        print()
        print("\n".join(r))


if __name__ == "__main__":
    main(sys.argv[1:])
