#!/usr/bin/env bash
# What the ledger journal costs per request (docs/accounts.md, "A ledger that loses nothing"), measured inside one
# run rather than against a build without it: chat completions to vendor B (JSON) at 64 concurrent requests, the
# gateway's CPU time per request by thread (from /proc, over the measured run) and, from a flight recording, the
# share of the event loops' samples spent in the journal's frames (encoding the row and appending it).
# Usage: bench/journal-cost.sh [--duration S] [--warmup S] [--conns N] [--jar JAR]
#   --jar JAR   another build's gateway.jar (e.g. one from before a change), default gateway/target/gateway.jar
# Gateway on CPU 0; simulator and wrk on CPU 1. The journal directory is under the data directory, on the disk that
# holds $TMPDIR (a tmpfs would hide the cost of syncing).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$ROOT/gateway/target/gateway.jar"; DURATION=15; WARMUP=60; CONNS=64
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) DURATION="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --conns) CONNS="$2"; shift 2 ;;
    --jar) JAR="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"; JAVA="$JAVA_HOME/bin/java"
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
SIM_PORT=19190; GW_PORT=18180; KEY=pk-bench-master-key
DATA=$(mktemp -d); PIDS=()
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
cleanup() { stop "${PIDS[@]}"; rm -rf "$DATA"; }
trap cleanup EXIT
threads() { # "name|ticks" for every thread of $1, numbers at the end of names dropped (pools add up)
  for t in /proc/"$1"/task/*; do
    local s; s=$(cat "$t/stat" 2>/dev/null) || continue
    local name="${s#*(}"; name="${name%)*}"; local rest="${s##*) }"
    read -ra f <<< "$rest"
    echo "${name%%[-#]*[0-9]}|$(( f[11] + f[12] ))"
  done
}

taskset -c 1 "$JAVA" -XX:+UseSerialGC -cp "$JAR" dev.modelgateway.sim.VendorSimulator --port "$SIM_PORT" >/dev/null 2>&1 &
PIDS+=($!)
up "http://127.0.0.1:$SIM_PORT/openai/v1/models"
env GATEWAY_PORT=$GW_PORT GATEWAY_HOST=127.0.0.1 GATEWAY_MASTER_KEY=$KEY GATEWAY_ACCESS_LOG=OFF \
  GATEWAY_DATABASE_URL="jdbc:sqlite:$DATA/g.db" GATEWAY_LEDGER_JOURNAL_DIR="$DATA/journal" \
  OPENAI_BASE_URL="http://127.0.0.1:$SIM_PORT/openai/v1" OPENAI_API_KEY=sim-openai-key \
  taskset -c 0 "$JAVA" -XX:+UseSerialGC -Xmx512m \
  -XX:StartFlightRecording=filename="$DATA/run.jfr",settings=profile,delay="$((WARMUP + 1))s",duration="$((DURATION - 2))s" \
  -jar "$JAR" serve >"$DATA/gw.log" 2>&1 &
GW=$!; PIDS+=($GW)
up "http://127.0.0.1:$GW_PORT/health"
BODY='{"model":"platform/vendorB-5.5","messages":[{"role":"user","content":"Hello gateway"}]}'
load() { BENCH_BODY="$BODY" BENCH_KEY="$KEY" taskset -c 1 wrk -t1 -c"$CONNS" -d"$1s" --latency -s "$ROOT/bench/post.lua" \
  "http://127.0.0.1:$GW_PORT/api/v1/chat/completions"; }
load "$WARMUP" >/dev/null
threads "$GW" > "$DATA/before"
OUT=$(load "$DURATION")
threads "$GW" > "$DATA/after"
sleep 2 # the recording ends and is written
stop "$GW"
REQS=$(echo "$OUT" | awk '/requests in/ {print $1}')
"$JAVA_HOME/bin/jfr" print --json --events jdk.ExecutionSample "$DATA/run.jfr" > "$DATA/samples.json"
python3 - "$DATA/before" "$DATA/after" "$REQS" "$(getconf CLK_TCK)" "$DATA/samples.json" "$JAR" "$CONNS" <<'PY'
import collections, json, sys
before, after, reqs, tck, samples, jar, conns = sys.argv[1:]
def ticks(path):
    c = collections.Counter()
    for line in open(path):
        name, t = line.rstrip().rsplit('|', 1)
        c[name] += int(t)
    return c
a, b = ticks(before), ticks(after)
us = {k: (b[k] - a.get(k, 0)) * 1e6 / int(tck) / int(reqs) for k in b}
loop = total = 0
for e in json.load(open(samples))['recording']['events']:
    if not (e['values']['sampledThread']['javaName'] or '').startswith('vert.x-eventloop'): continue
    total += 1
    if any('LedgerJournal' in f['method']['type']['name'] or 'JournalLine' in f['method']['type']['name']
           for f in e['values']['stackTrace']['frames']): loop += 1
share = loop / max(total, 1)
ev = sum(v for k, v in us.items() if k.startswith('vert.x-eventloo'))
print(f"| jar | {jar} |\n|---|---|")
print(f"| requests | {reqs} at {conns} connections |")
print(f"| CPU µs / request, all threads | {sum(us.values()):.1f} |")
print(f"| of which event loops | {ev:.1f} |")
print(f"| of which the journal's frames on the event loops | {share * 100:.1f} % of {total} samples ≈ {share * ev:.1f} µs |")
for k, v in sorted(us.items(), key=lambda x: -x[1]):
    if k.startswith(('ledger-journal', 'accounts-ledger')): print(f"| thread {k} | {v:.1f} µs |")
PY
