#!/usr/bin/env bash
# Relay benchmark: requests/s and added latency of the gateway versus calling the vendor simulator
# directly, non-streaming and streaming (20 chunks), chat completions (vendor B) and messages (vendor A),
# at concurrency 1 and 64.
# Usage: ./gw bench [--duration S] [--warmup S] [--jit-warmup S] [--reps N] [--only chat|messages] [--wait-quiet S]
#   --duration S     measured seconds per run (default 10)
#   --warmup S       unmeasured wrk run just before each measured run, same URL and concurrency (default 5)
#   --jit-warmup S   before anything is measured, drive every gateway scenario for S seconds in total so
#                    the JIT has compiled the relay path (default 30; the first requests run interpreted)
#   --reps N         measure each cell N times, direct and gateway alternating; the table shows the
#                    median of each column and a second table lists every repetition (default 1)
#   --only P         only the chat or only the messages scenarios (cross-protocol streams chat→A and
#                    messages→B are added automatically once the gateway serves them)
#   --wait-quiet S   before starting, wait up to S seconds for the 1-minute load average to drop to 1 or
#                    below (default 60; 0 = do not wait); a warning is printed and recorded if it does not
# Writes bench/results/relay-latest.md.
# Placement on the 2-core machine: the gateway on CPU 0; the simulator and wrk share CPU 1, in both
# the direct and the gateway runs, so the difference is the gateway's own cost. Anything else running on
# the machine distorts the numbers: the load average and the CPU used by other processes are recorded.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$ROOT/gateway/target/gateway.jar"
DURATION=10; WARMUP=5; JIT_WARMUP=30; REPS=1; ONLY=""; WAIT_QUIET=60
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) DURATION="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --jit-warmup) JIT_WARMUP="$2"; shift 2 ;;
    --reps) REPS="$2"; shift 2 ;;
    --only) ONLY="$2"; shift 2 ;;
    --wait-quiet) WAIT_QUIET="$2"; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
# ./gw bench has already put a JDK 25 first on the PATH; when run directly, find one the same way.
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
JAVA=$(find_java25)
[ -f "$JAR" ] || { echo "error: $JAR not found; build first (./gw build)" >&2; exit 1; }
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
command -v taskset >/dev/null || { echo "error: taskset (util-linux) is required for CPU pinning" >&2; exit 1; }
[ "$(nproc)" -ge 2 ] || { echo "error: needs at least 2 CPUs (gateway on CPU 0, simulator and wrk on CPU 1)" >&2; exit 1; }
SIM_PORT=${BENCH_SIM_PORT:-19090}; GW_PORT=${BENCH_GW_PORT:-18080}; KEY=pk-bench
LOGDIR="$(mktemp -d)"

# --- process bookkeeping: everything started here is stopped here, by pid, with kill -9 after a grace period
# (stop: bench/lib.sh).
SIM_PID=""; GW_PID=""; WRK_PID=""
cleanup() { stop "$WRK_PID" "$GW_PID" "$SIM_PID"; }
on_exit cleanup "$LOGDIR"

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for p in $SIM_PORT $GW_PORT; do
  if port_busy "$p"; then
    echo "error: port $p is already in use (another benchmark or gateway?); set BENCH_SIM_PORT/BENCH_GW_PORT" >&2; exit 1
  fi
done

# --- is the machine quiet? (the 1-minute average decays slowly: a previous run still shows for a minute or two)
read -r LOAD1 LOAD5 LOAD15 _ </proc/loadavg
waited=0
while [ "$waited" -lt "$WAIT_QUIET" ] && awk -v l="$LOAD1" 'BEGIN { exit !(l > 1.0) }'; do
  [ "$waited" -eq 0 ] && echo "load average $LOAD1 > 1: waiting up to ${WAIT_QUIET}s for the machine to quieten..." >&2
  sleep 5; waited=$((waited + 5))
  read -r LOAD1 LOAD5 LOAD15 _ </proc/loadavg
done
echo "load average: $LOAD1 $LOAD5 $LOAD15 (1/5/15 min), $(nproc) cores" >&2
# The load average also counts tasks blocked in the kernel (it can read 3 on an idle VM): measure CPU use too.
read -r b0 a0 < <(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
sleep 3
read -r b1 a1 < <(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
IDLE_BUSY=$(awk -v b=$((b1 - b0)) -v a=$((a1 - a0)) -v n="$(nproc)" 'BEGIN { printf "%.0f", (a > 0 ? 100 * n * b / a : 0) }')
echo "CPU in use before starting: ${IDLE_BUSY}% of one core (3 s sample)" >&2
QUIET_NOTE=""
if [ "$IDLE_BUSY" -gt 25 ]; then
  QUIET_NOTE="WARNING: ${IDLE_BUSY}% of a core was busy before the start: something else is running; the numbers are not trustworthy."
  echo "$QUIET_NOTE" >&2
fi
if awk -v l="$LOAD1" 'BEGIN { exit !(l > 1.0) }'; then
  QUIET_NOTE="${QUIET_NOTE:+$QUIET_NOTE }WARNING: load average $LOAD1 > 1 at the start (runnable or blocked tasks); check the CPU figures below."
  echo "WARNING: load average $LOAD1 > 1 at the start" >&2
fi

taskset -c 1 "$JAVA" -XX:+UseZGC -cp "$JAR" dev.modelgateway.sim.VendorSimulator --port "$SIM_PORT" >"$LOGDIR/sim.log" 2>&1 &
SIM_PID=$!
GATEWAY_PORT=$GW_PORT GATEWAY_MASTER_KEY=$KEY \
  OPENAI_BASE_URL=http://127.0.0.1:$SIM_PORT/openai/v1 OPENAI_API_KEY=sim-openai-key \
  ANTHROPIC_BASE_URL=http://127.0.0.1:$SIM_PORT/anthropic ANTHROPIC_API_KEY=sim-anthropic-key \
  taskset -c 0 "$JAVA" -XX:+UseZGC -Xmx1g -jar "$JAR" serve >"$LOGDIR/gateway.log" 2>&1 &
GW_PID=$!
up=""
for _ in $(seq 1 100); do
  kill -0 "$SIM_PID" 2>/dev/null || { echo "error: simulator exited:" >&2; tail -20 "$LOGDIR/sim.log" >&2; exit 1; }
  kill -0 "$GW_PID" 2>/dev/null || { echo "error: gateway exited:" >&2; tail -20 "$LOGDIR/gateway.log" >&2; exit 1; }
  if curl -sf "http://127.0.0.1:$GW_PORT/health" >/dev/null && port_busy "$SIM_PORT"; then up=1; break; fi
  sleep 0.2
done
[ -n "$up" ] || { echo "error: gateway or simulator not up after 20 s" >&2; tail -20 "$LOGDIR/gateway.log" >&2; exit 1; }

# --- scenarios: name | direct URL | direct key | direct body | gateway URL | gateway body | success marker
#     [| direct success marker, when the direct call speaks another protocol]
SIM=http://127.0.0.1:$SIM_PORT; GW=http://127.0.0.1:$GW_PORT/api/v1
chat_json_d='{"model":"vendorB-5.5","messages":[{"role":"user","content":"Hello, benchmark"}]}'
chat_json_g='{"model":"platform/vendorB-5.5","messages":[{"role":"user","content":"Hello, benchmark"}]}'
chat_stream_d='{"model":"vendorB-5.5","stream":true,"messages":[{"role":"user","content":"[[sim:chunks=20]] Hello"}]}'
chat_stream_g='{"model":"platform/vendorB-5.5","stream":true,"messages":[{"role":"user","content":"[[sim:chunks=20]] Hello"}]}'
msg_json_d='{"model":"vendorA-sonnet-5","max_tokens":256,"messages":[{"role":"user","content":"Hello, benchmark"}]}'
msg_json_g='{"model":"platform/vendorA-sonnet-5","max_tokens":256,"messages":[{"role":"user","content":"Hello, benchmark"}]}'
msg_stream_d='{"model":"vendorA-sonnet-5","max_tokens":256,"stream":true,"messages":[{"role":"user","content":"[[sim:chunks=20]] Hello"}]}'
msg_stream_g='{"model":"platform/vendorA-sonnet-5","max_tokens":256,"stream":true,"messages":[{"role":"user","content":"[[sim:chunks=20]] Hello"}]}'
SCENARIOS=()
if [ "$ONLY" != messages ]; then
  SCENARIOS+=("chat json|$SIM/openai/v1/chat/completions|sim-openai-key|$chat_json_d|$GW/chat/completions|$chat_json_g|\"chat.completion\"")
  SCENARIOS+=("chat stream|$SIM/openai/v1/chat/completions|sim-openai-key|$chat_stream_d|$GW/chat/completions|$chat_stream_g|data: [DONE]")
fi
if [ "$ONLY" != chat ]; then
  SCENARIOS+=("messages json|$SIM/anthropic/v1/messages|sim-anthropic-key|$msg_json_d|$GW/messages|$msg_json_g|\"stop_reason\"")
  SCENARIOS+=("messages stream|$SIM/anthropic/v1/messages|sim-anthropic-key|$msg_stream_d|$GW/messages|$msg_stream_g|event: message_stop")
fi

# Cross-protocol (translated) streams: measured only once the gateway serves them; skipped with a note before.
OPTIONAL=()
if [ "$ONLY" != messages ]; then
  OPTIONAL+=("chat→A stream|$SIM/anthropic/v1/messages|sim-anthropic-key|$msg_stream_d|$GW/chat/completions|${chat_stream_g//vendorB-5.5/vendorA-sonnet-5}|data: [DONE]|event: message_stop")
fi
if [ "$ONLY" != chat ]; then
  OPTIONAL+=("messages→B stream|$SIM/openai/v1/chat/completions|sim-openai-key|$chat_stream_d|$GW/messages|${msg_stream_g//vendorA-sonnet-5/vendorB-5.5}|event: message_stop|data: [DONE]")
fi

# Every scenario must answer 200 with a complete body, direct and through the gateway, before anything is
# measured: wrk only counts status codes, so a fast error path would otherwise look like a fast gateway.
check() { # url key body marker [optional] -> exits on failure, or returns 1 if optional
  local code
  code=$(curl -s -o "$LOGDIR/check.out" -w '%{http_code}' -H "Authorization: Bearer $2" -H 'Content-Type: application/json' \
    -H 'anthropic-version: 2023-06-01' -d "$3" "$1")
  if [ "$code" != 200 ] || ! grep -qF -- "$4" "$LOGDIR/check.out"; then
    if [ -n "${5:-}" ]; then SKIP_REASON="$code $(head -c 200 "$LOGDIR/check.out")"; return 1; fi
    echo "error: $1 answered $code without '$4':" >&2; head -c 600 "$LOGDIR/check.out" >&2; echo >&2; exit 1
  fi
}
for s in "${SCENARIOS[@]}"; do
  IFS='|' read -r name durl dkey dbody gurl gbody marker dmarker <<<"$s"
  check "$durl" "$dkey" "$dbody" "$marker"
  check "$gurl" "$KEY" "$gbody" "$marker"
done
SKIPPED=""
for s in ${OPTIONAL[@]+"${OPTIONAL[@]}"}; do
  IFS='|' read -r name durl dkey dbody gurl gbody marker dmarker <<<"$s"
  check "$durl" "$dkey" "$dbody" "${dmarker:-$marker}"
  if check "$gurl" "$KEY" "$gbody" "$marker" optional; then
    SCENARIOS+=("$s")
  else
    SKIPPED="${SKIPPED}- \`$name\` skipped: the gateway answered $SKIP_REASON"$'\n'
  fi
done

# wrk prints latency percentiles as e.g. "50%  123.00us" / "1.20ms"; convert to microseconds.
to_us() { awk -v v="$1" 'BEGIN { n=v+0; if (v ~ /us$/) print n; else if (v ~ /ms$/) print n*1000; else if (v ~ /s$/) print n*1000000; else print n }'; }

wrk_run() { # seconds url key body conns [--latency] -> $LOGDIR/wrk.out; runs in this shell so cleanup can stop wrk
  local secs=$1 url=$2 key=$3 body=$4 conns=$5; shift 5
  BENCH_BODY="$body" BENCH_KEY="$key" taskset -c 1 wrk -t1 -c"$conns" -d"${secs}s" "$@" -s "$ROOT/bench/post.lua" "$url" \
    >"$LOGDIR/wrk.out" 2>&1 &
  WRK_PID=$!
  wait "$WRK_PID" || { echo "error: wrk failed on $url:" >&2; cat "$LOGDIR/wrk.out" >&2; exit 1; }
  WRK_PID=""
}

run() { # url key body connections -> sets R_RPS R_P50 R_P99 (µs) R_ERR (non-2xx) R_SOCK (socket errors)
  local url=$1 key=$2 body=$3 conns=$4 out
  if [ "$WARMUP" -gt 0 ]; then wrk_run "$WARMUP" "$url" "$key" "$body" "$conns"; fi
  wrk_run "$DURATION" "$url" "$key" "$body" "$conns" --latency
  out=$(cat "$LOGDIR/wrk.out")
  R_RPS=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  R_P50=$(to_us "$(echo "$out" | awk '$1=="50%" {print $2}')")
  R_P99=$(to_us "$(echo "$out" | awk '$1=="99%" {print $2}')")
  R_ERR=$(echo "$out" | awk '/Non-2xx/ {print $5}'); R_ERR=${R_ERR:-0}
  R_SOCK=$(echo "$out" | awk -F'[ ,]+' '/Socket errors/ {print $4+$6+$8+$10}'); R_SOCK=${R_SOCK:-0}
  if [ -z "$R_RPS" ] || [ "$R_RPS" = "0.00" ]; then echo "error: no requests completed on $url:" >&2; echo "$out" >&2; exit 1; fi
}

# --- CPU used by everything else while we measure: total busy time (/proc/stat) minus our gateway,
# simulator and child processes (wrk, curl, awk). The load average cannot tell, since our own run keeps both
# cores busy.
HZ=$(getconf CLK_TCK)
cpu_busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
proc_cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
# `times` must run in this shell (a $(...) subshell starts with no reaped children): it covers wrk, curl, awk.
ours_cpu() { # -> OURS, in clock ticks
  times >"$LOGDIR/times"
  OURS=$(( $(proc_cpu "$GW_PID") + $(proc_cpu "$SIM_PID") + $(awk -v hz="$HZ" 'NR == 2 { t = 0
    for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%.0f\n", t * hz }' "$LOGDIR/times") ))
}
T0=$(date +%s); BUSY0=$(cpu_busy); ours_cpu; OURS0=$OURS

# --- JIT warm-up of the gateway: every scenario at moderate concurrency, nothing recorded.
if [ "$JIT_WARMUP" -gt 0 ]; then
  per=$(( (JIT_WARMUP + ${#SCENARIOS[@]} - 1) / ${#SCENARIOS[@]} ))
  echo "JIT warm-up: ${per}s per scenario through the gateway..." >&2
  for s in "${SCENARIOS[@]}"; do
    IFS='|' read -r name durl dkey dbody gurl gbody marker dmarker <<<"$s"
    wrk_run "$per" "$gurl" "$KEY" "$gbody" 16
  done
fi

median() { sort -g | awk '{ v[NR]=$1 } END { if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2 }'; }

RESULT="$ROOT/bench/results/relay-latest.md"
ROWS="$LOGDIR/rows"; RAW="$LOGDIR/raw"; : >"$ROWS"; : >"$RAW"
SOCK_TOTAL=0
for s in "${SCENARIOS[@]}"; do
  IFS='|' read -r name durl dkey dbody gurl gbody marker dmarker <<<"$s"
  for conns in 1 64; do
    : >"$LOGDIR/reps"
    for rep in $(seq 1 "$REPS"); do
      echo "$name c=$conns rep $rep/$REPS..." >&2
      run "$durl" "$dkey" "$dbody" "$conns"; drps=$R_RPS dp50=$R_P50 dp99=$R_P99 derr=$R_ERR dsock=$R_SOCK
      run "$gurl" "$KEY" "$gbody" "$conns"; grps=$R_RPS gp50=$R_P50 gp99=$R_P99 gerr=$R_ERR gsock=$R_SOCK
      echo "$drps $grps $dp50 $gp50 $dp99 $gp99 $((derr + gerr))" >>"$LOGDIR/reps"
      SOCK_TOTAL=$((SOCK_TOTAL + dsock + gsock))
      awk -v s="$name" -v c="$conns" -v r="$rep" -v dr="$drps" -v gr="$grps" -v d5="$dp50" -v g5="$gp50" -v d9="$dp99" -v g9="$gp99" -v e="$((derr + gerr))" \
        'BEGIN { printf "| %s | %d | %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %d |\n", s, c, r, dr, gr, d5, g5, d9, g9, e }' >>"$RAW"
    done
    col() { awk -v k="$1" '{ print $k }' "$LOGDIR/reps" | median; }
    awk -v s="$name" -v c="$conns" -v dr="$(col 1)" -v gr="$(col 2)" -v d5="$(col 3)" -v g5="$(col 4)" -v d9="$(col 5)" -v g9="$(col 6)" \
      -v e="$(awk '{ t += $7 } END { print t+0 }' "$LOGDIR/reps")" \
      'BEGIN { printf "| %s | %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %d |\n", s, c, dr, gr, d5, g5, g5-d5, d9, g9, g9-d9, e }' >>"$ROWS"
  done
done
RSS=$(ps -o rss= -p "$GW_PID" 2>/dev/null | tr -d ' ' || true)
T1=$(date +%s); BUSY1=$(cpu_busy); ours_cpu; OURS1=$OURS
FOREIGN=$(awk -v b=$((BUSY1 - BUSY0)) -v o=$((OURS1 - OURS0)) -v hz="$HZ" 'BEGIN { f = (b - o) / hz; print (f < 0 ? 0 : f) }')
FOREIGN_PCT=$(awk -v f="$FOREIGN" -v t=$((T1 - T0)) 'BEGIN { printf "%.0f", (t > 0 ? 100 * f / t : 0) }')
FOREIGN_NOTE="Other processes used ${FOREIGN} CPU-seconds during the $((T1 - T0)) s of warm-up and measurement (${FOREIGN_PCT}% of one core on average)."
if [ "$FOREIGN_PCT" -gt 10 ]; then
  FOREIGN_NOTE="WARNING: $FOREIGN_NOTE Above 10%: the machine was not quiet, rerun before trusting these numbers."
fi
echo "$FOREIGN_NOTE" >&2
{
  echo "# Relay benchmark ($(date -u +%Y-%m-%dT%H:%MZ), ${DURATION}s per run, $(nproc) cores)"
  echo
  echo "Command: \`./gw bench --duration $DURATION --warmup $WARMUP --jit-warmup $JIT_WARMUP --reps $REPS${ONLY:+ --only $ONLY}\`."
  echo "Gateway pinned to CPU 0, simulator and wrk to CPU 1. JIT warm-up ${JIT_WARMUP}s over all scenarios, then"
  echo "a ${WARMUP}s unmeasured wrk run before each ${DURATION}s measured run."
  [ "$REPS" -gt 1 ] && echo "Each cell is the median of $REPS repetitions (direct and gateway alternating); non-2xx is their sum."
  echo "Load average (1/5 min) at the start: $LOAD1/$LOAD5."
  [ -n "$QUIET_NOTE" ] && { echo; echo "**$QUIET_NOTE**"; }
  echo
  case "$FOREIGN_NOTE" in WARNING*) echo "**$FOREIGN_NOTE**" ;; *) echo "$FOREIGN_NOTE" ;; esac
  echo
  echo "| scenario | conc. | direct req/s | gateway req/s | direct p50 µs | gateway p50 µs | added p50 µs | direct p99 µs | gateway p99 µs | added p99 µs | non-2xx |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  cat "$ROWS"
  echo
  echo "Gateway resident memory after the runs: $(( ${RSS:-0} / 1024 )) MiB."
  if [ -n "$SKIPPED" ]; then echo; echo "Cross-protocol scenarios (direct = the upstream vendor's own API):"; echo; printf '%s' "$SKIPPED"; fi
  [ "$SOCK_TOTAL" -gt 0 ] && echo "wrk socket errors (connect/read/write/timeout) over all runs: $SOCK_TOTAL."
  if [ "$REPS" -gt 1 ]; then
    echo
    echo "Every repetition:"
    echo
    echo "| scenario | conc. | rep | direct req/s | gateway req/s | direct p50 µs | gateway p50 µs | direct p99 µs | gateway p99 µs | non-2xx |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    cat "$RAW"
  fi
  true
} >"$RESULT"
cat "$RESULT"
