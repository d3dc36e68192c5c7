#!/usr/bin/env bash
# A/B of two checkouts of the gateway on the same hop: both run at once (./gw serve of each, pinned to the same
# core) in front of one simulator, are warmed by the same load, and are then loaded alternately, one at a time, in
# short rounds. A change smaller than the machine's drift between runs (a few per cent on a shared machine) shows
# in the paired differences of the rounds, which the drift moves alike, not in two separate runs.
# Usage: bench/ab.sh BEFORE_CHECKOUT AFTER_CHECKOUT [--scenario chat_json|chat_stream|msg_json|msg_stream]
#                    [--conns N] [--rounds N] [--duration S] [--warmup S] [--out FILE]
#   --scenario   what wrk sends (default chat_json: chat completions to vendor B, native)
#   --conns      wrk connections in the measured rounds (default 1)
#   --rounds     measured rounds, each one run of each checkout (default 10)
#   --duration   seconds per measured run (default 5)
#   --warmup     seconds of 16-connection load each checkout gets before the rounds (default 150: on a slow
#                machine the JIT takes over a minute to settle)
#   --out        a Markdown table of the rounds and their paired differences (default: printed only)
# Each checkout must have been built (./gw build); its start-up cache is built on its first start.
# CPU placement as side-by-side.sh: gateways BENCH_PROXY_CPUS (0), simulator and wrk BENCH_SIM_CPUS/BENCH_WRK_CPUS (1).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 2 ] || { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
A="$(cd "$1" && pwd)"; B="$(cd "$2" && pwd)"; shift 2
SCEN=chat_json; CONNS=1; ROUNDS=10; DURATION=5; WARMUP=150; OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --scenario) SCEN="$2"; shift 2 ;;
    --conns) CONNS="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --duration) DURATION="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    *) echo "error: unknown option $1" >&2; exit 2 ;;
  esac
done
for c in "$A" "$B"; do
  [ -x "$c/gw" ] && [ -f "$c/gateway/target/gateway.jar" ] || { echo "error: $c is not a built checkout (./gw build)" >&2; exit 1; }
done
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
PROXY_CPUS=${BENCH_PROXY_CPUS:-0}; SIM_CPUS=${BENCH_SIM_CPUS:-1}; WRK_CPUS=${BENCH_WRK_CPUS:-1}
SIM_PORT=19591; PORT_A=18591; PORT_B=18592; KEY=pk-bench
WORK="$(mktemp -d)"
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
JAVA=$(find_java25)
SIM_PID=""; PID_A=""; PID_B=""
cleanup() { stop "$PID_A" "$PID_B" "$SIM_PID"; }
on_exit cleanup "$WORK"

start_sim "$JAVA" "$B/gateway/target/gateway.jar" "$SIM_CPUS" "$SIM_PORT" "$WORK" "$WORK/sim.log"
sim_vendors_yaml "$SIM_PORT" >"$WORK/gateway.yaml"
start() { # checkout port name: ./gw serve runs exec java, so $! is the JVM
  mkdir -p "$WORK/$3"
  env GATEWAY_PORT="$2" GATEWAY_MASTER_KEY="$KEY" GATEWAY_DATABASE_URL="jdbc:sqlite:$WORK/$3/gateway.db" \
    GATEWAY_LEDGER_JOURNAL_DIR="$WORK/$3/journal" OPENAI_API_KEY=sim-openai-key ANTHROPIC_API_KEY=sim-anthropic-key \
    taskset -c "$PROXY_CPUS" "$1/gw" serve --config "$WORK/gateway.yaml" >"$WORK/$3.log" 2>&1 &
}
start "$A" "$PORT_A" a; PID_A=$!
start "$B" "$PORT_B" b; PID_B=$!
up "http://127.0.0.1:$SIM_PORT/"
for p in $PORT_A $PORT_B; do
  for _ in $(seq 1 600); do curl -sf "http://127.0.0.1:$p/health" >/dev/null && break; sleep 0.2; done
done

case "$SCEN" in
  chat_json) URL_PATH=chat/completions; BODY='{"model":"platform/vendorB-5.5","messages":[{"role":"user","content":"Hello, benchmark"}]}' ;;
  chat_stream) URL_PATH=chat/completions; BODY='{"model":"platform/vendorB-5.5","stream":true,"messages":[{"role":"user","content":"[[sim:chunks=20]] Hello"}]}' ;;
  msg_json) URL_PATH=messages; BODY='{"model":"platform/vendorA-sonnet-5","max_tokens":256,"messages":[{"role":"user","content":"Hello, benchmark"}]}' ;;
  msg_stream) URL_PATH=messages; BODY='{"model":"platform/vendorA-sonnet-5","max_tokens":256,"stream":true,"messages":[{"role":"user","content":"[[sim:chunks=20]] Hello"}]}' ;;
  *) echo "error: --scenario chat_json|chat_stream|msg_json|msg_stream" >&2; exit 2 ;;
esac
export BENCH_BODY="$BODY" BENCH_KEY="$KEY"
for p in $PORT_A $PORT_B; do
  code=$(curl -s -o "$WORK/check.out" -w '%{http_code}' -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
    -H 'anthropic-version: 2023-06-01' -d "$BODY" "http://127.0.0.1:$p/api/v1/$URL_PATH")
  [ "$code" = 200 ] || { echo "error: port $p answered $code:" >&2; head -c 400 "$WORK/check.out" >&2; exit 1; }
done

# the same warm-up for both, in thirds, alternately
for _ in 1 2 3; do
  for p in $PORT_A $PORT_B; do
    taskset -c "$WRK_CPUS" wrk -t1 -c16 -d"$(( WARMUP / 3 ))s" -s "$ROOT/bench/post.lua" "http://127.0.0.1:$p/api/v1/$URL_PATH" >/dev/null
  done
done
HZ=$(getconf CLK_TCK)
measure() { # pid port -> "p50_us cpu_us_per_request"
  local t0 t1 n
  t0=$(awk '{ print $14 + $15 }' "/proc/$1/stat")
  taskset -c "$WRK_CPUS" wrk -t1 -c"$CONNS" -d"${DURATION}s" --latency -s "$ROOT/bench/post.lua" \
    "http://127.0.0.1:$2/api/v1/$URL_PATH" >"$WORK/wrk.out"
  t1=$(awk '{ print $14 + $15 }' "/proc/$1/stat")
  n=$(awk '/requests in/ { print $1 }' "$WORK/wrk.out")
  awk -v hz="$HZ" -v t="$(( t1 - t0 ))" -v n="$n" '$1 == "50%" { v = $2 + 0; if ($2 ~ /ms$/) v *= 1000; else if ($2 ~ /[0-9]s$/) v *= 1e6;
    printf "%.0f %.1f\n", v, t / hz * 1e6 / n }' "$WORK/wrk.out"
}
: >"$WORK/rounds"
# one unmeasured round: the first run at the measured concurrency after the warm-up ran slower in every trial
measure "$PID_A" "$PORT_A" >/dev/null; measure "$PID_B" "$PORT_B" >/dev/null
for r in $(seq 1 "$ROUNDS"); do
  a=$(measure "$PID_A" "$PORT_A"); b=$(measure "$PID_B" "$PORT_B")
  echo "$r $a $b" | tee -a "$WORK/rounds" >&2
done
# round a_p50 a_cpu b_p50 b_cpu -> medians, and the paired differences (after - before): mean ± standard error, median
SUMMARY=$(awk '
  function median(x, n,   i, j, t) { for (i = 2; i <= n; i++) { t = x[i]; for (j = i - 1; j >= 1 && x[j] > t; j--) x[j + 1] = x[j]; x[j + 1] = t }
    return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2 }
  { n++; ap[n] = $2; ac[n] = $3; bp[n] = $4; bc[n] = $5; dp[n] = $4 - $2; dc[n] = $5 - $3 }
  END {
    for (i = 1; i <= n; i++) { sp += dp[i]; sc += dc[i] } mp = sp / n; mc = sc / n
    for (i = 1; i <= n; i++) { vp += (dp[i] - mp) ^ 2; vc += (dc[i] - mc) ^ 2 }
    ep = n > 1 ? sqrt(vp / (n - 1) / n) : 0; ec = n > 1 ? sqrt(vc / (n - 1) / n) : 0
    printf "| p50 µs | %.0f | %.0f | %+.1f ± %.1f | %+.1f |\n", median(ap, n), median(bp, n), mp, ep, median(dp, n)
    printf "| CPU µs/request | %.1f | %.1f | %+.1f ± %.1f | %+.1f |\n", median(ac, n), median(bc, n), mc, ec, median(dc, n)
  }' "$WORK/rounds")
{
  echo "# A/B: $(git -C "$A" rev-parse --short HEAD) (before) against $(git -C "$B" rev-parse --short HEAD) (after), $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`bench/ab.sh BEFORE AFTER --scenario $SCEN --conns $CONNS --rounds $ROUNDS --duration $DURATION --warmup $WARMUP\`."
  echo "Machine: $(nproc) cores ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)). Both gateways (\`./gw serve\`) on"
  echo "CPU $PROXY_CPUS, the simulator and wrk on CPU $SIM_CPUS; ${WARMUP} s of 16-connection load each first and one unmeasured round,"
  echo "then per round one ${DURATION}-s run of each at $CONNS connection(s), before first. Differences: after − before, per round;"
  echo "± one standard error."
  echo
  echo "| round | before p50 µs | before CPU µs/req | after p50 µs | after CPU µs/req |"
  echo "|---|---|---|---|---|"
  awk '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$WORK/rounds"
  echo
  echo "| figure | before (median) | after (median) | after − before (mean ± s.e.) | after − before (median) |"
  echo "|---|---|---|---|---|"
  echo "$SUMMARY"
} >"$WORK/table.md"
cat "$WORK/table.md"
if [ -n "$OUT" ]; then cp "$WORK/table.md" "$OUT"; fi # a last failed test would be the exit status
