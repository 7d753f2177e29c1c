#!/usr/bin/python3
"""Single file operations in a loop, in one folder of a mounted file system: microseconds per
operation (a stat of a missing name, create and close of a new file, open for writing and close,
open for reading and close, chmod, unlink; each N times, in that order).

    /usr/bin/python3 frontend-fuse/bench/small-ops.py FOLDER N LABEL

FOLDER is made if missing; run it once first on a fresh mount to let the JIT settle. Mount coffer
and a peer side by side and alternate (frontend-fuse/bench/small-ops.sh does that).
"""
import os, sys, time

def main():
    d, n, tag = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    os.makedirs(d, exist_ok=True)
    names = [os.path.join(d, "c%d" % i) for i in range(n)]

    def timed(label, fn):
        s = time.perf_counter()
        fn()
        print("%-10s %-22s %6.1f us/op" % (tag, label, (time.perf_counter() - s) / n * 1e6), flush=True)

    def missing():
        for i in range(n):
            try:
                os.stat(os.path.join(d, "missing%d" % i))
            except FileNotFoundError:
                pass

    def opened(flags):
        def run():
            for p in names:
                os.close(os.open(p, flags, 0o644))
        return run

    timed("stat missing", missing)
    timed("create+close", opened(os.O_CREAT | os.O_WRONLY | os.O_TRUNC))
    timed("open w+close", opened(os.O_WRONLY))
    timed("open r+close", opened(os.O_RDONLY))
    timed("chmod", lambda: [os.chmod(p, 0o600) for p in names])
    timed("unlink", lambda: [os.unlink(p) for p in names])

if __name__ == "__main__":
    main()
