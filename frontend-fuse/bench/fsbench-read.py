#!/usr/bin/python3
"""fsbench's streaming read alone, for Coffer builds and peers in interleaved rounds: each peer writes
the 1 GiB file once, then every round unmounts and mounts it again, drops the caches and reads the file
with `dd bs=128K`, exactly as fsbench's read step does (its own peer classes and steps). Run as root.

    /usr/bin/python3 frontend-fuse/bench/fsbench-read.py ROUNDS NAME=LAUNCHER... [gocryptfs] [securefs]

NAME=LAUNCHER is a Coffer build (a copy of app/target, its `coffer` script); gocryptfs and securefs
are the Debian packages. Prints each round's seconds and the medians.
"""
import os
import shutil
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "benchmarks", "fsbench"))
import fsbench as fb  # noqa: E402

PEERS = {"gocryptfs": fb.Gocryptfs, "securefs": fb.Securefs}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rounds = int(sys.argv[1])
    specs = [a.split("=", 1) if "=" in a else (a, None) for a in sys.argv[2:]]
    peers = {}
    try:
        for name, launcher in specs:
            base = "/dev/shm/fsbench-read-" + name
            shutil.rmtree(base, ignore_errors=True)
            os.makedirs(base)
            if launcher is None:
                peer = PEERS[name](base)
            else:
                peer = fb.Coffer(base)
                peer.launcher = os.path.abspath(launcher)
            peer.prepare()
            peer.mount()
            peers[name] = peer
            fb.timed("dd if=/dev/zero of='%s' bs=128K count=8192 conv=fsync status=none"
                     % os.path.join(peer.mnt, "stream.bin"))
        times = {name: [] for name in peers}
        for r in range(rounds):
            for name, peer in peers.items():
                fb.cold(peer)
                times[name].append(fb.timed("dd if='%s' of=/dev/null bs=128K status=none"
                                            % os.path.join(peer.mnt, "stream.bin")))
            print(r, {n: round(t[-1], 3) for n, t in times.items()}, flush=True)
        print("median", {n: round(statistics.median(t), 3) for n, t in times.items()})
    finally:
        for peer in peers.values():
            peer.unmount()
            shutil.rmtree(os.path.dirname(peer.base), ignore_errors=True)


if __name__ == "__main__":
    main()
