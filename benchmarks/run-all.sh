#!/bin/sh
# Runs every benchmark class with the settings the README reports, one after the other, writing
# JMH's JSON and text output to benchmarks/results/. Run from the repository root after
#   mvn -q -B -o -pl core,benchmarks -am package -DskipTests
# Then: python3 benchmarks/summarize.py benchmarks/results/*.json
set -eu
JAR=benchmarks/target/benchmarks.jar
OUT=benchmarks/results
mkdir -p "$OUT"
run() {
    name=$1
    shift
    echo "== $name ($(uptime | sed 's/.*load average/load average/'))" | tee "$OUT/$name.txt"
    start=$(date +%s)
    java -jar "$JAR" "$@" -rf json -rff "$OUT/$name.json" >>"$OUT/$name.txt" 2>&1
    echo "== $name took $(($(date +%s) - start)) s" | tee -a "$OUT/$name.txt"
    grep -E '^(Benchmark|[A-Za-z]+Benchmark\.)' "$OUT/$name.txt" | tail -n +1
}
run XtsBenchmark         'XtsBenchmark\.'         -f 3 -wi 2 -w 1s -i 3 -r 1s
run UnitCryptorBenchmark 'UnitCryptorBenchmark\.' -f 3 -wi 2 -w 1s -i 3 -r 1s
# Per-method settings from the annotations: 2 forks; seq* single shot, 3 warm-up + 6 measured;
# random* 2 x 1 s warm-up + 3 x 1 s measured.
run FileChannelBenchmark 'FileChannelBenchmark\.' -f 2 -prof gc
run ListingBenchmark     'ListingBenchmark\.'     -f 1 -wi 3 -i 5
run NameBenchmark        'NameBenchmark\.'        -f 1 -wi 3 -w 2s -i 5 -r 2s
run UnlockBenchmark      'UnlockBenchmark\.'      -f 1 -wi 3 -i 10
run XtsPartsBenchmark    'XtsPartsBenchmark\.'    -f 2 -wi 2 -w 1s -i 3 -r 1s
