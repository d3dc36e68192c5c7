#!/usr/bin/env bash
# Builds the JMH uber-jar and runs the micro-benchmarks with short settings suited to a shared 2-core box,
# then writes bench/results/jmh-latest.md (the table plus the exact command).
# Usage: bench/jmh.sh [extra JMH args, e.g. a benchmark regex: StreamTranslationBench]
#   Without arguments it runs the streaming benchmarks (the table below is theirs); AdmissionBench has its own
#   command in bench/README.md.
#   JMH_OPTS overrides the default run length ("-f 1 -wi 3 -w 2s -i 5 -r 2s").
#   SKIP_BUILD=1 reuses bench/target/benchmarks.jar; WAIT_QUIET=S waits up to S s (default 60) for load <= 1.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
if [ -z "${JAVA_HOME:-}" ]; then
  for d in /usr/lib/jvm/*; do
    if [ -x "$d/bin/javac" ] && "$d/bin/java" -version 2>&1 | grep -q 'version "2[5-9]'; then JAVA_HOME=$d; break; fi
  done
fi
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -q -B -Pbench -pl bench -am package -DskipTests
fi
JAR="$ROOT/bench/target/benchmarks.jar"
OPTS=${JMH_OPTS:-"-f 1 -wi 3 -w 2s -i 5 -r 2s"}
FIXTURES=${FIXTURES_DIR:-"$ROOT/fixtures"}
JSON="$ROOT/bench/target/jmh-result.json"
[ $# -eq 0 ] && set -- '(SseParser|NativeTap|StreamTranslation)Bench'
read -r l1 l5 _ < /proc/loadavg
waited=0   # the 1-minute average lags: give a previous run up to WAIT_QUIET (60) seconds to fade
while [ "$waited" -lt "${WAIT_QUIET:-60}" ] && awk -v l="$l1" 'BEGIN { exit !(l > 1.0) }'; do
  [ "$waited" -eq 0 ] && echo "load average $l1 > 1: waiting up to ${WAIT_QUIET:-60}s for the machine to quieten..." >&2
  sleep 5; waited=$((waited + 5))
  read -r l1 l5 _ < /proc/loadavg
done
echo "load average before the run: $l1 $l5 (1, 5 min)" >&2
if awk -v l="$l1" 'BEGIN { exit !(l > 1.0) }'; then
  echo "WARNING: load average $l1 > 1 on $(nproc) cores: other work is running, numbers will be noisy" >&2
fi
# shellcheck disable=SC2086
CMD="java -Dfixtures.dir=$FIXTURES -jar bench/target/benchmarks.jar $OPTS -prof gc -rf json -rff $JSON $*"
echo "+ $CMD" >&2
# shellcheck disable=SC2086
java -Dfixtures.dir="$FIXTURES" -jar "$JAR" $OPTS -prof gc -rf json -rff "$JSON" "$@"
read -r e1 _ < /proc/loadavg
OUT="$ROOT/bench/results/jmh-latest.md"
{
  echo "# JMH micro-benchmarks ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(java -version 2>&1 | head -n1))"
  echo
  echo "Command (from the repo root): \`bench/jmh.sh $*\` = \`$CMD\`"
  echo
  echo "Load average: $l1 before, $e1 after. Short runs on a shared 2-core machine: compare within one table only."
  echo
  java -Dfixtures.dir="$FIXTURES" -cp "$JAR" dev.modelgateway.bench.ResultsTable "$JSON"
} >"$OUT"
cat "$OUT"
