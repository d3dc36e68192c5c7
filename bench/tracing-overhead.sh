#!/usr/bin/env bash
# What tracing costs per request (docs/performance.md, "Observability"): the gateway's CPU time per request and its
# requests/s on the relay's chat scenarios, with tracing off and on (every request sampled, spans exported over
# OTLP/HTTP to a collector that accepts and drops them), alternating off/on runs.
# Usage: bench/tracing-overhead.sh [--duration S] [--reps N] [--conns N] [--warmup S] [--baseline JAR]
#   --warmup S       unmeasured load before each measured run (default 60: with less, C2 is still compiling the
#                    gateway's hot path on the same core, and a build with more code measures its warm-up)
#   --baseline JAR   also measure another build's jar (e.g. one without observability), tracing off
# Placement as bench/run.sh: the gateway on CPU 0; the simulator, the collector and wrk on CPU 1.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAR="$ROOT/gateway/target/gateway.jar"
DURATION=10; REPS=2; CONNS=16; WARMUP=60; BASELINE=
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) DURATION="$2"; shift 2 ;;
    --reps) REPS="$2"; shift 2 ;;
    --conns) CONNS="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --baseline) BASELINE="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
JAVA="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
SIM_PORT=19190; GW_PORT=18180; OTLP_PORT=14318; KEY=pk-bench-master-key
TICKS=$(getconf CLK_TCK)
PIDS=()
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
cleanup() { stop "${PIDS[@]}"; }
trap cleanup EXIT
cpu_ms() { read -ra s < "/proc/$1/stat"; echo $(( (${s[13]} + ${s[14]}) * 1000 / TICKS )); }

taskset -c 1 "$JAVA" -XX:+UseZGC -cp "$JAR" dev.modelgateway.sim.VendorSimulator --port "$SIM_PORT" >/dev/null 2>&1 &
PIDS+=($!)
# a collector that takes every OTLP/HTTP export and drops it
taskset -c 1 python3 -c '
import http.server
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", 0)))
        self.send_response(200); self.send_header("content-type", "application/x-protobuf")
        self.send_header("content-length", "0"); self.end_headers()
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("127.0.0.1", '"$OTLP_PORT"'), H).serve_forever()' &
PIDS+=($!)
up "http://127.0.0.1:$SIM_PORT/openai/v1/models"
up "http://127.0.0.1:$OTLP_PORT/"

BODY='{"model":"platform/vendorB-5.5","messages":[{"role":"user","content":"Hello gateway"}]}'
run_gateway() { # $1: off|on|baseline; prints "cpu_us_per_request requests_per_s p50"
  local data; data=$(mktemp -d)
  local jar="$JAR"
  [ "$1" = baseline ] && jar="$BASELINE"
  local otel=()
  [ "$1" = on ] && otel=(OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:$OTLP_PORT" OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf)
  env GATEWAY_PORT=$GW_PORT GATEWAY_HOST=127.0.0.1 GATEWAY_MASTER_KEY=$KEY GATEWAY_ACCESS_LOG=OFF \
    GATEWAY_DATABASE_URL="jdbc:sqlite:$data/g.db" GATEWAY_LEDGER_JOURNAL_DIR="$data/journal" \
    OPENAI_BASE_URL="http://127.0.0.1:$SIM_PORT/openai/v1" OPENAI_API_KEY=sim-openai-key "${otel[@]}" \
    taskset -c 0 "$JAVA" -XX:+UseZGC -Xmx1g -jar "$jar" serve >"$data/gw.log" 2>&1 &
  local gw=$!
  up "http://127.0.0.1:$GW_PORT/health"
  BENCH_BODY="$BODY" BENCH_KEY="$KEY" taskset -c 1 wrk -t1 -c"$CONNS" -d"${WARMUP}s" -s "$ROOT/bench/post.lua" \
    "http://127.0.0.1:$GW_PORT/api/v1/chat/completions" >/dev/null
  local before; before=$(cpu_ms "$gw")
  local out; out=$(BENCH_BODY="$BODY" BENCH_KEY="$KEY" taskset -c 1 wrk -t1 -c"$CONNS" -d"${DURATION}s" --latency \
    -s "$ROOT/bench/post.lua" "http://127.0.0.1:$GW_PORT/api/v1/chat/completions")
  local after; after=$(cpu_ms "$gw")
  stop "$gw"
  rm -rf "$data"
  local reqs; reqs=$(echo "$out" | awk '/requests in/ {print $1}')
  local rps; rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  local p50; p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
  echo "$(( (after - before) * 1000 / reqs )) $rps $p50"
}

echo "| tracing | CPU µs / request | requests/s | p50 |"
echo "|---|---|---|---|"
for r in $(seq 1 "$REPS"); do
  for mode in off ${BASELINE:+baseline} on; do
    read -r cpu rps p50 < <(run_gateway "$mode")
    echo "| $mode | $cpu | $rps | $p50 |"
  done
done
echo
echo "Chat completions to vendor B (JSON), $CONNS connections, ${DURATION}s measured after a ${WARMUP} s warm-up, load average $(cut -d' ' -f1-3 /proc/loadavg)."
