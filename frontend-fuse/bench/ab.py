#!/usr/bin/python3
"""A/B comparison of Coffer builds (and fsbench peers) on fsbench's steps, interleaved round by round.

    /usr/bin/python3 frontend-fuse/bench/ab.py [--scale 0.25] [--rounds 3] [--stream-mib 1024]
        [--steps read,readwarm,extract,md5sum,md5warm,lslr,rmrf,create2000] [--env LABEL:VAR=VALUE]
        OLD=/path/to/old/coffer NEW=app/target/coffer [gocryptfs]

Each argument LABEL=LAUNCHER is a `coffer` launcher (copy a build's app/target somewhere to keep it);
a bare name is an fsbench peer. Rounds alternate the order of the builds. Steps as in fsbench
(benchmarks/README.md): write = the dd that makes the stream file for read (conv=fsync, as fsbench; only with read); read = unmount, mount, drop caches, dd it (a fresh
JVM); readwarm = drop caches and read it again in the same JVM; extract = tar xf; md5sum = unmount,
mount, drop caches, find | xargs md5sum (a fresh JVM); md5warm = the same again in the same JVM;
lslr, rmrf after dropping caches; create2000 = fsbench's 2,000 files (an `ls -l` every 100), in the
same mount after the other steps. Besides wall time, prints the CPU seconds of the mount's JVM (all
its threads, JIT compiler included) and of the client process (dd, tar, md5sum...), which vary much
less than wall time on a shared machine. Run as root (drop_caches, mounts); everything on /dev/shm.
"""
import sys, os, argparse, statistics, json, time, shutil
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "benchmarks", "fsbench"))
import fsbench as fb, resource
CUR = {}
def jvm_cpu():
    p = CUR.get("p")
    try:
        f = open("/proc/%d/stat" % getattr(p, "proc").pid).read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
    except Exception:
        return 0.0
def kid_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime
_timed = fb.timed
def timed(cmd):
    j0, k0 = jvm_cpu(), kid_cpu()
    w = _timed(cmd)
    CUR["cpu"] = (jvm_cpu() - j0, kid_cpu() - k0)
    return w

ap = argparse.ArgumentParser()
ap.add_argument("--scale", type=float, default=0.25)
ap.add_argument("--rounds", type=int, default=3)
ap.add_argument("--stream-mib", type=int, default=1024)
ap.add_argument("--steps", default="read,extract,md5sum,lslr,rmrf")
ap.add_argument("--work", default="/dev/shm/coffer-fuse-ab", help="tmpfs folder for the tree, vaults and mounts")
ap.add_argument("--env", action="append", default=[], help="LABEL:VAR=VALUE extra env for one build")
ap.add_argument("builds", nargs="+")
a = ap.parse_args()
steps = a.steps.split(",")
os.makedirs(a.work, exist_ok=True)
tar = os.path.join(a.work, "tree-%s.tar" % a.scale)
if not os.path.exists(tar):
    fb.generate_tree(tar, a.scale, 30)
peers = []
for spec in a.builds:
    if "=" not in spec:
        peers.append((spec, fb.PEER_CLASSES[spec](a.work)))
        continue
    label, launcher = spec.split("=", 1)
    cls = type("C_" + label, (fb.Coffer,), {"name": "coffer-" + label, "launcher": launcher})
    peers.append((label, cls(a.work)))
res = {l: {s: [] for s in steps} for l, _ in peers}
cpu = {l: {s: [] for s in steps} for l, _ in peers}
envs = {}
for e in a.env:
    l, kv = e.split(":", 1); k, v = kv.split("=", 1); envs.setdefault(l, {})[k] = v
for label, p in peers:
    p.prepare()
def withenv(label, fn):
    old = {k: os.environ.get(k) for k in envs.get(label, {})}
    os.environ.update(envs.get(label, {}))
    try: return fn()
    finally:
        for k, v in old.items():
            if v is None: os.environ.pop(k, None)
            else: os.environ[k] = v
for r in range(a.rounds):
    order = peers if r % 2 == 0 else list(reversed(peers))
    for label, p in order:
        def one():
            CUR["p"] = p
            p.mount()
            m = p.mnt
            try:
                if "read" in steps:
                    big = os.path.join(m, "stream.bin")
                    fb.drop_caches()
                    w = timed("dd if=/dev/zero of='%s' bs=128K count=%d conv=fsync status=none" % (big, a.stream_mib * 8))
                    if "write" in steps:
                        res[label]["write"].append(w); cpu[label]["write"].append(CUR["cpu"])
                    fb.cold(p)
                    res[label]["read"].append(timed("dd if='%s' of=/dev/null bs=128K status=none" % big)); cpu[label]["read"].append(CUR["cpu"])
                    if "readwarm" in steps:
                        fb.drop_caches()
                        res[label]["readwarm"].append(timed("dd if='%s' of=/dev/null bs=128K status=none" % big)); cpu[label]["readwarm"].append(CUR["cpu"])
                    os.remove(big)
                if "extract" in steps:
                    fb.drop_caches()
                    res[label]["extract"].append(timed("tar xf '%s' -C '%s'" % (tar, m))); cpu[label]["extract"].append(CUR["cpu"])
                if "md5sum" in steps:
                    fb.cold(p)
                    res[label]["md5sum"].append(timed("cd '%s' && find linux -type f -print0 | xargs -0 md5sum >/dev/null" % m)); cpu[label]["md5sum"].append(CUR["cpu"])
                if "md5warm" in steps:
                    fb.drop_caches()
                    res[label]["md5warm"].append(timed("cd '%s' && find linux -type f -print0 | xargs -0 md5sum >/dev/null" % m)); cpu[label]["md5warm"].append(CUR["cpu"])
                if "lslr" in steps:
                    fb.drop_caches()
                    res[label]["lslr"].append(timed("ls -lR '%s/linux' >/dev/null" % m)); cpu[label]["lslr"].append(CUR["cpu"])
                if "rmrf" in steps:
                    fb.drop_caches()
                    res[label]["rmrf"].append(timed("rm -rf '%s/linux'" % m)); cpu[label]["rmrf"].append(CUR["cpu"])
                if "create2000" in steps:
                    d = os.path.join(m, "many")
                    os.mkdir(d)
                    fb.drop_caches()
                    res[label]["create2000"].append(timed(
                        "cd '%s' && i=1; while [ $i -le 2000 ]; do : > f$i; "
                        "if [ $((i %% 100)) -eq 0 ]; then ls -l > /dev/null; fi; i=$((i + 1)); done" % d))
                    cpu[label]["create2000"].append(CUR["cpu"])
                    shutil.rmtree(d)
            finally:
                p.unmount()
        withenv(label, one)
        print("round %d %s %s load %s" % (r + 1, label, {s: round(v[-1], 3) for s, v in res[label].items() if v},
              open("/proc/loadavg").read().split()[0]), flush=True)
print("medians: wall s [jvm cpu s + client cpu s]")
base = peers[0][0]
for s in steps:
    line = "  %-8s" % s
    for label, _ in peers:
        m = statistics.median(res[label][s])
        line += "  %s %.3f [%.2f+%.2f]" % (label, m, statistics.median(c[0] for c in cpu[label][s]), statistics.median(c[1] for c in cpu[label][s]))
        if label != base:
            line += " (%.2fx)" % (m / statistics.median(res[base][s]))
    print(line)
json.dump({"wall": res, "cpu": cpu}, open(os.path.join(a.work, "ab-%d.json" % time.time()), "w"))
