#!/usr/bin/python3
"""Times each FUSE request a command makes, by opcode: the kernel's fuse:fuse_request_send and
fuse:fuse_request_end tracepoints (whole machine, so any FUSE mount's requests count), each
request's time from being sent to its reply. Prints per opcode the count, median, mean and sum, and
the sum over all against the command's span. The page cache is dropped first. Run as root.

    /usr/bin/python3 frontend-fuse/bench/request-times.py 'tar xf TREE.tar -C MOUNT' [PERF_DATA]

Compare two file systems by running the same command on each (performance.md, session 31).
"""
import collections, re, statistics, subprocess, sys

SEND = re.compile(r"([\d.]+):\s+fuse:fuse_request_send:.*?req (\d+).*?opcode \d+ \((\w+)\)")
END = re.compile(r"([\d.]+):\s+fuse:fuse_request_end:.*?req (\d+)")


def main():
    cmd = sys.argv[1]
    data = sys.argv[2] if len(sys.argv) > 2 else "/tmp/request-times.data"
    subprocess.run("sync; echo 3 > /proc/sys/vm/drop_caches", shell=True, check=True)
    subprocess.run(["perf", "record", "-q", "-a", "-e", "fuse:fuse_request_send", "-e", "fuse:fuse_request_end",
                    "-o", data, "--", "sh", "-c", cmd], stderr=subprocess.DEVNULL, check=True)
    out = subprocess.run(["perf", "script", "-i", data, "-F", "time,event,trace"], capture_output=True, text=True).stdout
    sent, times, first, last = {}, collections.defaultdict(list), None, None
    for line in out.splitlines():
        m = SEND.search(line)
        if m:
            t = float(m.group(1))
            sent[m.group(2)] = (t, m.group(3))
            first = t if first is None else first
            last = t
            continue
        m = END.search(line)
        if m and m.group(2) in sent:
            t0, op = sent.pop(m.group(2))
            last = float(m.group(1))
            times[op].append((last - t0) * 1e6)
    total = 0.0
    for op, v in sorted(times.items(), key=lambda kv: -sum(kv[1])):
        total += sum(v)
        print("%-16s n=%7d  median %7.1f us  mean %7.1f us  sum %7.3f s"
              % (op, len(v), statistics.median(v), statistics.mean(v), sum(v) / 1e6))
    print("all requests %.3f s over the command's %.3f s" % (total / 1e6, (last - first) if first else 0.0))


if __name__ == "__main__":
    main()
