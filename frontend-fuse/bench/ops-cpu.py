#!/usr/bin/python3
"""Single file operations in a loop in one folder of a mount, N times each, in this order (or those
named): a stat of a missing name, create and close, open for writing and close, open for reading
and close, a stat, chmod, utime, unlink, create + write of 1,000 bytes + close. Prints wall time and
the CPU the file system's process (PID) used, per operation, in microseconds. ops-cpu.sh runs it.
With SPREAD=K in the environment the names are spread over K subfolders, one after another (as an
archive may hold its files: each in another folder), made before the timed loops.

    /usr/bin/python3 frontend-fuse/bench/ops-cpu.py FOLDER N PID LABEL [OP ...]
"""
import os, sys, time

def cpu_seconds(pid):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")

def missing(p):
    try:
        os.stat(p)
    except FileNotFoundError:
        pass

def write1(p):
    fd = os.open(p, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o644)
    os.write(fd, b"x" * 1000)
    os.close(fd)

OPS = {  # name: (operation on a path, the names it works on)
    "missing": (missing, "m"),
    "create": (lambda p: os.close(os.open(p, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o644)), "e"),
    "openw": (lambda p: os.close(os.open(p, os.O_WRONLY)), "e"),
    "openr": (lambda p: os.close(os.open(p, os.O_RDONLY)), "e"),
    "stat": (os.stat, "e"),
    "chmod": (lambda p: os.chmod(p, 0o600), "e"),
    "utime": (lambda p: os.utime(p, (1e9, 1e9)), "e"),
    "unlink": (os.unlink, "e"),
    "write1": (write1, "w"),
}

def main():
    d, n, pid, label = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    ops = sys.argv[5:] or list(OPS)
    if "unlink" in ops and "create" not in ops:
        sys.exit("unlink removes what create made: name both")
    spread = int(os.environ.get("SPREAD", "1"))
    folders = [d] if spread <= 1 else [os.path.join(d, "s%d" % k) for k in range(spread)]
    for f in folders:
        os.makedirs(f, exist_ok=True)
    for op in ops:
        fn, prefix = OPS[op]
        paths = [os.path.join(folders[i % len(folders)], prefix + str(i)) for i in range(n)]
        c0, t0 = cpu_seconds(pid), time.perf_counter()
        for p in paths:
            fn(p)
        wall, cpu = time.perf_counter() - t0, cpu_seconds(pid) - c0
        print("%-10s %-8s wall %6.1f us  server CPU %6.1f us" % (label, op, wall / n * 1e6, cpu / n * 1e6), flush=True)

if __name__ == "__main__":
    main()
