#!/usr/bin/env bash
# Bedrock Invoke against vendor A direct (issue 31): the gateway's CPU per request on the native messages path, JSON
# and streamed, for one vendor A model served (a) by the simulator's vendor A mount and (b) by a `bedrock` deployment
# on the simulator's Bedrock double (InvokeModel / InvokeModelWithResponseStream, SigV4 with the double's credentials),
# both in one gateway, loaded alternately in short rounds as ab.sh does, so that the machine's drift hits both alike.
# Usage: bench/bedrock-invoke.sh [--conns 1,64] [--rounds N] [--duration S] [--warmup S] [--delay-ms MS]
#                                [--chunk-delay-ms MS] [--wait-quiet S] [--out FILE]
#   --conns       wrk connections, comma-separated (default 1,64)
#   --rounds      measured rounds; each runs (a) and (b) once per scenario and concurrency, in alternating order (default 6)
#   --duration    seconds per measured run (default 5)
#   --warmup      seconds of 16-connection load over the four cells before the rounds (default 120)
#   --delay-ms    the simulator waits MS ms before answering, on both paths (default 0): the double answers more
#                 slowly than the vendor A mount (it checks SigV4 and frames the stream), and on a loaded machine a
#                 longer wait between requests costs the gateway more CPU per request (colder caches); an equal wait
#                 much longer than that difference leaves the gateway's own work as the difference
#   --chunk-delay-ms  the streams' 20 chunks MS ms apart, on both paths (default 0). Without it the simulator's
#                 vendor A mount writes a whole stream at once (one read for the gateway) while the Bedrock double
#                 writes each event-stream frame on its own (23 reads, each relayed): a real stream comes event by
#                 event on both, which a delay between chunks reproduces
#   --wait-quiet  wait up to S seconds for the 1-minute load average to drop to 1 first (default 60)
#   --out         a Markdown report of the rounds and the ratios (default: printed only)
# The figure is the gateway process's utime + stime (/proc) over a run ÷ requests: the simulator's own CPU differs
# between (a) and (b) (it checks SigV4 and frames the event stream) and is not counted. BENCH_GW_JAVA_OPTS adds JVM
# options to the gateway (e.g. a flight recording). Placement as side-by-side.sh: gateway on BENCH_PROXY_CPUS (0),
# simulator and wrk on BENCH_SIM_CPUS / BENCH_WRK_CPUS (1). Ports: BENCH_SIM_PORT (19691), BENCH_GW_PORT (18691).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$ROOT/gateway/target/gateway.jar"
ARGS="$*"
CONNS=1,64; ROUNDS=6; DURATION=5; WARMUP=120; DELAY_MS=0; CHUNK_DELAY_MS=0; WAIT_QUIET=60; OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --conns) CONNS="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --duration) DURATION="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --delay-ms) DELAY_MS="$2"; shift 2 ;;
    --chunk-delay-ms) CHUNK_DELAY_MS="$2"; shift 2 ;;
    --wait-quiet) WAIT_QUIET="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    -h|--help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown option $1" >&2; exit 2 ;;
  esac
done
IFS=',' read -r -a CONN_LIST <<<"$CONNS"
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
JAVA=$(find_java25)
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
command -v taskset >/dev/null || { echo "error: taskset (util-linux) is required for CPU pinning" >&2; exit 1; }
build_if_stale "$ROOT"
PROXY_CPUS=${BENCH_PROXY_CPUS:-0}; SIM_CPUS=${BENCH_SIM_CPUS:-1}; WRK_CPUS=${BENCH_WRK_CPUS:-1}
SIM_PORT=${BENCH_SIM_PORT:-19691}; GW_PORT=${BENCH_GW_PORT:-18691}; KEY=pk-bench
WORK="$(mktemp -d)"
SIM_PID=""; GW_PID=""; WRK_PID=""
cleanup() { stop "$WRK_PID"; stop "$GW_PID" "$SIM_PID"; }
on_exit cleanup "$WORK"
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for p in $SIM_PORT $GW_PORT; do
  port_busy "$p" && { echo "error: port $p is already in use; set BENCH_SIM_PORT/BENCH_GW_PORT" >&2; exit 1; }
done

# --- is the machine quiet? (as side-by-side.sh: the load average, then 3 s of real CPU use)
read -r LOAD1 LOAD5 _ </proc/loadavg
waited=0
while [ "$waited" -lt "$WAIT_QUIET" ] && awk -v l="$LOAD1" 'BEGIN { exit !(l > 1.0) }'; do
  [ "$waited" -eq 0 ] && echo "load average $LOAD1 > 1: waiting up to ${WAIT_QUIET}s for the machine to quieten..." >&2
  sleep 5; waited=$((waited + 5))
  read -r LOAD1 LOAD5 _ </proc/loadavg
done
cpu_busy() { awk '/^cpu / { print $2 + $3 + $4 }' /proc/stat; }
cpu_all() { awk '/^cpu / { print $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }
b0=$(cpu_busy); a0=$(cpu_all); sleep 3; b1=$(cpu_busy); a1=$(cpu_all)
IDLE_BUSY=$(awk -v b=$((b1 - b0)) -v a=$((a1 - a0)) -v n="$(nproc)" 'BEGIN { printf "%.0f", (a > 0 ? 100 * n * b / a : 0) }')
echo "load average $LOAD1/$LOAD5 (1/5 min); CPU in use before starting: ${IDLE_BUSY}% of one core" >&2

# --- the simulator and one gateway with both deployments. Both upstreams over h2c, as sim_vendors_yaml configures
# the vendors (the gateway speaks HTTP/2 to the real ones by ALPN); each public model has one deployment, so that a
# request's route is fixed.
start_sim "$JAVA" "$JAR" "$SIM_CPUS" "$SIM_PORT" "$WORK" "$WORK/sim.log"
{
  sim_vendors_yaml "$SIM_PORT"
  cat <<EOF
providers:
  aws-sim:
    type: bedrock
    region: us-east-1
    base_url: "http://127.0.0.1:$SIM_PORT"
    http_version: "2"
    aws: {source: static, access_key_id: AKIDSIMBEDROCK, secret_access_key: sim-bedrock-secret}
models:
  bench/vendorA-direct:
    vendor: anthropic
    capabilities: [chat, tools, vision, thinking, prompt_caching, structured_output]
    price: {input: 3.00, output: 15.00, cache_read: 0.30, cache_write_5m: 3.75, cache_write_1h: 6.00}
    deployments:
      - {provider: anthropic, model: vendorA-sonnet-5}
  bench/vendorA-bedrock:
    vendor: anthropic
    capabilities: [chat, tools, vision, thinking, prompt_caching, structured_output]
    price: {input: 3.00, output: 15.00, cache_read: 0.30, cache_write_5m: 3.75, cache_write_1h: 6.00}
    deployments:
      - {provider: aws-sim, model: "us.anthropic.claude-sonnet-5-v1:0"}
EOF
} >"$WORK/gateway.yaml"
# GW_AOT=off: start-up is not measured, and a start-up cache would be trained (minutes of CPU) after every build.
# shellcheck disable=SC2086
env GW_AOT=off JAVA_OPTS="${BENCH_GW_JAVA_OPTS:-}" GATEWAY_SERVER_PORT="$GW_PORT" GATEWAY_SERVER_MASTER_KEY="$KEY" \
  GATEWAY_ACCOUNTS_DATABASE_URL="jdbc:sqlite:$WORK/gateway.db" GATEWAY_ACCOUNTS_LEDGER_JOURNAL_DIR="$WORK/journal" \
  OPENAI_API_KEY=sim-openai-key ANTHROPIC_API_KEY=sim-anthropic-key \
  taskset -c "$PROXY_CPUS" "$ROOT/gw" serve --config "$WORK/gateway.yaml" >"$WORK/gateway.log" 2>&1 &
GW_PID=$!
up "http://127.0.0.1:$SIM_PORT/"
for _ in $(seq 1 600); do
  kill -0 "$GW_PID" 2>/dev/null || { echo "error: gateway exited:" >&2; tail -20 "$WORK/gateway.log" >&2; exit 1; }
  curl -sf "http://127.0.0.1:$GW_PORT/health" >/dev/null && break; sleep 0.2
done
case "$(tr '\0' ' ' <"/proc/$GW_PID/cmdline")" in *java*) ;; *) echo "error: pid $GW_PID is not the gateway's JVM" >&2; exit 1 ;; esac

# --- cells: scenario × path. Every one must answer 200 with a complete body (wrk only counts status codes).
URL=http://127.0.0.1:$GW_PORT/api/v1/messages
DELAY=""; [ "$DELAY_MS" -gt 0 ] && DELAY=";delay_ms=$DELAY_MS"
SDELAY=$DELAY; [ "$CHUNK_DELAY_MS" -gt 0 ] && SDELAY="$SDELAY;chunk_delay_ms=$CHUNK_DELAY_MS"
body() { # model stream(true|false)
  if [ "$2" = true ]; then
    printf '{"model":"%s","max_tokens":256,"stream":true,"messages":[{"role":"user","content":"[[sim:chunks=20%s]] Hello"}]}' "$1" "$SDELAY"
  elif [ -n "$DELAY" ]; then
    printf '{"model":"%s","max_tokens":256,"messages":[{"role":"user","content":"[[sim:delay_ms=%s]] Hello, benchmark"}]}' "$1" "$DELAY_MS"
  else
    printf '{"model":"%s","max_tokens":256,"messages":[{"role":"user","content":"Hello, benchmark"}]}' "$1"
  fi
}
declare -A BODY MARK
for s in json stream; do
  st=false; [ $s = stream ] && st=true
  BODY[$s|a]=$(body bench/vendorA-direct $st); BODY[$s|b]=$(body bench/vendorA-bedrock $st)
done
MARK[json|a]='"stop_reason":"end_turn"'; MARK[json|b]=${MARK[json|a]}; MARK[stream|a]='event: message_stop'
MARK[stream|b]='"amazon-bedrock-invocationMetrics"'   # Bedrock's own addition to message_stop: (b) did go through it
for cell in "json|a" "json|b" "stream|a" "stream|b"; do
  code=$(curl -s -m 30 -o "$WORK/check.out" -w '%{http_code}' -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
    -H 'anthropic-version: 2023-06-01' -d "${BODY[$cell]}" "$URL")
  if [ "$code" != 200 ] || ! grep -qF -- "${MARK[$cell]}" "$WORK/check.out"; then
    echo "error: $cell answered $code without '${MARK[$cell]}':" >&2; head -c 600 "$WORK/check.out" >&2; echo >&2; exit 1
  fi
done

HZ=$(getconf CLK_TCK)
gw_ticks() { awk '{ print $14 + $15 }' "/proc/$GW_PID/stat"; }
# the event loops' ticks (thread names are cut to 15 characters): where a request's own work runs; the process's
# other threads (GC, JIT, the ledger's writer, timers) run at a rate that does not follow the requests, so when a
# path's upstream is slower (the double checks SigV4 and frames the stream) they weigh more per request
loop_ticks() { cat /proc/"$GW_PID"/task/*/stat 2>/dev/null | awk '$2 ~ /^\(vert\.x-eventloo/ { t += $14 + $15 } END { print t + 0 }'; }
children_ticks() { times >"$WORK/times"; awk -v hz="$HZ" 'NR == 2 { t = 0
  for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%.0f\n", t * hz }' "$WORK/times"; }
ours_ticks() { echo $(( $(gw_ticks) + $(awk '{ print $14 + $15 }' "/proc/$SIM_PID/stat") + $(children_ticks) )); }
wrk_run() { # seconds body conns [wrk options] -> $WORK/wrk.out; in this shell so cleanup can stop wrk
  local secs=$1 body=$2 conns=$3; shift 3
  BENCH_BODY="$body" BENCH_KEY="$KEY" taskset -c "$WRK_CPUS" wrk -t1 -c"$conns" -d"${secs}s" "$@" -s "$ROOT/bench/post.lua" "$URL" \
    >"$WORK/wrk.out" 2>&1 &
  WRK_PID=$!
  wait "$WRK_PID" || { echo "error: wrk failed:" >&2; cat "$WORK/wrk.out" >&2; exit 1; }
  WRK_PID=""
}
settle() { # wait (≤ 10 s) until the gateway is idle, so work left from one run does not land in the next
  local t0 t1
  for _ in $(seq 1 20); do t0=$(gw_ticks); sleep 0.5; t1=$(gw_ticks); [ $(( (t1 - t0) * 20 )) -le "$HZ" ] && return 0; done
}
measure() { # cell conns -> "p50 cpu/req errors loops/req cpu-idle/req loops-idle/req" (µs)
  local t0 t1 l0 l1 n
  wrk_run 1 "${BODY[$1]}" "$2" >/dev/null   # a second at this concurrency: the pool and the event loops settle
  t0=$(gw_ticks); l0=$(loop_ticks); s0=$(date +%s.%N)
  wrk_run "$DURATION" "${BODY[$1]}" "$2" --latency
  t1=$(gw_ticks); l1=$(loop_ticks); s1=$(date +%s.%N)
  n=$(awk '/requests in/ { print $1 }' "$WORK/wrk.out")
  [ "${n:-0}" -gt 0 ] || { echo "error: no requests completed:" >&2; cat "$WORK/wrk.out" >&2; exit 1; }
  awk -v hz="$HZ" -v t="$(( t1 - t0 ))" -v l="$(( l1 - l0 ))" -v n="$n" -v w="$(awk -v a="$s0" -v b="$s1" 'BEGIN { print b - a }')" \
      -v it="$IDLE_TPS" -v il="$IDLE_LOOP_TPS" '
    $1 == "50%" { v = $2 + 0; if ($2 ~ /ms$/) v *= 1000; else if ($2 ~ /[0-9]s$/) v *= 1e6; p50 = v }
    /Non-2xx/ { e += $5 } /Socket errors/ { split($0, s, /[ ,]+/); e += s[4] + s[6] + s[8] + s[10] }
    END { ct = t - it * w; cl = l - il * w; if (ct < 0) ct = 0; if (cl < 0) cl = 0
      printf "%.0f %.1f %d %.1f %.1f %.1f\n", p50, t / hz * 1e6 / n, e, l / hz * 1e6 / n, ct / hz * 1e6 / n, cl / hz * 1e6 / n }' "$WORK/wrk.out"
  settle
}

T0=$(date +%s); BUSY0=$(cpu_busy); OURS0=$(ours_ticks)
# --- the same warm-up for both paths, in quarters, alternately (the JIT compiles both before anything is measured)
echo "warm-up: ${WARMUP}s over the four cells..." >&2
for _ in 1 2; do
  for cell in "json|a" "json|b" "stream|a" "stream|b"; do wrk_run $(( (WARMUP + 7) / 8 )) "${BODY[$cell]}" 16; done
done
settle
# the gateway's own pace when idle (timers, the ledger's writer, JIT and GC threads): reported, and subtracted from
# each run as an estimate of the work that does not follow the requests (it weighs more per request on the path whose
# upstream answers more slowly, and on a loaded machine that is most of the c=1 figure)
i0=$(gw_ticks); il0=$(loop_ticks); sleep 10; i1=$(gw_ticks); il1=$(loop_ticks)
IDLE_TPS=$(awk -v t=$((i1 - i0)) 'BEGIN { print t / 10 }'); IDLE_LOOP_TPS=$(awk -v t=$((il1 - il0)) 'BEGIN { print t / 10 }')
echo "gateway idle: $IDLE_TPS ticks/s (event loops $IDLE_LOOP_TPS)" >&2
: >"$WORK/rounds"
for r in $(seq 1 "$ROUNDS"); do
  for s in json stream; do
    for c in "${CONN_LIST[@]}"; do
      # (a) first in odd rounds, (b) first in even ones: a drift within a round does not favour one path
      if [ $(( r % 2 )) = 1 ]; then a=$(measure "$s|a" "$c"); b=$(measure "$s|b" "$c")
      else b=$(measure "$s|b" "$c"); a=$(measure "$s|a" "$c"); fi
      echo "$r $s $c $a $b" | tee -a "$WORK/rounds" >&2
    done
  done
done
T1=$(date +%s); BUSY1=$(cpu_busy); OURS1=$(ours_ticks)
FOREIGN=$(awk -v b=$((BUSY1 - BUSY0)) -v o=$((OURS1 - OURS0)) -v hz="$HZ" 'BEGIN { f = (b - o) / hz; printf "%.0f", (f < 0 ? 0 : f) }')
FOREIGN_PCT=$(awk -v f="$FOREIGN" -v t=$((T1 - T0)) 'BEGIN { printf "%.0f", (t > 0 ? 100 * f / t : 0) }')
FOREIGN_NOTE="Other processes used $FOREIGN CPU-seconds during the $((T1 - T0)) s of warm-up and measurement (${FOREIGN_PCT}% of one core on average)."
[ "$FOREIGN_PCT" -gt 10 ] && FOREIGN_NOTE="WARNING: $FOREIGN_NOTE Above 10%: latency is disturbed; CPU µs/request (per process) much less so."
echo "$FOREIGN_NOTE" >&2
GW_WARN=$(grep -cE ' (ERROR|WARN) ' "$WORK/gateway.log" || true)

# rounds: r scenario conns, then for (a) and (b): p50 cpu errors loops cpu-less-idle loops-less-idle -> per cell:
# medians, the ratios b/a of each round (median, min–max) and the rounds' spread of each path's CPU (max/min)
{
  echo "# Bedrock Invoke against vendor A direct: gateway CPU per request ($(date -u +%Y-%m-%dT%H:%MZ))"
  echo
  echo "Command: \`bench/bedrock-invoke.sh${ARGS:+ $ARGS}\`; repository at $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD -- gateway vendor-sim 2>/dev/null || echo ' with local changes')."
  echo "Machine: $(nproc) cores ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)), shared. One gateway (\`./gw serve\`,"
  echo "its JVM flags${BENCH_GW_JAVA_OPTS:+ + \`$BENCH_GW_JAVA_OPTS\`}) on CPU $PROXY_CPUS, the simulator and wrk on CPU $SIM_CPUS. (a) \`bench/vendorA-direct\` → the simulator's vendor A"
  echo "mount; (b) \`bench/vendorA-bedrock\` → a \`bedrock\` provider (SigV4, static keys) on the simulator's Bedrock double,"
  echo "\`us.anthropic.claude-sonnet-5-v1:0\` by InvokeModel / InvokeModelWithResponseStream; both over h2c. Messages API,"
  echo "JSON and streamed (20 chunks${SDELAY:+: \`[[sim:chunks=20$SDELAY]]\`})${DELAY:+, the simulator waiting ${DELAY_MS} ms before each answer}. ${WARMUP}s of 16-connection warm-up over the four cells, then per round, scenario and"
  echo "concurrency one ${DURATION}-s run of each path (after 1 s unmeasured), (a) first in odd rounds, (b) in even ones."
  echo "CPU µs/req = the gateway's utime + stime over the run ÷ requests completed: the whole process, and its event loops"
  echo "only (the request's own work; GC, JIT and timers excluded)."
  echo "Load average (1/5 min) at the start: $LOAD1/$LOAD5; CPU busy before the start: ${IDLE_BUSY}% of one core."
  echo
  case "$FOREIGN_NOTE" in WARNING*) echo "**$FOREIGN_NOTE**" ;; *) echo "$FOREIGN_NOTE" ;; esac
  echo
  echo "| scenario | conc. | (a) direct CPU µs/req | (b) Bedrock CPU µs/req | ratio (b)/(a), median (min–max) | (a) event loops µs/req | (b) event loops µs/req | event-loop ratio | (a) − idle µs/req | (b) − idle µs/req | ratio less idle | event-loop ratio less idle | (a) p50 µs | (b) p50 µs | spread of (a) / (b) CPU over rounds | errors a/b |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  awk '
    function median(x, n,   i, j, t) { for (i = 2; i <= n; i++) { t = x[i]; for (j = i - 1; j >= 1 && x[j] > t; j--) x[j + 1] = x[j]; x[j + 1] = t }
      return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2 }
    function lo(x, n,   i, v) { v = x[1]; for (i = 2; i <= n; i++) if (x[i] < v) v = x[i]; return v }
    function hi(x, n,   i, v) { v = x[1]; for (i = 2; i <= n; i++) if (x[i] > v) v = x[i]; return v }
    function r(b, a) { return a > 0 ? b / a : 0 }
    function cell(x, m) { return sprintf("**%.2f** (%.2f–%.2f)", median(x, m), lo(x, m), hi(x, m)) }
    { k = $2 "|" $3; if (!(k in n)) order[++cells] = k; i = ++n[k]
      for (f = 4; f <= 15; f++) v[k, i, f] = $f; ae[k] += $6; be[k] += $12 }
    END { for (c = 1; c <= cells; c++) { k = order[c]; m = n[k]; split(k, kk, "|")
        for (i = 1; i <= m; i++) {
          ap[i] = v[k, i, 4]; ac[i] = v[k, i, 5]; al[i] = v[k, i, 7]; ai[i] = v[k, i, 8]
          bp[i] = v[k, i, 10]; bc[i] = v[k, i, 11]; bl[i] = v[k, i, 13]; bi[i] = v[k, i, 14]
          rc[i] = r(v[k, i, 11], v[k, i, 5]); rl[i] = r(v[k, i, 13], v[k, i, 7]); ri[i] = r(v[k, i, 14], v[k, i, 8]); rli[i] = r(v[k, i, 15], v[k, i, 9]) }
        printf "| messages %s | %s | %.1f | %.1f | %s | %.1f | %.1f | %s | %.1f | %.1f | %s | %s | %.0f | %.0f | %.2f / %.2f | %d/%d |\n",
          kk[1], kk[2], median(ac, m), median(bc, m), cell(rc, m), median(al, m), median(bl, m), cell(rl, m),
          median(ai, m), median(bi, m), cell(ri, m), cell(rli, m), median(ap, m), median(bp, m),
          hi(ac, m) / lo(ac, m), hi(bc, m) / lo(bc, m), ae[k], be[k] } }' "$WORK/rounds"
  echo
  echo "Idle: the gateway used $IDLE_TPS ticks/s (event loops: $IDLE_LOOP_TPS) of $HZ per CPU-second over 10 s without load; \"less idle\""
  echo "subtracts that rate × the run's duration before dividing by the requests."
  echo "Target (issue 31): (b)/(a) ≤ 1.5. Spread = the largest ÷ the smallest of a path's per-round CPU figures (process)."
  echo "Gateway log: $GW_WARN ERROR/WARN lines."
  echo
  echo "<details><summary>Every round</summary>"
  echo
  echo "| round | scenario | conc. | (a) p50 µs | (a) CPU µs/req | (a) loops µs/req | (a) less idle | (b) p50 µs | (b) CPU µs/req | (b) loops µs/req | (b) less idle | (b)/(a) | errors a/b |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  awk '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.2f | %s/%s |\n", $1, $2, $3, $4, $5, $7, $8, $10, $11, $13, $14, $11 / $5, $6, $12 }' "$WORK/rounds"
  echo
  echo "</details>"
} >"$WORK/report.md"
cat "$WORK/report.md"
if [ -n "$OUT" ]; then cp "$WORK/report.md" "$OUT"; fi
