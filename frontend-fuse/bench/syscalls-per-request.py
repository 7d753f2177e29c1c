#!/usr/bin/python3
"""The system calls each FUSE request made, per opcode, from an `strace -f -tt` of the mount JVM
(rmdir-syscalls.sh with MODE=-tt): each worker thread's calls are split at its reads of /dev/fuse
(FD, 74 unless given; see the trace's reads of 135168 bytes), the opcode taken from the request's
header; thread and JVM housekeeping calls (futex, gettid, ...) are left out.

    /usr/bin/python3 frontend-fuse/bench/syscalls-per-request.py TRACE [FD]
"""
import collections, re, sys
path, fd = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "74"
IGN = {"futex", "gettid", "sysinfo", "getrusage", "rt_sigprocmask", "clone3", "mmap", "munmap", "mprotect", "restart_syscall", "sched_getaffinity", "set_robust_list", "rseq", "prctl", "madvise"}
OPS = {1: "LOOKUP", 3: "GETATTR", 11: "RMDIR", 27: "OPENDIR", 28: "READDIR", 29: "RELEASEDIR", 44: "READDIRPLUS", 10: "UNLINK", 9: "MKDIR"}
cur = {}   # tid -> [opcode, [calls]]
done = collections.defaultdict(list)
pending = {}
for line in open(path):
    m = re.match(r"(\d+)\s+\S+\s+(.*)", line)
    if not m: continue
    tid, rest = m.groups()
    if rest.startswith("<... read resumed>") and tid in pending:
        hdr = re.search(r'resumed>"((?:\\[0-7]{1,3}|\\[a-z]|[^"\\])*)', rest).group(1)
        # the request header: u32 length, u32 opcode (C escapes as strace prints them)
        b = bytes(hdr, "latin1").decode("unicode_escape").encode("latin1")
        code = int.from_bytes(b[4:8], "little") if len(b) >= 8 else -1
        cur[tid] = [code, []]; del pending[tid]; continue
    name = re.match(r"(?:<\.\.\. )?(\w+)", rest).group(1)
    if rest.startswith("read(%s," % fd):
        if tid in cur: done[cur[tid][0]].append(cur[tid][1])
        cur.pop(tid, None)
        if "unfinished" in rest: pending[tid] = True
        continue
    if "resumed>" in rest or name in IGN: continue
    if tid in cur and not rest.startswith("writev(%s" % fd): cur[tid][1].append(name)
for code, reqs in sorted(done.items()):
    n = len(reqs); c = collections.Counter(x for r in reqs for x in r)
    print("%-12s n=%4d  syscalls/request %.2f  %s" % (OPS.get(code, code), n, sum(c.values()) / n, ", ".join("%s %.2f" % (k, v / n) for k, v in c.most_common())))
