#!/usr/bin/env bash
# Accounts overhead: latency and throughput of the gateway at 64 concurrent requests with
#   (a) the master key: no rate limiter, the ledger still written for every request, versus
#   (b) a stored key with generous rpm/tpm limits: key lookup (cached), limiter and ledger,
# once on SQLite with in-process counters and once on PostgreSQL with counters in Redis.
# Non-streaming chat completions to vendor B on the simulator; wrk with 64 connections.
# Usage: bench/accounts-overhead.sh [--duration S] [--warmup S] [--reps N] [--stores "sqlite postgres"]
#   --duration S   measured seconds per run (default 10)
#   --warmup S     unmeasured run before each measured one, same key (default 3)
#   --reps N       runs per cell, (a) and (b) alternating; the table shows medians (default 3)
#   --stores LIST  which stores to measure (default "sqlite postgres"; postgres needs 127.0.0.1:5432 and :6379,
#                  which scripts/services.sh, run first, starts and gives the tests' gateway_test role and database)
# BENCH_GW_JAVA_OPTS adds JVM options to the gateway, e.g. a flight recording for profiling.
# Writes bench/results/accounts-overhead.md. Gateway on CPU 0; simulator, wrk and (for the run) the local
# redis-server on CPU 1, so CPU 0 is the gateway's alone. Besides latency and throughput it reports the gateway's
# CPU time per request (from /proc, steadier than throughput on a shared machine) and Redis's.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$ROOT/gateway/target/gateway.jar"
DURATION=10; WARMUP=3; REPS=3; STORES="sqlite postgres"
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) DURATION="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --reps) REPS="$2"; shift 2 ;;
    --stores) STORES="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
JAVA="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
[ -x "$JAVA" ] || { echo "error: no Java 25 at $JAVA (set JAVA_HOME)" >&2; exit 1; }
[ -f "$JAR" ] || { echo "error: $JAR not found; build first (./gw build)" >&2; exit 1; }
for tool in wrk jq; do
  command -v $tool >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $tool >/dev/null; }
done
for tool in curl taskset; do command -v $tool >/dev/null || { echo "error: $tool is required" >&2; exit 1; }; done
case " $STORES " in *" postgres "*) "$ROOT/scripts/services.sh" ;; esac
SIM_PORT=${BENCH_SIM_PORT:-19190}; GW_PORT=${BENCH_GW_PORT:-18180}; MASTER=pk-bench-master
RUN_ID="$(date +%s)$$"; LOGDIR="$(mktemp -d)"; OUT="$ROOT/bench/results/accounts-overhead.md"
# The role and database scripts/services.sh creates for the tests; the run works in a schema of its own.
PG_CONN="postgresql://gateway_test:gateway_test@127.0.0.1:5432/gateway_test"
BODY='{"model":"platform/vendorB-5.5","max_completion_tokens":64,"messages":[{"role":"user","content":"Hello gateway"}]}'

SIM_PID=""; GW_PID=""; PG_SCHEMA=""; REDIS_PREFIX=""; REDIS_PID="$(pgrep -x redis-server | head -1 || true)"; REDIS_MASK=""
# stop (bench/lib.sh) waits up to 15 s: the gateway writes its ledger before it exits on SIGTERM
BENCH_STOP_GRACE_S=15
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
cleanup() {
  stop "$GW_PID"; stop "$SIM_PID"
  [ -n "$REDIS_MASK" ] && taskset -a -p "$REDIS_MASK" "$REDIS_PID" >/dev/null 2>&1 || true
  [ -n "$PG_SCHEMA" ] && psql -q "$PG_CONN" -c "DROP SCHEMA $PG_SCHEMA CASCADE" >/dev/null 2>&1 || true
  [ -n "$REDIS_PREFIX" ] && redis-cli -h 127.0.0.1 --scan --pattern "$REDIS_PREFIX*" | xargs -r redis-cli -h 127.0.0.1 del >/dev/null || true
}
on_exit cleanup "$LOGDIR"

wait_http() { # url: up to 30 s
  for _ in $(seq 1 300); do curl -s -o /dev/null "$1" && return 0; sleep 0.1; done
  echo "error: $1 did not come up" >&2; return 1
}

proc_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; } # user + system, clock ticks
HZ=$(getconf CLK_TCK)

# wrk → "p50_ms p99_ms req_per_s non2xx gateway_cpu_us_per_request redis_cpu_us_per_request"
measure() { # key seconds
  local g0 r0 g1 r1
  g0=$(proc_ticks "$GW_PID"); r0=$(proc_ticks "${REDIS_PID:-0}")
  BENCH_BODY="$BODY" BENCH_KEY="$1" taskset -c 1 wrk -t2 -c64 -d"$2s" --latency -s "$ROOT/bench/accounts-post.lua" \
    "http://127.0.0.1:$GW_PORT/api/v1/chat/completions" >"$LOGDIR/wrk.out"
  g1=$(proc_ticks "$GW_PID"); r1=$(proc_ticks "${REDIS_PID:-0}")
  awk -v g=$((g1 - g0)) -v r=$((r1 - r0)) -v hz="$HZ" '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    $1 == "50%" { p50 = ms($2) } $1 == "99%" { p99 = ms($2) }
    $2 == "requests" && $3 == "in" { n = $1 }
    $1 == "Requests/sec:" { rps = $2 } /Non-2xx/ { bad = $NF }
    END { printf "%.2f %.2f %.0f %d %.0f %.0f\n", p50, p99, rps, bad, g * 1e6 / hz / n, r * 1e6 / hz / n }' "$LOGDIR/wrk.out"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

read -r LOAD1 LOAD5 LOAD15 _ </proc/loadavg
echo "load average at start: $LOAD1 $LOAD5 $LOAD15" >&2

if [ -n "$REDIS_PID" ]; then
  REDIS_MASK=$(taskset -p "$REDIS_PID" | awk '{ print $NF }')
  taskset -a -p -c 1 "$REDIS_PID" >/dev/null || REDIS_MASK=""
fi

taskset -c 1 "$JAVA" -XX:+UseZGC -cp "$JAR" dev.modelgateway.sim.VendorSimulator --port "$SIM_PORT" >"$LOGDIR/sim.log" 2>&1 &
SIM_PID=$!
wait_http "http://127.0.0.1:$SIM_PORT/_sim/requests"

ROWS=""; REPS_TABLE=""; ROWS_LEDGER=""
for store in $STORES; do
  case "$store" in
    sqlite) DB_URL="jdbc:sqlite:$LOGDIR/bench.db"; REDIS_URL="" ;;
    postgres)
      PG_SCHEMA="bench_accounts_$RUN_ID"
      psql -q "$PG_CONN" -c "CREATE SCHEMA $PG_SCHEMA" >/dev/null
      DB_URL="jdbc:postgresql://127.0.0.1:5432/gateway_test?user=gateway_test&password=gateway_test&currentSchema=$PG_SCHEMA"
      REDIS_PREFIX="bench-$RUN_ID:"; REDIS_URL="redis://127.0.0.1:6379?key_prefix=$REDIS_PREFIX" ;;
    *) echo "unknown store $store" >&2; exit 2 ;;
  esac
  GATEWAY_PORT=$GW_PORT GATEWAY_MASTER_KEY=$MASTER GATEWAY_ACCESS_LOG=OFF \
    GATEWAY_DATABASE_URL="$DB_URL" GATEWAY_REDIS_URL="$REDIS_URL" \
    OPENAI_BASE_URL=http://127.0.0.1:$SIM_PORT/openai/v1 OPENAI_API_KEY=sim-openai-key \
    taskset -c 0 "$JAVA" -XX:+UseZGC -Xmx1g ${BENCH_GW_JAVA_OPTS:-} -jar "$JAR" serve >"$LOGDIR/gateway-$store.log" 2>&1 &
  GW_PID=$!
  wait_http "http://127.0.0.1:$GW_PORT/api/v1/models"
  STORED=$(curl -sf -X POST "http://127.0.0.1:$GW_PORT/api/v1/admin/keys" -H "Authorization: Bearer $MASTER" \
    -H 'Content-Type: application/json' -d '{"name":"bench","rpm":100000000,"tpm":100000000000}' | jq -r .key)
  echo "[$store] JIT warm-up" >&2
  measure "$MASTER" 10 >/dev/null; measure "$STORED" 10 >/dev/null

  : >"$LOGDIR/a"; : >"$LOGDIR/b"
  for rep in $(seq 1 "$REPS"); do
    for variant in a b; do
      key=$MASTER; [ "$variant" = b ] && key=$STORED
      measure "$key" "$WARMUP" >/dev/null
      result=$(measure "$key" "$DURATION")
      echo "[$store] rep $rep ($variant): p50 p99 req/s non-2xx gateway-µs/req redis-µs/req = $result" >&2
      echo "$result" >>"$LOGDIR/$variant"
      [ "$(echo "$result" | awk '{ print $4 }')" = 0 ] || { echo "error: non-2xx answers; see $LOGDIR" >&2; exit 1; }
      REPS_TABLE+="| $store | $rep | $variant | $(echo "$result" | awk '{ printf "%s | %s | %s | %s | %s | %s", $1, $2, $3, $4, $5, $6 }') |"$'\n'
    done
  done
  for variant in a b; do
    label="master key (ledger only)"; [ "$variant" = b ] && label="stored key (limiter + ledger)"
    p50=$(awk '{ print $1 }' "$LOGDIR/$variant" | median); p99=$(awk '{ print $2 }' "$LOGDIR/$variant" | median)
    rps=$(awk '{ print $3 }' "$LOGDIR/$variant" | median); bad=$(awk '{ s += $4 } END { print s }' "$LOGDIR/$variant")
    gcpu=$(awk '{ print $5 }' "$LOGDIR/$variant" | median); rcpu=$(awk '{ print $6 }' "$LOGDIR/$variant" | median)
    ROWS+="| $store | $label | $p50 | $p99 | $rps | $gcpu | $rcpu | $bad |"$'\n'
  done
  LEDGER=$(curl -sf "http://127.0.0.1:$GW_PORT/api/v1/admin/usage" -H "Authorization: Bearer $MASTER" | jq .total.requests)
  stop "$GW_PID"; GW_PID=""
  echo "[$store] ledger rows in the report window: $LEDGER" >&2
  ROWS_LEDGER+="$store: $LEDGER ledger rows before shutdown. "
done

read -r END1 END5 END15 _ </proc/loadavg
cat >"$OUT" <<EOF
# Accounts overhead at 64 concurrent requests

\`bench/accounts-overhead.sh --duration $DURATION --warmup $WARMUP --reps $REPS --stores "$STORES"\`, $(date -u +%Y-%m-%dT%H:%M:%SZ),
$(nproc) cores, load average $LOAD1 at the start and $END1 at the end. Non-streaming chat completions
(\`platform/vendorB-5.5\`, 64-token cap) through the gateway to the simulator; wrk \`-t2 -c64\`. Gateway pinned to
CPU 0 (two event loops, ZGC, access log off); simulator, wrk and the local redis-server share CPU 1. CPU µs per
request is the process's user + system time over the measured run divided by the requests wrk completed.

* **(a) master key**: no key lookup, no rate limiter; one ledger row per request.
* **(b) stored key**: key found in the 5 s in-memory key cache, rpm 100,000,000 / tpm 100,000,000,000 (never refuses), token
  estimate taken at admission and settled after the answer, \`x-ratelimit-*\` headers; one ledger row per request.

Medians of $REPS runs of ${DURATION}s each, (a) and (b) alternating:

| store | key | p50 ms | p99 ms | req/s | gateway CPU µs/req | Redis CPU µs/req | non-2xx (all runs) |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |
$ROWS
$ROWS_LEDGER

Every run:

| store | rep | key | p50 ms | p99 ms | req/s | non-2xx | gateway CPU µs/req | Redis CPU µs/req |
| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |
$REPS_TABLE
EOF
echo "wrote $OUT" >&2
