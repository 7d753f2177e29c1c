#!/usr/bin/python3
"""Counts the FUSE requests each step of fsbench's small-file steps sends to each peer, by opcode
(perf's fuse:fuse_request_send tracepoint, whole machine). Counts are exact whatever the machine's
load, so they show whether two file systems get the same work before their times are compared.

    /usr/bin/python3 frontend-fuse/bench/requests.py [--scale 0.1] [--steps extract,md5sum,lslr,rmrf]
        coffer=app/target/coffer securefs gocryptfs

Arguments as in ab.py (LABEL=LAUNCHER for a coffer build, a bare name for an fsbench peer). Run as
root; everything on /dev/shm.
"""
import sys, os, argparse, subprocess, collections, re, shutil
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "benchmarks", "fsbench"))
import fsbench as fb

ap = argparse.ArgumentParser()
ap.add_argument("--scale", type=float, default=0.1)
ap.add_argument("--steps", default="extract,md5sum,lslr,rmrf")
ap.add_argument("--work", default="/dev/shm/coffer-fuse-requests")
ap.add_argument("builds", nargs="+")
a = ap.parse_args()
os.makedirs(a.work, exist_ok=True)
tar = os.path.join(a.work, "tree-%s.tar" % a.scale)
if not os.path.exists(tar):
    fb.generate_tree(tar, a.scale, 30)

def commands(m):
    return {
        "extract": "tar xf '%s' -C '%s'" % (tar, m),
        "md5sum": "cd '%s' && find linux -type f -print0 | xargs -0 md5sum > /dev/null" % m,
        "lslr": "ls -lR '%s/linux' > /dev/null" % m,
        "rmrf": "rm -rf '%s/linux'" % m,
    }

LINE = re.compile(r"opcode \d+ \((\w+)\)")
def counted(cmd):
    data = os.path.join(a.work, "perf.data")
    fb.drop_caches()
    wall = fb.timed("perf record -q -a -e fuse:fuse_request_send -o '%s' -- sh -c \"%s\" 2>/dev/null" % (data, cmd.replace('"', '\\"')))
    out = subprocess.run(["perf", "script", "-i", data], capture_output=True, text=True).stdout
    return wall, collections.Counter(m.group(1).replace("FUSE_", "") for m in LINE.finditer(out))

results = {}
for spec in a.builds:
    if "=" in spec:
        label, launcher = spec.split("=", 1)
        peer = type("C_" + label, (fb.Coffer,), {"name": "coffer-" + label, "launcher": launcher})(a.work)
    else:
        label, peer = spec, fb.PEER_CLASSES[spec](a.work)
    peer.prepare()
    peer.mount()
    try:
        for step in a.steps.split(","):
            results[(label, step)] = counted(commands(peer.mnt)[step])
    finally:
        peer.unmount()
        shutil.rmtree(peer.base, ignore_errors=True)

for step in a.steps.split(","):
    ops = sorted({op for (l, s), (_, c) in results.items() if s == step for op in c})
    labels = [l for (l, s) in results if s == step]
    print("\n%s" % step)
    print("%-14s" % "opcode" + "".join("%12s" % l for l in labels))
    for op in ops + ["total"]:
        row = []
        for l in labels:
            c = results[(l, step)][1]
            row.append(sum(c.values()) if op == "total" else c.get(op, 0))
        print("%-14s" % op + "".join("%12d" % v for v in row))
    print("%-14s" % "wall s (perf on)" + "".join("%12.2f" % results[(l, step)][0] for l in labels))
