#!/usr/bin/python3
"""Tallies the call stacks of a perf recording (profile.sh, profile-step.sh) for one group of threads.

    perf script -i OUT/step.data -F comm,ip,sym,dso > stacks.txt
    /usr/bin/python3 frontend-fuse/bench/perf-stacks.py below 'AttributeOps.getattr' coffer-fuse < stacks.txt
    /usr/bin/python3 frontend-fuse/bench/perf-stacks.py leaves '' coffer-fuse < stacks.txt

below FRAME THREADS [DEPTH]: of the samples of threads whose name starts with THREADS, the share with
FRAME (a substring) on the stack, and how that share splits over the frames FRAME called (inclusive:
what each callee and everything below it cost). leaves FRAME THREADS: of the samples with FRAME on the
stack ('' for all), where the CPU was (kernel, JIT-compiled Java, libjvm, ...) and the hottest leaf
frames. JIT frames are named only if the JVM wrote /tmp/perf-<pid>.map (-XX:+DumpPerfMapAtExit).
"""
import sys, re, collections

def samples(lines):
    comm, frames = None, []
    for line in lines:
        line = line.rstrip("\n")
        if not line:
            if comm is not None and frames:
                yield comm, frames
            comm, frames = None, []
        elif not line.startswith((" ", "\t")):
            comm, frames = line.split()[0], []
        else:
            m = re.match(r"\s*[0-9a-f]+ (.*) \((.*)\)$", line)
            if m:
                frames.append((m.group(1), m.group(2)))  # leaf first
    if comm is not None and frames:
        yield comm, frames

def main():
    mode, focus, threads = sys.argv[1], sys.argv[2], sys.argv[3]
    depth = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    total = hits = 0
    split, where, leaves = collections.Counter(), collections.Counter(), collections.Counter()
    for comm, frames in samples(sys.stdin):
        if not comm.startswith(threads):
            continue
        total += 1
        at = next((i for i in range(len(frames) - 1, -1, -1) if focus in frames[i][0]), None)
        if at is None:
            continue
        hits += 1
        if mode == "below":
            callees = [f[0] for f in frames[max(0, at - depth):at]][::-1]
            split[" <- ".join(callees) or "(self)"] += 1
        else:
            sym, dso = frames[0]
            where["kernel" if "kernel" in dso else "JIT" if "JIT" in dso or "perf-" in dso else dso.split("/")[-1]] += 1
            leaves[sym] += 1
    print("samples %d, with %r on the stack %d (%.1f%%)" % (total, focus, hits, 100.0 * hits / max(total, 1)))
    for counter in ((split,) if mode == "below" else (where, leaves)):
        for k, v in counter.most_common(30):
            print("%6.2f%% %s" % (100.0 * v / max(hits, 1), k[:200]))

if __name__ == "__main__":
    main()
