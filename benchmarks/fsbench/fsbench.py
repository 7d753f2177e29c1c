#!/usr/bin/python3
"""File-system benchmark: Coffer's FUSE mount against gocryptfs, cryfs, encfs, securefs and a plain
tmpfs, each with its ciphertext folder on a tmpfs. Standard library only; the chart needs matplotlib.

Usage (as root, so that caches can be dropped and mounts made):
    /usr/bin/python3 benchmarks/fsbench/fsbench.py [--scale 0.1] [--reps 3] [--peers coffer,gocryptfs,...]

See benchmarks/README.md ("File-system benchmark").
"""
import argparse
import datetime
import io
import json
import os
import platform
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PASSPHRASE = "fsbench-passphrase-123"
ALL_PEERS = ["tmpfs", "coffer", "coffer-webdav", "gocryptfs", "cryfs", "encfs", "securefs"]

STEPS = [
    # key, label, unit
    ("write", "streaming write", "s"),
    ("read", "streaming read", "s"),
    ("extract", "tar xf", "s"),
    ("md5sum", "md5sum all files", "s"),
    ("lslr", "ls -lR", "s"),
    ("rmrf", "rm -rf", "s"),
    ("create2000", "2,000 files, ls -l per 100", "s"),
]
SPACE = [
    ("empty", "empty file"),
    ("one", "1-byte file"),
    ("million", "1,000,000-byte file"),
    ("tree", "extracted tree"),
]

NOTES = []


def note(msg):
    if msg not in NOTES:
        NOTES.append(msg)
    print("note:", msg, file=sys.stderr)


def log(msg):
    print(time.strftime("%H:%M:%S"), msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# The synthetic source tree


WORDS = ("static int struct void unsigned long char return if else for while switch case break "
         "const define include endif ifdef sizeof NULL err dev data size len ret buf page lock "
         "spin_lock mutex kmalloc kfree printk KERN_ERR u32 u64 __init __exit module_init").split()
DIRWORDS = ("arch drivers fs net kernel mm include sound crypto block lib security scripts tools "
            "usb scsi net gpu drm video media input pci acpi char misc staging i2c spi mtd ata "
            "x86 arm mips powerpc sparc ext4 btrfs xfs nfs cifs ipv4 ipv6 core platform").split()


def make_corpus(rng, size):
    """Pseudo-random C-like text (compresses roughly like source code)."""
    out = []
    n = 0
    while n < size:
        line = "\t" * rng.randrange(0, 3) + " ".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 10)))
        line += rng.choice([";", " {", "", "(x);", " = 0;"]) + "\n"
        out.append(line)
        n += len(line)
    return "".join(out).encode()[:size]


def file_size(rng):
    """Sizes like linux-3.0's: most .c/.h files 1-30 KiB, a tail of large ones, some tiny; mean
    about 11.6 KiB, so 36,000 files make ~400 MiB."""
    r = rng.random()
    if r < 0.08:
        return rng.randrange(0, 1024)
    if r < 0.927:
        return int(min(30 * 1024, max(1024, rng.lognormvariate(8.6, 0.8))))
    if r < 0.997:
        return rng.randrange(30 * 1024, 80 * 1024)
    return rng.randrange(80 * 1024, 1024 * 1024)


def generate_tree(path, scale, seed):
    nfiles = max(1, round(36000 * scale))
    ndirs = max(1, round(2200 * scale))
    rng = random.Random(seed)
    corpus = make_corpus(rng, 4 << 20)
    dirs = ["linux"]
    depth = {"linux": 0}
    while len(dirs) < ndirs:
        parent = rng.choice(dirs)
        if depth[parent] >= 7:
            continue
        d = "%s/%s%s" % (parent, rng.choice(DIRWORDS), "" if rng.random() < 0.5 else str(rng.randrange(100)))
        if d in depth:
            continue
        depth[d] = depth[parent] + 1
        dirs.append(d)
    total = 0
    tmp = path + ".tmp"
    with tarfile.open(tmp, "w", format=tarfile.GNU_FORMAT) as tar:
        for d in dirs:
            ti = tarfile.TarInfo(d)
            ti.type = tarfile.DIRTYPE
            ti.mode = 0o755
            ti.mtime = 1310000000
            tar.addfile(ti)
        used = set()
        for i in range(nfiles):
            d = rng.choice(dirs)
            while True:
                name = "%s/%s_%s%d%s" % (d, rng.choice(WORDS).strip("_"), rng.choice(DIRWORDS),
                                         rng.randrange(1000), rng.choice([".c", ".c", ".h", ".h", ".S", "", ".txt"]))
                if name not in used:
                    used.add(name)
                    break
            size = file_size(rng)
            off = rng.randrange(0, len(corpus) - 1)
            data = (corpus[off:] + corpus)[:size] if size > len(corpus) - off else corpus[off:off + size]
            while len(data) < size:
                data += corpus[:size - len(data)]
            ti = tarfile.TarInfo(name)
            ti.size = size
            ti.mode = 0o644
            ti.mtime = 1310000000
            tar.addfile(ti, io.BytesIO(data))
            total += size
    os.rename(tmp, path)
    return {"files": nfiles, "dirs": ndirs, "bytes": total}


# ---------------------------------------------------------------------------------------------
# Helpers


def run(cmd, check=True, **kw):
    if isinstance(cmd, str):
        kw.setdefault("shell", True)
    return subprocess.run(cmd, check=check, **kw)


def timed(cmd):
    t0 = time.monotonic()
    subprocess.run(cmd, shell=True, check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - t0


def drop_caches():
    try:
        os.sync()
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
    except OSError as e:
        note("caches could not be dropped (%s); reads may come from the page cache" % e)


def du_bytes(path):
    """Apparent size of everything under path, in bytes (du -sb)."""
    out = subprocess.run(["du", "-sb", path], check=True, capture_output=True, text=True).stdout
    return int(out.split()[0])


def is_mounted(path):
    path = os.path.realpath(path)
    with open("/proc/self/mounts") as f:
        return any(line.split()[1] == path for line in f)


def wait_mounted(path, timeout=60, proc=None):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if is_mounted(path):
            return
        if proc is not None and proc.poll() is not None:
            raise RuntimeError("mount process exited with %s" % proc.returncode)
        time.sleep(0.05)
    raise RuntimeError("%s not mounted after %d s" % (path, timeout))


def fuse_unmount(path):
    if not is_mounted(path):
        return
    if run(["fusermount3", "-u", path], check=False, stderr=subprocess.DEVNULL).returncode != 0:
        if run(["fusermount", "-u", path], check=False, stderr=subprocess.DEVNULL).returncode != 0:
            time.sleep(1)
            if run(["fusermount3", "-u", "-z", path], check=False).returncode != 0:
                run(["umount", "-l", path], check=False)


def version(cmd, lines=1):
    """The first `lines` lines a version command prints, joined with "; ", or "?"."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        if p.returncode != 0:
            return "?"
        out = [line.strip() for line in (p.stdout + p.stderr).strip().splitlines() if line.strip()]
        return "; ".join(out[:lines]) if out else "?"
    except (OSError, subprocess.TimeoutExpired):
        return "?"


def deb_version(pkg):
    p = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", pkg], capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else None


# ---------------------------------------------------------------------------------------------
# Peers: set up a ciphertext folder on a tmpfs, mount it, unmount it


class Peer:
    name = "?"

    def __init__(self, base):
        self.base = os.path.join(base, self.name)
        self.cipher = os.path.join(self.base, "cipher")
        self.mnt = os.path.join(self.base, "mnt")
        self.passfile = os.path.join(self.base, "pass")

    def prepare(self):
        if os.path.exists(self.base):
            shutil.rmtree(self.base)
        os.makedirs(self.cipher)
        os.makedirs(self.mnt)
        with open(self.passfile, "w") as f:
            f.write(PASSPHRASE + "\n")
        os.chmod(self.passfile, 0o600)
        self.create()

    def create(self):
        pass

    def mount(self):
        raise NotImplementedError

    def unmount(self):
        fuse_unmount(self.mnt)

    def available(self):
        return True

    def version(self):
        return ""


class Tmpfs(Peer):
    name = "tmpfs"

    def prepare(self):
        super().prepare()
        self.mnt = self.cipher   # plain folder on /dev/shm: what is written is what is stored

    def mount(self):
        pass

    def unmount(self):
        pass

    def version(self):
        return "kernel " + platform.release()


class Coffer(Peer):
    name = "coffer"
    launcher = os.path.join(REPO, "app", "target", "coffer")

    def available(self):
        return os.access(self.launcher, os.X_OK)

    def create(self):
        os.rmdir(self.cipher)
        run([self.launcher, "create", self.cipher, "--scrypt-n", "16384", "--passphrase-file", self.passfile],
            stdout=subprocess.DEVNULL)

    def mount(self):
        self.proc = subprocess.Popen([self.launcher, "mount", self.cipher, self.mnt, "--passphrase-file",
                                      self.passfile], stdout=subprocess.PIPE, text=True, start_new_session=True)
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("coffer mount exited with %s" % self.proc.wait())
        wait_mounted(self.mnt, proc=self.proc)

    def unmount(self):
        p = getattr(self, "proc", None)
        if p is not None and p.poll() is None:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(60)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.proc = None
        if not os.path.isdir(self.mnt):
            os.makedirs(self.mnt)
        fuse_unmount(self.mnt)

    def version(self):
        # Its second line names the Java the launcher runs ($JAVA_HOME's, else the PATH's).
        return version([self.launcher, "--version"], lines=2)


class CofferWebdav(Coffer):
    """The same vault served by `coffer serve` on loopback and mounted with davfs2 (as root).

    davfs2 keeps whole files in a local cache and uploads a file when it is closed. Its cache stays
    where davfs2 keeps it for root mounts (/var/cache/davfs2): mount.davfs refuses a cache folder
    elsewhere. So this column, unlike the others, also writes every file once to that disk cache.
    """
    name = "coffer-webdav"

    def available(self):
        return super().available() and shutil.which("mount.davfs") is not None and os.geteuid() == 0

    def mount(self):
        self.proc = subprocess.Popen([self.launcher, "serve", self.cipher, "--passphrase-file", self.passfile],
                                     stdout=subprocess.PIPE, text=True, start_new_session=True)
        url = self.proc.stdout.readline().strip()
        if not url:
            raise RuntimeError("coffer serve exited with %s" % self.proc.wait())
        conf = os.path.join(self.base, "davfs2.conf")
        with open(conf, "w") as f:
            f.write("ask_auth 0\nuse_locks 1\ndelay_upload 0\nbuf_size 64\n")
        run(["mount", "-t", "davfs", "-o", "conf=" + conf, url, self.mnt], stdout=subprocess.DEVNULL)
        wait_mounted(self.mnt)

    def unmount(self):
        if is_mounted(self.mnt):
            run(["umount", self.mnt], check=False)   # umount.davfs waits for pending uploads
        super().unmount()

    def version(self):
        return super().version() + "; davfs2 " + (deb_version("davfs2") or "?")


class Gocryptfs(Peer):
    name = "gocryptfs"

    def available(self):
        return shutil.which("gocryptfs") is not None

    def create(self):
        run(["gocryptfs", "-init", "-q", "-passfile", self.passfile, self.cipher], stdout=subprocess.DEVNULL)

    def mount(self):
        run(["gocryptfs", "-q", "-nosyslog", "-passfile", self.passfile, self.cipher, self.mnt])
        wait_mounted(self.mnt)

    def version(self):
        return "gocryptfs " + (deb_version("gocryptfs") or "?")


class Cryfs(Peer):
    name = "cryfs"
    env = dict(os.environ, CRYFS_FRONTEND="noninteractive", CRYFS_NO_UPDATE_CHECK="1")

    def available(self):
        return shutil.which("cryfs") is not None

    def create(self):
        self.mount()     # the first mount creates the file system
        self.unmount()

    def mount(self):
        run(["cryfs", "--allow-replaced-filesystem", self.cipher, self.mnt], input=PASSPHRASE + "\n", text=True, env=self.env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_mounted(self.mnt)

    def version(self):
        return "cryfs " + (deb_version("cryfs") or "?")


class Encfs(Peer):
    name = "encfs"

    def available(self):
        return shutil.which("encfs") is not None

    def create(self):
        self.mount()     # --standard creates the volume on the first mount
        self.unmount()

    def mount(self):
        run(["encfs", "--standard", "--extpass", "cat " + self.passfile, self.cipher, self.mnt],
            stdout=subprocess.DEVNULL)
        wait_mounted(self.mnt)

    def version(self):
        return "encfs " + (deb_version("encfs") or "?")


class Securefs(Peer):
    name = "securefs"

    def available(self):
        return shutil.which("securefs") is not None

    def create(self):
        run(["securefs", "create", "--pass", PASSPHRASE, self.cipher], stdout=subprocess.DEVNULL)

    def mount(self):
        run(["securefs", "mount", "-b", "--pass", PASSPHRASE, self.cipher, self.mnt],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_mounted(self.mnt)

    def version(self):
        return "securefs " + (deb_version("securefs") or "?")


PEER_CLASSES = {c.name: c for c in (Tmpfs, Coffer, CofferWebdav, Gocryptfs, Cryfs, Encfs, Securefs)}


# ---------------------------------------------------------------------------------------------
# One repetition on one mounted peer


def one_rep(peer, tar_path, stream_mib, space):
    m = peer.mnt
    r = {}
    big = os.path.join(m, "stream.bin")
    drop_caches()
    r["write"] = timed("dd if=/dev/zero of='%s' bs=128K count=%d conv=fsync status=none" % (big, stream_mib * 8))
    cold(peer)
    r["read"] = timed("dd if='%s' of=/dev/null bs=128K status=none" % big)
    os.remove(big)

    before = settled_du(peer)
    drop_caches()
    r["extract"] = timed("tar xf '%s' -C '%s'" % (tar_path, m))
    space["tree"].append(settled_du(peer) - before)
    drop_caches()
    r["md5sum"] = timed("cd '%s' && find linux -type f -print0 | xargs -0 md5sum" % m)
    drop_caches()
    r["lslr"] = timed("ls -lR '%s/linux'" % m)
    drop_caches()
    r["rmrf"] = timed("rm -rf '%s/linux'" % m)

    d = os.path.join(m, "many")
    os.mkdir(d)
    drop_caches()
    r["create2000"] = timed(
        "cd '%s' && i=1; while [ $i -le 2000 ]; do : > f$i; "
        "if [ $((i %% 100)) -eq 0 ]; then ls -l > /dev/null; fi; i=$((i + 1)); done" % d)
    shutil.rmtree(d)
    return r


def measure_space(peer):
    """Ciphertext bytes (du -sb) that one new file adds, for three sizes."""
    out = {}
    for key, size in (("empty", 0), ("one", 1), ("million", 1000000)):
        before = settled_du(peer)
        p = os.path.join(peer.mnt, "space-%s" % key)
        with open(p, "wb") as f:
            f.write(random.Random(size).randbytes(size))
        out[key] = settled_du(peer) - before
        os.remove(p)
    return out


def settled_du(peer):
    """du -sb of the ciphertext folder once the peer has written everything out: unmount (a daemon
    with its own cache, like cryfs, writes it out then), wait until the size stops changing, mount."""
    peer.unmount()
    os.sync()
    last = du_bytes(peer.cipher)
    for _ in range(120):
        time.sleep(0.25)
        now = du_bytes(peer.cipher)
        if now == last:
            break
        last = now
    peer.mount()
    return last


def cold(peer):
    """Untimed: unmount and mount again (empties the file system's own caches), drop the kernel's."""
    settled_du(peer)
    drop_caches()


def bench_peer(peer, tar_path, reps, stream_mib):
    log("%s: creating" % peer.name)
    peer.prepare()
    reps_out = []
    space = {"tree": []}
    try:
        peer.mount()
        space.update(measure_space(peer))
        for i in range(reps):
            log("%s: repetition %d/%d" % (peer.name, i + 1, reps))
            reps_out.append(one_rep(peer, tar_path, stream_mib, space))
            log("%s: %s" % (peer.name, {k: round(v, 2) for k, v in reps_out[-1].items()}))
    finally:
        peer.unmount()
    space["tree"] = statistics.median(space["tree"]) if space["tree"] else None
    return {"reps": reps_out, "space": space}


# ---------------------------------------------------------------------------------------------
# Output


def fmt_s(v):
    return "%.2f" % v if v < 10 else "%.1f" % v


def fmt_bytes(v):
    if v is None:
        return "-"
    return "{:,}".format(int(v))


def render(results, meta, outdir):
    peers = [p for p in meta["peers"] if p in results and "error" not in results[p]]
    med = {p: {k: statistics.median(r[k] for r in results[p]["reps"]) for k, _, _ in STEPS} for p in peers}
    ref = "gocryptfs" if "gocryptfs" in med else None
    lines = []
    lines.append("Seconds, median of %d repetitions (whole-process wall time); in brackets the ratio to "
                 "gocryptfs (below 1 = faster than gocryptfs). Lower is better." % meta["reps"])
    lines.append("")
    head = "| step | " + " | ".join(peers) + " |"
    lines.append(head)
    lines.append("|---|" + "---:|" * len(peers))
    for k, label, _ in STEPS:
        if k in ("write", "read"):
            label = "%s %d MiB, 128 KiB blocks" % (label, meta["stream_mib"])
        cells = []
        for p in peers:
            v = med[p][k]
            c = fmt_s(v)
            if k in ("write", "read"):
                c += " (%.0f MiB/s)" % (meta["stream_mib"] / v)
            if ref and p != ref:
                c += " [%.2f]" % (v / med[ref][k])
            cells.append(c)
        lines.append("| %s | %s |" % (label, " | ".join(cells)))
    lines.append("")
    lines.append("Ciphertext bytes stored (increase of `du -sb` of the ciphertext folder):")
    lines.append("")
    lines.append("| file | " + " | ".join(peers) + " |")
    lines.append("|---|" + "---:|" * len(peers))
    for k, label in SPACE:
        cells = []
        for p in peers:
            v = results[p]["space"].get(k)
            c = fmt_bytes(v)
            if k == "tree" and v is not None:
                c += " (%.2fx)" % (v / meta["tree"]["bytes"])
            cells.append(c)
        if k == "tree":
            label = "extracted tree (%s bytes of content)" % fmt_bytes(meta["tree"]["bytes"])
        lines.append("| %s | %s |" % (label, " | ".join(cells)))
    failed = [p for p in meta["peers"] if p in results and "error" in results[p]]
    for p in failed:
        lines.append("")
        lines.append("%s failed: %s" % (p, results[p]["error"]))
    table = "\n".join(lines) + "\n"
    with open(os.path.join(outdir, "table.md"), "w") as f:
        f.write(table)
    chart(med, peers, ref, meta, os.path.join(outdir, "chart.png"))
    return table


def chart(med, peers, ref, meta, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        note("matplotlib missing: no chart (apt-get install python3-matplotlib)")
        return
    if not ref:
        note("no gocryptfs figures: the chart needs them as the reference")
        return
    fig, ax = plt.subplots(figsize=(11, 5))
    n = len(peers)
    width = 0.8 / n
    for i, p in enumerate(peers):
        ys = [med[p][k] / med[ref][k] for k, _, _ in STEPS]
        xs = [j + (i - (n - 1) / 2) * width for j in range(len(STEPS))]
        bars = ax.bar(xs, ys, width, label=p)
        for x, y in zip(xs, ys):
            ax.text(x, y, "%.2g" % y, ha="center", va="bottom", fontsize=6, rotation=90)
    ax.set_xticks(range(len(STEPS)))
    ax.set_xticklabels([label for _, label, _ in STEPS], fontsize=8)
    ax.set_yscale("log")
    ax.axhline(1, color="grey", linewidth=0.8)
    ax.set_ylabel("time / gocryptfs time (log scale, lower is faster)")
    ax.set_title("Coffer FUSE and peers, ciphertext on tmpfs, median of %d (tree scale %g, %d MiB stream)"
                 % (meta["reps"], meta["scale"], meta["stream_mib"]), fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def machine():
    model = "?"
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except OSError:
        pass
    mem = "?"
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                mem = "%.0f GiB" % (int(line.split()[1]) / 1048576)
    return {"cpus": os.cpu_count(), "model": model, "memory": mem, "kernel": platform.release(),
            "fuse3": deb_version("fuse3"), "libfuse2": deb_version("libfuse2")}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=float, default=1.0, help="tree size (1 = ~36,000 files, ~400 MiB)")
    ap.add_argument("--seed", type=int, default=30, help="seed of the synthetic tree")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--stream-mib", type=int, default=1024, help="size of the streaming write/read")
    ap.add_argument("--peers", default=",".join(p for p in ALL_PEERS if p != "coffer-webdav"),
                    help="comma-separated, from " + ",".join(ALL_PEERS) + " (default: all but coffer-webdav, "
                    "whose one repetition takes as long as all the others together)")
    ap.add_argument("--coffer-launcher", default=Coffer.launcher,
                    help="the coffer command to measure (default: the source build's app/target/coffer; "
                    "an installed package's is /opt/coffer/bin/Coffer)")
    ap.add_argument("--work", default="/dev/shm/coffer-fsbench", help="tmpfs folder for tree, vaults, mounts")
    ap.add_argument("--out", default=os.path.join(HERE, "results"), help="where table.md, chart.png, results.json go")
    args = ap.parse_args()

    Coffer.launcher = os.path.abspath(args.coffer_launcher)  # coffer-webdav's too: it extends Coffer
    peers = [p.strip() for p in args.peers.split(",") if p.strip()]
    for p in peers:
        if p not in PEER_CLASSES:
            ap.error("unknown peer %s" % p)
    os.makedirs(args.work, exist_ok=True)
    os.makedirs(args.out, exist_ok=True)
    if os.geteuid() != 0:
        note("not root: caches are not dropped")

    tar_path = os.path.join(args.work, "tree-v2-scale%g-seed%d.tar" % (args.scale, args.seed))
    info_path = tar_path + ".json"
    if os.path.exists(tar_path) and os.path.exists(info_path):
        with open(info_path) as f:
            tree = json.load(f)
    else:
        log("generating the tree (scale %g)" % args.scale)
        tree = generate_tree(tar_path, args.scale, args.seed)
        with open(info_path, "w") as f:
            json.dump(tree, f)
    log("tree: %(files)d files, %(dirs)d folders, %(bytes)d bytes" % tree)

    meta = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "scale": args.scale, "seed": args.seed, "reps": args.reps, "stream_mib": args.stream_mib,
            "tree": tree, "peers": peers, "machine": machine(), "versions": {}, "notes": NOTES}
    results = {}
    objs = []
    t_all = time.monotonic()
    try:
        for name in peers:
            peer = PEER_CLASSES[name](args.work)
            objs.append(peer)
            if not peer.available():
                note("%s is not installed: skipped" % name)
                continue
            meta["versions"][name] = peer.version()
            try:
                results[name] = bench_peer(peer, tar_path, args.reps, args.stream_mib)
            except Exception as e:  # noqa: BLE001 - one peer failing must not lose the others
                log("%s failed: %s" % (name, e))
                results[name] = {"error": str(e)}
    finally:
        for peer in objs:
            try:
                peer.unmount()
            except Exception as e:  # noqa: BLE001
                log("unmounting %s: %s" % (peer.mnt, e))
    meta["seconds"] = round(time.monotonic() - t_all)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"meta": meta, "results": results}, f, indent=1)
    table = render(results, meta, args.out)
    print(table)
    for n in NOTES:
        print("note:", n)


if __name__ == "__main__":
    main()
