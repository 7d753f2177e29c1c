"""Flat profile of a JMH run recorded with perf, naming HotSpot's intrinsic stubs (AES, SHA-256,
arraycopy), which JFR cannot see and perf alone lumps together as "StubRoutines".

    perf record -e cpu-clock -F 1999 -o run.data -- java -jar benchmarks/target/benchmarks.jar \
        'FileChannelBenchmark.seqWrite' -p target=SIV_XTSHMAC -f 1 -wi 2 -i 15 \
        -jvmArgsAppend "-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PrintStubCode" > run.log 2>&1
    python3 benchmarks/perfstubs.py run.data run.log 30

Counts only samples of the JMH worker thread (its name starts "dev.coffer.ben"), so set-up and
tear-down on that thread are included; JIT compiler and GC threads are not. Needs perf with
cpu-clock (no hardware counters needed) and /tmp/perf-<pid>.map from DumpPerfMapAtExit.
"""
import re, subprocess, sys, collections, bisect
data, log = sys.argv[1], sys.argv[2]
top = int(sys.argv[3]) if len(sys.argv) > 3 else 25
stubs = []
for line in open(log, errors='replace'):
    m = re.match(r'^(\S+) \[0x([0-9a-f]+), 0x([0-9a-f]+)\]', line)
    if m:
        stubs.append((int(m.group(2), 16), int(m.group(3), 16), m.group(1)))
stubs.sort()
starts = [s[0] for s in stubs]
def stub(ip):
    i = bisect.bisect_right(starts, ip) - 1
    if i >= 0 and stubs[i][0] <= ip < stubs[i][1]:
        return stubs[i][2]
    return None
out = subprocess.run(['perf', 'script', '-i', data, '-F', 'comm,ip,sym,dso'], capture_output=True, text=True).stdout
c = collections.Counter(); total = 0
for line in out.splitlines():
    m = re.match(r'^\s*(.+?)\s+([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$', line)
    if not m:
        continue
    comm, ip, sym, dso = m.groups()
    if not comm.startswith('dev.coffer.ben'):   # the JMH worker thread
        continue
    total += 1
    name = stub(int(ip, 16)) if ('Stub' in sym or sym == '[unknown]') else None
    if name is None:
        if 'kernel' in dso:
            name = '[kernel] ' + sym
        else:
            name = re.sub(r'\(.*', '', sym).split(' ')[-1] or sym
    c[name] += 1
print('samples in worker thread:', total)
groups = collections.Counter()
for k, v in c.items():
    groups['kernel' if k.startswith('[kernel]') else ('stub' if '::' in k else 'java/jit/other')] += v
print('  '.join(f'{k} {100*v/total:.1f}%' for k, v in groups.most_common()))
for k, v in c.most_common(top):
    print(f'{100*v/total:5.1f}%  {k}')
