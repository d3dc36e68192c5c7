#!/usr/bin/env bash
# Relay benchmark: requests/s and added latency of the gateway versus calling the vendor simulator
# directly, for chat completions non-streaming and streaming (20 chunks), at concurrency 1 and 64.
# Usage: ./gw bench [--duration SECONDS]     (writes bench/results/relay-latest.md)
# Placement on the 2-core machine: the gateway on CPU 0; the simulator and wrk share CPU 1, in both
# the direct and the gateway runs, so the difference is the gateway's own cost.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$ROOT/gateway/target/gateway.jar"
DURATION=10
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) DURATION="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
SIM_PORT=19090; GW_PORT=18080; KEY=pk-bench
LOGDIR="$(mktemp -d)"
cleanup() { kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT

taskset -c 1 java -XX:+UseZGC -cp "$JAR" dev.modelgateway.sim.VendorSimulator --port $SIM_PORT >"$LOGDIR/sim.log" 2>&1 &
GATEWAY_PORT=$GW_PORT GATEWAY_MASTER_KEY=$KEY \
  OPENAI_BASE_URL=http://127.0.0.1:$SIM_PORT/openai/v1 OPENAI_API_KEY=sim-openai-key \
  ANTHROPIC_BASE_URL=http://127.0.0.1:$SIM_PORT/anthropic ANTHROPIC_API_KEY=sim-anthropic-key \
  taskset -c 0 java -XX:+UseZGC -Xmx1g -jar "$JAR" serve >"$LOGDIR/gateway.log" 2>&1 &
for i in $(seq 1 50); do
  if curl -sf "http://127.0.0.1:$GW_PORT/health" >/dev/null && (exec 3<>/dev/tcp/127.0.0.1/$SIM_PORT) 2>/dev/null; then break; fi
  sleep 0.2
done

# wrk prints latency percentiles as e.g. "50%  123.00us" / "1.20ms"; convert to microseconds.
to_us() { awk -v v="$1" 'BEGIN { n=v+0; if (v ~ /us$/) print n; else if (v ~ /ms$/) print n*1000; else if (v ~ /s$/) print n*1000000; else print n }'; }

run() { # name url key body connections -> "rps p50us p99us"
  local url=$1 key=$2 body=$3 conns=$4 out
  BENCH_BODY="$body" BENCH_KEY="$key" taskset -c 1 wrk -t1 -c"$conns" -d3s -s "$ROOT/bench/post.lua" "$url" >/dev/null
  out=$(BENCH_BODY="$body" BENCH_KEY="$key" taskset -c 1 wrk -t1 -c"$conns" -d"${DURATION}s" --latency -s "$ROOT/bench/post.lua" "$url")
  local rps p50 p99 errs
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p50=$(to_us "$(echo "$out" | awk '$1=="50%" {print $2}')")
  p99=$(to_us "$(echo "$out" | awk '$1=="99%" {print $2}')")
  errs=$(echo "$out" | awk '/Non-2xx/ {print $5}')
  echo "$rps $p50 $p99 ${errs:-0}"
}

direct_body='{"model":"vendorB-5.5","messages":[{"role":"user","content":"Hello, benchmark"}]}'
gw_body='{"model":"platform/vendorB-5.5","messages":[{"role":"user","content":"Hello, benchmark"}]}'
direct_stream='{"model":"vendorB-5.5","stream":true,"messages":[{"role":"user","content":"[[sim:chunks=20]] Hello"}]}'
gw_stream='{"model":"platform/vendorB-5.5","stream":true,"messages":[{"role":"user","content":"[[sim:chunks=20]] Hello"}]}'

RESULT="$ROOT/bench/results/relay-latest.md"
{
  echo "# Relay benchmark ($(date -u +%Y-%m-%dT%H:%MZ), ${DURATION}s per run, $(nproc) cores)"
  echo
  echo "| scenario | conc. | direct req/s | gateway req/s | direct p50 µs | gateway p50 µs | added p50 µs | direct p99 µs | gateway p99 µs | added p99 µs | non-2xx |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
} >"$RESULT"
for scenario in json stream; do
  for conns in 1 64; do
    if [ $scenario = json ]; then db=$direct_body; gb=$gw_body; else db=$direct_stream; gb=$gw_stream; fi
    read -r drps dp50 dp99 derr <<<"$(run "http://127.0.0.1:$SIM_PORT/openai/v1/chat/completions" sim-openai-key "$db" $conns)"
    read -r grps gp50 gp99 gerr <<<"$(run "http://127.0.0.1:$GW_PORT/api/v1/chat/completions" $KEY "$gb" $conns)"
    awk -v s="chat $scenario" -v c=$conns -v dr="$drps" -v gr="$grps" -v d5="$dp50" -v g5="$gp50" -v d9="$dp99" -v g9="$gp99" -v e="$((derr + gerr))" \
      'BEGIN { printf "| %s | %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %d |\n", s, c, dr, gr, d5, g5, g5-d5, d9, g9, g9-d9, e }' >>"$RESULT"
  done
done
RSS=$(ps -o rss= -p "$(pgrep -f 'gateway.jar serve' | head -n1)" 2>/dev/null || echo 0)
echo >>"$RESULT"
echo "Gateway resident memory after the runs: $((RSS / 1024)) MiB." >>"$RESULT"
cat "$RESULT"
