#!/usr/bin/env bash
# Side-by-side benchmark (issue 13): the vendor simulator called directly, through an nginx proxy_pass and
# through the gateway, on the same hop with the same wrk settings, in one run; then a slow-stream soak.
# Usage: bench/side-by-side.sh [--quick] [--only relay|soak] [--soak 1000,5000,10000] [--duration S]
#                              [--warmup S] [--jit-warmup S] [--soak-duration S] [--wait-quiet S] [--out FILE]
#   --duration S       measured seconds per relay run (default 10)
#   --warmup S         unmeasured wrk run just before each measured relay run (default 3)
#   --jit-warmup S     before anything is measured, drive every gateway scenario for S seconds in total (default 30)
#   --soak LIST        concurrent slow streams, comma-separated (default 1000,5000,10000)
#   --soak-duration S  measured seconds per soak run (default 20; each stream lasts about 2 s)
#   --only P           relay (the 8 scenarios × concurrency 1 and 64) or soak (the slow streams) only
#   --quick            --duration 3 --warmup 1 --jit-warmup 10 --soak 1000 --soak-duration 8 (a smoke run)
#   --wait-quiet S     wait up to S seconds for the 1-minute load average to drop to 1 first (default 60)
#   --out FILE         where the results go (default bench/results/side-by-side-latest.md, or with --only
#                      side-by-side-<relay|soak>-latest.md, so that a partial run keeps the full one)
# Ports: BENCH_SIM_PORT (19191), BENCH_NGINX_PORT (18181),
# BENCH_GW_PORT (18182). BENCH_GW_ENV="NAME=value ..." adds environment to the gateway (e.g. GATEWAY_ACCESS_LOG=OFF).
# Placement: nginx and the gateway on CPU 0 (only one of them under load at a time), the simulator and wrk on
# CPU 1 for every target, so a difference between targets is the proxy's own cost (BENCH_PROXY_CPUS,
# BENCH_SIM_CPUS, BENCH_WRK_CPUS change it). At 10,000 streams nginx needs a file-descriptor hard limit above
# 21,000 (ulimit -Hn: root), the gateway 11,024; a target the limit cannot hold is skipped and named in the results.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$ROOT/gateway/target/gateway.jar"
ARGS="$*"
DURATION=10; WARMUP=3; JIT_WARMUP=30; SOAK_LEVELS=1000,5000,10000; SOAK_DURATION=20; ONLY=""; WAIT_QUIET=60; OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) DURATION="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --jit-warmup) JIT_WARMUP="$2"; shift 2 ;;
    --soak) SOAK_LEVELS="$2"; shift 2 ;;
    --soak-duration) SOAK_DURATION="$2"; shift 2 ;;
    --only) ONLY="$2"; shift 2 ;;
    --quick) DURATION=3; WARMUP=1; JIT_WARMUP=10; SOAK_LEVELS=1000; SOAK_DURATION=8; shift ;;
    --wait-quiet) WAIT_QUIET="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
case "$ONLY" in ""|relay|soak) ;; *) echo "error: --only relay|soak" >&2; exit 2 ;; esac
DO_RELAY=1; DO_SOAK=1
[ "$ONLY" = soak ] && DO_RELAY=""
[ "$ONLY" = relay ] && DO_SOAK=""
IFS=',' read -r -a SOAKS <<<"$SOAK_LEVELS"
MAX_SOAK=0
for n in "${SOAKS[@]}"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "error: --soak takes numbers, e.g. 1000,5000" >&2; exit 2; }
  [ "$n" -gt "$MAX_SOAK" ] && MAX_SOAK=$n
done
STARTED=$(date +%s)

# --- tools: a Java 25 for the simulator (the gateway runs through ./gw, which finds its own), wrk, nginx.
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
JAVA=$(find_java25)
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
NGINX=/usr/sbin/nginx
[ -x "$NGINX" ] || { apt-get update -qq && apt-get install -y -qq nginx-light >/dev/null; }
[ -x "$NGINX" ] || { echo "error: $NGINX not found (apt-get install nginx-light)" >&2; exit 1; }
command -v taskset >/dev/null || { echo "error: taskset (util-linux) is required for CPU pinning" >&2; exit 1; }
[ "$(nproc)" -ge 2 ] || { echo "error: needs at least 2 CPUs (proxies on CPU 0, simulator and wrk on CPU 1)" >&2; exit 1; }
build_if_stale "$ROOT"

# --- file descriptors: N streams are N sockets in wrk and in the simulator, 2 N in a proxy (caller + upstream).
# Raising the hard limit needs CAP_SYS_RESOURCE (root normally has it; some containers drop it): a level the
# limit cannot hold is skipped and named in the results, rather than measured as the limit's failures.
FD_WANT=$(( MAX_SOAK * 2 + 4096 )); [ "$FD_WANT" -lt 65536 ] && FD_WANT=65536
if [ "$(ulimit -Hn)" != unlimited ] && [ "$(ulimit -Hn)" -lt "$FD_WANT" ]; then
  ulimit -Hn "$FD_WANT" 2>/dev/null || true
fi
ulimit -n "$FD_WANT" 2>/dev/null || ulimit -n "$(ulimit -Hn)"
FD_LIMIT=$(ulimit -n); [ "$FD_LIMIT" = unlimited ] && FD_LIMIT=$FD_WANT
# The gateway speaks HTTP/2 upstream (below): a stream costs it one descriptor, n + 1024 in all; nginx's
# HTTP/1.1 upstream costs two. A level only nginx cannot hold is still measured on direct and the gateway.
FD_NOTE=""; KEPT=(); NGX_SKIP=()
for n in "${SOAKS[@]}"; do
  if [ -z "$DO_SOAK" ] || [ $(( n * 2 + 1024 )) -le "$FD_LIMIT" ]; then KEPT+=("$n")
  elif [ $(( n + 1024 )) -le "$FD_LIMIT" ]; then
    KEPT+=("$n"); NGX_SKIP+=("$n")
    FD_NOTE="${FD_NOTE}nginx was not run at $n streams: it needs $(( n * 2 + 1024 )) file descriptors (two per stream, HTTP/1.1 upstream) and the limit is $FD_LIMIT (ulimit -Hn could not be raised: run with CAP_SYS_RESOURCE). "
  else
    FD_NOTE="${FD_NOTE}The soak at $n streams was skipped: the gateway needs $(( n + 1024 )) file descriptors and the limit is $FD_LIMIT (ulimit -Hn could not be raised: run with CAP_SYS_RESOURCE, or pick --soak $(( (FD_LIMIT - 1024) / 1000 * 1000 )) or less). "
  fi
done
if [ -n "$FD_NOTE" ]; then
  echo "WARNING: $FD_NOTE" >&2
  SOAKS=(${KEPT[@]+"${KEPT[@]}"})
  if [ ${#SOAKS[@]} -eq 0 ]; then
    [ "$ONLY" = soak ] && { echo "error: no soak level fits the file-descriptor limit" >&2; exit 1; }
    DO_SOAK=""
  fi
fi

# CPU placement (taskset lists). The defaults fit 2 cores; on a larger machine give the simulator and wrk
# their own cores, e.g. BENCH_SIM_CPUS=1 BENCH_WRK_CPUS=2,3, so that they are not the soak's bottleneck.
PROXY_CPUS=${BENCH_PROXY_CPUS:-0}; SIM_CPUS=${BENCH_SIM_CPUS:-1}; WRK_CPUS=${BENCH_WRK_CPUS:-1}
SIM_PORT=${BENCH_SIM_PORT:-19191}; NGX_PORT=${BENCH_NGINX_PORT:-18181}; GW_PORT=${BENCH_GW_PORT:-18182}; KEY=pk-bench
WORK="$(mktemp -d)"; chmod 755 "$WORK"
LOGDIR="$WORK"

# --- process bookkeeping: everything started here is stopped here, by pid, with kill -9 after a grace period
# (stop: bench/lib.sh).
SIM_PID=""; GW_PID=""; NGX_PID=""; NGX_WORKERS=""; WRK_PID=""; SAMPLER_PID=""
cleanup() {
  stop "$WRK_PID" "$SAMPLER_PID"
  stop "$GW_PID" "$NGX_PID" "$SIM_PID"
  # nginx workers are the master's children: if the master had to be killed they would be left behind.
  # shellcheck disable=SC2086
  [ -n "$NGX_WORKERS" ] && stop $NGX_WORKERS
}
on_exit cleanup "$WORK"

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for p in $SIM_PORT $NGX_PORT $GW_PORT; do
  if port_busy "$p"; then
    echo "error: port $p is already in use (another benchmark or gateway?); set BENCH_SIM_PORT/BENCH_NGINX_PORT/BENCH_GW_PORT" >&2
    exit 1
  fi
done

# --- is the machine quiet? (as in run.sh: the load average, then 3 s of real CPU use)
read -r LOAD1 LOAD5 LOAD15 _ </proc/loadavg
waited=0
while [ "$waited" -lt "$WAIT_QUIET" ] && awk -v l="$LOAD1" 'BEGIN { exit !(l > 1.0) }'; do
  [ "$waited" -eq 0 ] && echo "load average $LOAD1 > 1: waiting up to ${WAIT_QUIET}s for the machine to quieten..." >&2
  sleep 5; waited=$((waited + 5))
  read -r LOAD1 LOAD5 LOAD15 _ </proc/loadavg
done
echo "load average: $LOAD1 $LOAD5 $LOAD15 (1/5/15 min), $(nproc) cores" >&2
# user + nice + system only: the time the kernel spends in softirq for loopback traffic is not in any
# process's utime/stime, so counting it would show our own network load as someone else's.
cpu_busy() { awk '/^cpu / { print $2 + $3 + $4 }' /proc/stat; }
cpu_all() { awk '/^cpu / { print $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }
b0=$(cpu_busy); a0=$(cpu_all); sleep 3; b1=$(cpu_busy); a1=$(cpu_all)
IDLE_BUSY=$(awk -v b=$((b1 - b0)) -v a=$((a1 - a0)) -v n="$(nproc)" 'BEGIN { printf "%.0f", (a > 0 ? 100 * n * b / a : 0) }')
echo "CPU in use before starting: ${IDLE_BUSY}% of one core (3 s sample)" >&2
QUIET_NOTE=""
if [ "$IDLE_BUSY" -gt 25 ]; then
  QUIET_NOTE="WARNING: ${IDLE_BUSY}% of a core was busy before the start: something else is running; compare the CPU µs/request columns, not req/s or latency."
  echo "$QUIET_NOTE" >&2
fi
if awk -v l="$LOAD1" 'BEGIN { exit !(l > 1.0) }'; then
  QUIET_NOTE="${QUIET_NOTE:+$QUIET_NOTE }WARNING: load average $LOAD1 > 1 at the start."
  echo "WARNING: load average $LOAD1 > 1 at the start" >&2
fi

# --- the simulator (CPU 1), as lib.sh's start_sim runs it
start_sim "$JAVA" "$JAR" "$SIM_CPUS" "$SIM_PORT" "$WORK" "$LOGDIR/sim.log"

# --- nginx (CPU 0): Debian's nginx-light as a plain reverse proxy, one worker, keep-alive to the simulator,
# nothing buffered, no access log; it swaps the caller's key for the vendor's, as a gateway does.
NGX_CONNS=$(( MAX_SOAK * 2 + 4096 )); [ "$NGX_CONNS" -lt 25000 ] && NGX_CONNS=25000
NGX_NOFILE=$(( NGX_CONNS + 1024 )); [ "$NGX_NOFILE" -gt "$FD_LIMIT" ] && NGX_NOFILE=$FD_LIMIT
mkdir -p "$WORK/nginx"
cat >"$WORK/nginx/nginx.conf" <<EOF
daemon off;
master_process on;
worker_processes 1;
worker_rlimit_nofile $NGX_NOFILE;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events {
    worker_connections $NGX_CONNS;
    multi_accept on;
}
http {
    access_log off;
    client_body_temp_path $WORK/nginx/body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;
    keepalive_requests 1000000;
    keepalive_timeout 360s;
    upstream sim {
        server 127.0.0.1:$SIM_PORT;
        keepalive 1024;
        keepalive_requests 1000000;
        keepalive_timeout 360s;
    }
    server {
        listen 127.0.0.1:$NGX_PORT backlog=4096;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_buffering off;
        proxy_request_buffering off;
        proxy_read_timeout 360s;
        location = /api/v1/chat/completions {
            proxy_set_header Authorization "Bearer sim-openai-key";
            proxy_pass http://sim/openai/v1/chat/completions;
        }
        location = /api/v1/messages {
            proxy_set_header Authorization "Bearer sim-anthropic-key";
            proxy_pass http://sim/anthropic/v1/messages;
        }
    }
}
EOF
"$NGINX" -t -q -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" \
  || { echo "error: nginx rejected the generated configuration ($WORK/nginx/nginx.conf)" >&2; exit 1; }
taskset -c "$PROXY_CPUS" "$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" >"$LOGDIR/nginx.log" 2>&1 &
NGX_PID=$!

# --- the gateway (CPU 0), started as the README says: ./gw serve, its JVM flags, configured by environment.
# wrk is one client address holding up to MAX_SOAK connections: the per-client cap is off (as behind a load
# balancer) and the total cap is nginx's worker_connections, so both proxies accept the soak's connections.
# ./gw cds to the repository: the SQLite file goes to the work directory instead of ./data.
mkdir -p "$WORK/gateway"
# The gateway speaks HTTP/2 to the simulator (sim_vendors_yaml), as it does by ALPN to the real vendors, whose
# APIs all offer it (docs/configuration.md, "Vendor connection pools"). nginx's proxy_pass speaks HTTP/1.1
# upstream only: one upstream connection per stream.
sim_vendors_yaml "$SIM_PORT" >"$WORK/gateway/gateway.yaml"
# shellcheck disable=SC2086
env GATEWAY_PORT="$GW_PORT" GATEWAY_MASTER_KEY="$KEY" GATEWAY_DATABASE_URL="jdbc:sqlite:$WORK/gateway/gateway.db" GATEWAY_LEDGER_JOURNAL_DIR="$WORK/gateway/journal" \
  GATEWAY_MAX_CONNECTIONS_PER_CLIENT=0 GATEWAY_MAX_CONNECTIONS="$NGX_CONNS" \
  OPENAI_BASE_URL="http://127.0.0.1:$SIM_PORT/openai/v1" OPENAI_API_KEY=sim-openai-key \
  ANTHROPIC_BASE_URL="http://127.0.0.1:$SIM_PORT/anthropic" ANTHROPIC_API_KEY=sim-anthropic-key \
  ${BENCH_GW_ENV:-} taskset -c "$PROXY_CPUS" "$ROOT/gw" serve --config "$WORK/gateway/gateway.yaml" >"$LOGDIR/gateway.log" 2>&1 &
GW_PID=$!
up=""
for _ in $(seq 1 300); do
  kill -0 "$SIM_PID" 2>/dev/null || { echo "error: simulator exited:" >&2; tail -20 "$LOGDIR/sim.log" >&2; exit 1; }
  kill -0 "$NGX_PID" 2>/dev/null || { echo "error: nginx exited:" >&2; tail -20 "$WORK/nginx/error.log" >&2; exit 1; }
  kill -0 "$GW_PID" 2>/dev/null || { echo "error: gateway exited:" >&2; tail -20 "$LOGDIR/gateway.log" >&2; exit 1; }
  if curl -sf "http://127.0.0.1:$GW_PORT/health" >/dev/null && port_busy "$SIM_PORT" && port_busy "$NGX_PORT"; then up=1; break; fi
  sleep 0.2
done
[ -n "$up" ] || { echo "error: gateway, nginx or simulator not up after 60 s" >&2; tail -20 "$LOGDIR/gateway.log" >&2; exit 1; }
NGX_WORKERS=$(cat "/proc/$NGX_PID/task/$NGX_PID/children")
GW_CMD=$(tr '\0' ' ' <"/proc/$GW_PID/cmdline")
case "$GW_CMD" in *java*) ;; *) echo "error: pid $GW_PID is not the gateway's JVM: $GW_CMD" >&2; exit 1 ;; esac

# --- per-process figures from /proc: CPU ticks (utime + stime) and memory (kB), nginx = master + workers.
HZ=$(getconf CLK_TCK)
pids_of() { # target -> the pids whose CPU and memory count for it
  case "$1" in
    gateway) echo "$GW_PID" ;;
    nginx) NGX_WORKERS=$(cat "/proc/$NGX_PID/task/$NGX_PID/children" 2>/dev/null || echo "$NGX_WORKERS"); echo "$NGX_PID $NGX_WORKERS" ;;
    direct) echo "$SIM_PID" ;;
  esac
}
cpu_ticks() { local t=0 p; for p in "$@"; do t=$(( t + $(awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || echo 0) )); done; echo "$t"; }
mem_kb() { # field pid... -> sum of that /proc/PID/status field (VmRSS, VmHWM)
  local f=$1 t=0 p; shift
  for p in "$@"; do t=$(( t + $(awk -v f="$f:" '$1 == f { print $2 }' "/proc/$p/status" 2>/dev/null || echo 0) )); done
  echo "$t"
}
start_sampler() { # pid... : max VmRSS (kB) every 0.5 s into $LOGDIR/rss.max (VmHWM cannot be reset between runs)
  # shellcheck disable=SC2086
  ( max=0; while :; do r=$(mem_kb VmRSS "$@"); [ "$r" -gt "$max" ] && { max=$r; echo "$max" >"$LOGDIR/rss.max"; }; sleep 0.5; done ) &
  SAMPLER_PID=$!
}
stop_sampler() { stop "$SAMPLER_PID"; SAMPLER_PID=""; R_RSS=$(cat "$LOGDIR/rss.max" 2>/dev/null || echo 0); rm -f "$LOGDIR/rss.max"; }
settle() { # target: wait (≤ 10 s) until it is idle, so work left from one run does not land in the next
  local pids t0 t1
  pids=$(pids_of "$1")
  for _ in $(seq 1 20); do
    # shellcheck disable=SC2086
    t0=$(cpu_ticks $pids); sleep 0.5; t1=$(cpu_ticks $pids)
    [ $(( (t1 - t0) * 20 )) -le "$HZ" ] && return 0   # under 10% of a core
  done
}

# --- scenarios. A path is what nginx and the direct runs call (the vendor's own API and model names).
SIM=http://127.0.0.1:$SIM_PORT; NGX=http://127.0.0.1:$NGX_PORT/api/v1; GW=http://127.0.0.1:$GW_PORT/api/v1
declare -A D_URL D_KEY BODY N_URL MARK
D_URL[chat_json]=$SIM/openai/v1/chat/completions; D_URL[chat_stream]=${D_URL[chat_json]}
D_URL[msg_json]=$SIM/anthropic/v1/messages; D_URL[msg_stream]=${D_URL[msg_json]}
D_KEY[chat_json]=sim-openai-key; D_KEY[chat_stream]=sim-openai-key; D_KEY[msg_json]=sim-anthropic-key; D_KEY[msg_stream]=sim-anthropic-key
N_URL[chat_json]=$NGX/chat/completions; N_URL[chat_stream]=$NGX/chat/completions
N_URL[msg_json]=$NGX/messages; N_URL[msg_stream]=$NGX/messages
BODY[chat_json]='{"model":"vendorB-5.5","messages":[{"role":"user","content":"Hello, benchmark"}]}'
BODY[chat_stream]='{"model":"vendorB-5.5","stream":true,"messages":[{"role":"user","content":"[[sim:chunks=20]] Hello"}]}'
BODY[msg_json]='{"model":"vendorA-sonnet-5","max_tokens":256,"messages":[{"role":"user","content":"Hello, benchmark"}]}'
BODY[msg_stream]='{"model":"vendorA-sonnet-5","max_tokens":256,"stream":true,"messages":[{"role":"user","content":"[[sim:chunks=20]] Hello"}]}'
MARK[chat_json]='"chat.completion"'; MARK[chat_stream]='data: [DONE]'; MARK[msg_json]='"stop_reason"'; MARK[msg_stream]='event: message_stop'
PATHS=(chat_json chat_stream msg_json msg_stream)
# Gateway scenarios: name | caller's path (nginx's figure) | vendor's path (the direct figure) | gateway URL | body.
# The caller's protocol decides the URL and the success marker; the model decides the vendor.
gw_body() { # path model -> the path's body with a platform model
  local b=${BODY[$1]}; b=${b//\"vendorB-5.5\"/\"platform/$2\"}; echo "${b//\"vendorA-sonnet-5\"/\"platform/$2\"}"
}
SCEN=(
  "chat json|chat_json|chat_json|$GW/chat/completions|$(gw_body chat_json vendorB-5.5)"
  "chat stream|chat_stream|chat_stream|$GW/chat/completions|$(gw_body chat_stream vendorB-5.5)"
  "messages json|msg_json|msg_json|$GW/messages|$(gw_body msg_json vendorA-sonnet-5)"
  "messages stream|msg_stream|msg_stream|$GW/messages|$(gw_body msg_stream vendorA-sonnet-5)"
  "chat→A json|chat_json|msg_json|$GW/chat/completions|$(gw_body chat_json vendorA-sonnet-5)"
  "chat→A stream|chat_stream|msg_stream|$GW/chat/completions|$(gw_body chat_stream vendorA-sonnet-5)"
  "messages→B json|msg_json|chat_json|$GW/messages|$(gw_body msg_json vendorB-5.5)"
  "messages→B stream|msg_stream|chat_stream|$GW/messages|$(gw_body msg_stream vendorB-5.5)"
)
SLOW='[[sim:chunks=20;chunk_delay_ms=100]]'
SOAK_DBODY=${BODY[chat_stream]//\[\[sim:chunks=20\]\]/$SLOW}
SOAK_GBODY=$(gw_body chat_stream vendorB-5.5); SOAK_GBODY=${SOAK_GBODY//\[\[sim:chunks=20\]\]/$SLOW}

# Every scenario must answer 200 with a complete body on every target before anything is measured: wrk only
# counts status codes, so a fast error path would otherwise look like a fast proxy.
check() { # url key body marker
  local code
  code=$(curl -s -m 30 -o "$LOGDIR/check.out" -w '%{http_code}' -H "Authorization: Bearer $2" \
    -H 'Content-Type: application/json' -H 'anthropic-version: 2023-06-01' -d "$3" "$1")
  if [ "$code" != 200 ] || ! grep -qF -- "$4" "$LOGDIR/check.out"; then
    echo "error: $1 answered $code without '$4':" >&2; head -c 600 "$LOGDIR/check.out" >&2; echo >&2; exit 1
  fi
}
echo "checking every scenario on every target..." >&2
for p in "${PATHS[@]}"; do
  check "${D_URL[$p]}" "${D_KEY[$p]}" "${BODY[$p]}" "${MARK[$p]}"
  check "${N_URL[$p]}" "$KEY" "${BODY[$p]}" "${MARK[$p]}"
done
for s in "${SCEN[@]}"; do
  IFS='|' read -r name cpath vpath gurl gbody <<<"$s"
  check "$gurl" "$KEY" "$gbody" "${MARK[$cpath]}"
done
if [ -n "$DO_SOAK" ]; then
  check "${D_URL[chat_stream]}" sim-openai-key "$SOAK_DBODY" 'data: [DONE]'
  check "${N_URL[chat_stream]}" "$KEY" "$SOAK_DBODY" 'data: [DONE]'
  check "$GW/chat/completions" "$KEY" "$SOAK_GBODY" 'data: [DONE]'
fi
# One slow stream on the idle simulator (best of 3: its first answers run interpreted) is the soak's yardstick:
# the simulator's 20 chunks are 23 SSE events, 100 ms apart.
STREAM_US=0; STALL_US=0
if [ -n "$DO_SOAK" ]; then
  for _ in 1 2 3; do
    t=$(curl -s -m 30 -o /dev/null -w '%{time_total}' -H 'Authorization: Bearer sim-openai-key' \
      -H 'Content-Type: application/json' -d "$SOAK_DBODY" "${D_URL[chat_stream]}" | awk '{ printf "%.0f", $1 * 1e6 }')
    { [ "$STREAM_US" -eq 0 ] || [ "$t" -lt "$STREAM_US" ]; } && STREAM_US=$t
  done
  STALL_US=$(( 3 * STREAM_US ))
fi
sleep 2
IDLE_GW=$(mem_kb VmRSS $(pids_of gateway)); IDLE_NGX=$(mem_kb VmRSS $(pids_of nginx))

# wrk prints durations as e.g. "123.00us", "1.20ms", "2.01s", "1.05m"; convert to microseconds.
to_us() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) print n; else if (v ~ /ms$/) print n * 1000;
  else if (v ~ /m$/) print n * 60000000; else if (v ~ /s$/) print n * 1000000; else print n }'; }
wrk_run() { # lua seconds url key body conns [wrk options] -> $LOGDIR/wrk.out; in this shell so cleanup can stop wrk
  local lua=$1 secs=$2 url=$3 key=$4 body=$5 conns=$6; shift 6
  BENCH_BODY="$body" BENCH_KEY="$key" taskset -c "$WRK_CPUS" wrk "$@" -c"$conns" -d"${secs}s" -s "$ROOT/bench/$lua" "$url" \
    >"$LOGDIR/wrk.out" 2>&1 &
  WRK_PID=$!
  wait "$WRK_PID" || { echo "error: wrk failed on $url:" >&2; cat "$LOGDIR/wrk.out" >&2; exit 1; }
  WRK_PID=""
}
parse_wrk() { # [zero-ok] -> R_RPS R_N (requests) R_P50 R_P99 (µs) R_ERR (non-2xx) R_SOCK (connect+read+write) R_TMO (timeouts)
  local out; out=$(cat "$LOGDIR/wrk.out")
  R_RPS=$(echo "$out" | awk '/Requests\/sec/ { print $2 }')
  R_N=$(echo "$out" | awk '/requests in/ { print $1 }')
  R_P50=$(to_us "$(echo "$out" | awk '$1 == "50%" { print $2 }')")
  R_P99=$(to_us "$(echo "$out" | awk '$1 == "99%" { print $2 }')")
  R_ERR=$(echo "$out" | awk '/Non-2xx/ { print $5 }'); R_ERR=${R_ERR:-0}
  R_SOCK=$(echo "$out" | awk -F'[ ,]+' '/Socket errors/ { print $4 + $6 + $8 }'); R_SOCK=${R_SOCK:-0}
  R_TMO=$(echo "$out" | awk -F'[ ,]+' '/Socket errors/ { print $10 }'); R_TMO=${R_TMO:-0}
  [ -n "$R_N" ] || { echo "error: wrk printed no summary:" >&2; echo "$out" >&2; exit 1; }
  if [ "$R_N" = 0 ] && [ -z "${1:-}" ]; then echo "error: no requests completed:" >&2; echo "$out" >&2; exit 1; fi
}
measure() { # target lua seconds url key body conns [wrk options] -> R_* and R_CPU (µs per request; direct: the simulator's)
  local target=$1 pids c0 c1; shift
  pids=$(pids_of "$target")
  # shellcheck disable=SC2086
  c0=$(cpu_ticks $pids)
  wrk_run "$@"
  # shellcheck disable=SC2086
  c1=$(cpu_ticks $pids)
  parse_wrk "$ZERO_OK"
  R_CPU_S=$(awk -v t=$((c1 - c0)) -v hz="$HZ" 'BEGIN { printf "%.2f", t / hz }')
  R_CPU=$(awk -v t=$((c1 - c0)) -v hz="$HZ" -v n="$R_N" 'BEGIN { if (n > 0) printf "%.1f", t * 1000000 / hz / n; else print "–" }')
}

ZERO_OK=""   # a relay run that completes nothing is a broken set-up; a soak run that does is a result
T0=$(date +%s); BUSY0=$(cpu_busy)
times >"$LOGDIR/times0"
# `times` must run in this shell (a $(...) subshell has no reaped children): it covers wrk, curl, the samplers.
children_ticks() { times >"$LOGDIR/times"; awk -v hz="$HZ" 'NR == 2 { t = 0
  for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%.0f\n", t * hz }' "$LOGDIR/times"; }
OURS0=$(( $(cpu_ticks $(pids_of gateway) $(pids_of nginx) "$SIM_PID") + $(children_ticks) ))

# --- relay: per path and concurrency, direct, nginx, the gateway's native scenario and the gateway's
# translated scenario whose caller speaks that path's protocol, back to back (so a busy moment hits all alike).
declare -A RES   # "target|key|conns" -> "rps n p50 p99 err sock tmo cpu"
relay_cell() { # target key url apikey body conns
  local target=$1 key=$2 url=$3 apikey=$4 body=$5 conns=$6
  echo "  $target $key c=$conns" >&2
  [ "$WARMUP" -gt 0 ] && wrk_run post.lua "$WARMUP" "$url" "$apikey" "$body" "$conns" -t1
  measure "$target" post.lua "$DURATION" "$url" "$apikey" "$body" "$conns" -t1 --latency
  RES["$target|$key|$conns"]="$R_RPS $R_N $R_P50 $R_P99 $R_ERR $R_SOCK $R_TMO $R_CPU"
  settle "$target"
}
if [ -n "$DO_RELAY" ]; then
  if [ "$JIT_WARMUP" -gt 0 ]; then
    per=$(( (JIT_WARMUP + ${#SCEN[@]} - 1) / ${#SCEN[@]} ))
    echo "JIT warm-up: ${per}s per scenario through the gateway..." >&2
    for s in "${SCEN[@]}"; do
      IFS='|' read -r name cpath vpath gurl gbody <<<"$s"
      wrk_run post.lua "$per" "$gurl" "$KEY" "$gbody" 16 -t1
    done
    settle gateway
  fi
  for p in "${PATHS[@]}"; do
    for conns in 1 64; do
      echo "relay: $p c=$conns" >&2
      relay_cell direct "$p" "${D_URL[$p]}" "${D_KEY[$p]}" "${BODY[$p]}" "$conns"
      relay_cell nginx "$p" "${N_URL[$p]}" "$KEY" "${BODY[$p]}" "$conns"
      for s in "${SCEN[@]}"; do
        IFS='|' read -r name cpath vpath gurl gbody <<<"$s"
        [ "$cpath" = "$p" ] && relay_cell gateway "$name" "$gurl" "$KEY" "$gbody" "$conns"
      done
    done
  done
  HWM_GW=$(mem_kb VmHWM $(pids_of gateway)); HWM_NGX=$(mem_kb VmHWM $(pids_of nginx))
  RSS_GW_AFTER=$(mem_kb VmRSS $(pids_of gateway))
fi


# --- slow-stream soak: N connections, each running 20-chunk streams 100 ms apart back to back. wrk's --timeout
# is longer than the run, so every answer is in its histogram; soak.lua counts the streams that ended properly
# (ok), the 200s cut short (incomplete) and the answers slower than 3 × one stream on an idle simulator (stalled).
declare -A SOAK  # "target|N" -> "answers ok ok/s p50 p99 non2xx sock tmo stalled incomplete cpu/ok rss"
soak_cell() { # target url key body N
  local target=$1 url=$2 key=$3 body=$4 n=$5 line ok
  echo "soak: $target, $n streams" >&2
  # shellcheck disable=SC2046
  start_sampler $(pids_of "$target")
  BENCH_MARKER='data: [DONE]' BENCH_STALL_US=$STALL_US \
    measure "$target" soak.lua "$SOAK_DURATION" "$url" "$key" "$body" "$n" -t2 --latency --timeout "$(( SOAK_DURATION + 60 ))s"
  stop_sampler
  line=$(grep '^SOAK ' "$LOGDIR/wrk.out" || echo "SOAK ok=0 stalled=? incomplete=?")
  ok=$(echo "$line" | sed 's/.*ok=\([^ ]*\).*/\1/')
  [ "$R_N" = 0 ] && { R_P50=0; R_P99=0; }
  SOAK["$target|$n"]="$R_N $ok $(awk -v o="$ok" -v d="$SOAK_DURATION" 'BEGIN { printf "%.0f", o / d }') $R_P50 $R_P99 \
$R_ERR $R_SOCK $R_TMO $(echo "$line" | sed 's/.*stalled=\([^ ]*\).*/\1/') $(echo "$line" | sed 's/.*incomplete=\([^ ]*\).*/\1/') \
$(awk -v c="$R_CPU_S" -v o="$ok" 'BEGIN { if (o > 0) printf "%.0f", c * 1e6 / o; else print "–" }') $R_RSS"
  settle "$target"; [ "$target" = direct ] || settle direct   # the simulator serves every target
  sleep 2   # let the closed connections drain before the next thousands connect
}
if [ -n "$DO_SOAK" ]; then
  ZERO_OK=1
  if [ -z "$DO_RELAY" ] && [ "$JIT_WARMUP" -gt 0 ]; then
    echo "JIT warm-up: ${JIT_WARMUP}s of streams through the gateway..." >&2
    wrk_run post.lua "$JIT_WARMUP" "$GW/chat/completions" "$KEY" "$(gw_body chat_stream vendorB-5.5)" 16 -t1
    settle gateway
  fi
  for n in "${SOAKS[@]}"; do
    soak_cell direct "${D_URL[chat_stream]}" sim-openai-key "$SOAK_DBODY" "$n"
    [[ " ${NGX_SKIP[*]} " == *" $n "* ]] || soak_cell nginx "${N_URL[chat_stream]}" "$KEY" "$SOAK_DBODY" "$n"
    soak_cell gateway "$GW/chat/completions" "$KEY" "$SOAK_GBODY" "$n"
  done
fi

# --- CPU used by everything else meanwhile: total busy time minus our proxies, simulator and children.
T1=$(date +%s); BUSY1=$(cpu_busy)
OURS1=$(( $(cpu_ticks $(pids_of gateway) $(pids_of nginx) "$SIM_PID") + $(children_ticks) ))
FOREIGN=$(awk -v b=$((BUSY1 - BUSY0)) -v o=$((OURS1 - OURS0)) -v hz="$HZ" 'BEGIN { f = (b - o) / hz; printf "%.0f", (f < 0 ? 0 : f) }')
FOREIGN_PCT=$(awk -v f="$FOREIGN" -v t=$((T1 - T0)) 'BEGIN { printf "%.0f", (t > 0 ? 100 * f / t : 0) }')
FOREIGN_NOTE="Other processes used $FOREIGN CPU-seconds during the $((T1 - T0)) s of measurement (${FOREIGN_PCT}% of one core on average)."
if [ "$FOREIGN_PCT" -gt 10 ]; then
  FOREIGN_NOTE="WARNING: $FOREIGN_NOTE Above 10%: req/s and latency are disturbed; CPU µs/request (per process) much less so."
fi
echo "$FOREIGN_NOTE" >&2
GW_ERRORS=$(grep -cE ' (ERROR|WARN) ' "$LOGDIR/gateway.log" || true)
GW_TOP=$(grep -E ' (ERROR|WARN) ' "$LOGDIR/gateway.log" | sed -E 's/^.* (ERROR|WARN) /\1 /' | cut -c1-140 | sort | uniq -c | sort -rn | head -3 || true)

# --- the results file
mib() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
f0() { awk -v v="$1" 'BEGIN { if (v == "" || v == "-") print "–"; else printf "%.0f", v }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print "–"; else printf "%.2f", a / b }'; }
field() { echo "$1" | awk -v k="$2" '{ print $k }'; }   # "rps n p50 p99 err sock tmo cpu" -> column k
RESULT="${OUT:-$ROOT/bench/results/side-by-side${ONLY:+-$ONLY}-latest.md}"
{
  echo "# Side-by-side: direct, nginx proxy_pass, gateway ($(date -u +%Y-%m-%dT%H:%MZ))"
  echo
  echo "Command: \`bench/side-by-side.sh${ARGS:+ $ARGS}\` (took $(( ($(date +%s) - STARTED + 30) / 60 )) min, the wait for a quiet machine included);"
  echo "repository at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet HEAD -- gateway vendor-sim 2>/dev/null || echo ' with local changes to gateway/ or vendor-sim/')."
  echo
  echo "Machine: $(nproc) cores ($(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n1)), Linux $(uname -r);"
  echo "$("$JAVA" -version 2>&1 | head -n1); $("$NGINX" -v 2>&1 | sed 's/^nginx version: //'); $(wrk -v 2>&1 | head -n1 | cut -d' ' -f1-2)."
  echo "nginx and the gateway on CPU $PROXY_CPUS (one of them under load at a time), the simulator on CPU $SIM_CPUS, wrk on CPU $WRK_CPUS."
  echo "Gateway: \`taskset -c $PROXY_CPUS ./gw serve\`, whose JVM runs \`${GW_CMD% }\`;"
  echo "environment as in run.sh plus \`GATEWAY_MAX_CONNECTIONS_PER_CLIENT=0 GATEWAY_MAX_CONNECTIONS=$NGX_CONNS\`${BENCH_GW_ENV:+ \`$BENCH_GW_ENV\`}"
  echo "(wrk is one client address; nginx has worker_connections $NGX_CONNS). nginx: one worker, \`proxy_http_version 1.1\`,"
  echo "upstream \`keepalive 1024\`, \`proxy_buffering off\`, \`proxy_request_buffering off\`, \`access_log off\`; the gateway"
  echo "keeps its access log (GATEWAY_ACCESS_LOG=INFO, the default). Simulator: \`java $SIM_JAVA_OPTS\`."
  echo "Load average (1/5 min) at the start: $LOAD1/$LOAD5; CPU busy before the start: ${IDLE_BUSY}% of one core."
  [ -n "$QUIET_NOTE" ] && { echo; echo "**$QUIET_NOTE**"; }
  [ -n "$FD_NOTE" ] && { echo; echo "**${FD_NOTE% }**"; }
  echo
  case "$FOREIGN_NOTE" in WARNING*) echo "**$FOREIGN_NOTE**" ;; *) echo "$FOREIGN_NOTE" ;; esac
  if [ -n "$DO_RELAY" ]; then
    echo
    echo "## Relay: 8 scenarios at 1 and 64 connections"
    echo
    echo "JIT warm-up ${JIT_WARMUP}s over the gateway's scenarios; per cell a ${WARMUP}s unmeasured wrk run, then ${DURATION}s measured"
    echo "(\`wrk -t1\`). Streams are 20 chunks without delay. CPU µs/req = the proxy process's utime + stime over the"
    echo "measured run ÷ requests completed (nginx: master + worker). *Added* = the target's p50 − the p50 of calling"
    echo "its upstream directly. Errors = non-2xx + socket errors, direct/nginx/gateway."
    echo
    echo "| scenario | conc. | direct req/s | nginx req/s | gateway req/s | direct p50 µs | nginx p50 µs | gateway p50 µs | nginx added p50 µs | gateway added p50 µs | direct p99 µs | nginx p99 µs | gateway p99 µs | nginx CPU µs/req | gateway CPU µs/req | gateway ÷ nginx CPU | errors |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for s in "${SCEN[@]}"; do
      IFS='|' read -r name cpath vpath gurl gbody <<<"$s"
      for conns in 1 64; do
        d=${RES[direct|$vpath|$conns]}; dn=${RES[direct|$cpath|$conns]}; ng=${RES[nginx|$cpath|$conns]}; g=${RES[gateway|$name|$conns]}
        mark=""; [ "$cpath" != "$vpath" ] && mark=" ¹"
        echo "| $name$mark | $conns | $(f0 "$(field "$d" 1)") | $(f0 "$(field "$ng" 1)") | $(f0 "$(field "$g" 1)") \
| $(f0 "$(field "$d" 3)") | $(f0 "$(field "$ng" 3)") | $(f0 "$(field "$g" 3)") \
| $(f0 "$(awk -v a="$(field "$ng" 3)" -v b="$(field "$dn" 3)" 'BEGIN { print a - b }')") \
| $(f0 "$(awk -v a="$(field "$g" 3)" -v b="$(field "$d" 3)" 'BEGIN { print a - b }')") \
| $(f0 "$(field "$d" 4)") | $(f0 "$(field "$ng" 4)") | $(f0 "$(field "$g" 4)") \
| $(field "$ng" 8) | $(field "$g" 8) | $(ratio "$(field "$g" 8)" "$(field "$ng" 8)") \
| $(( $(field "$d" 5) + $(field "$d" 6) ))/$(( $(field "$ng" 5) + $(field "$ng" 6) ))/$(( $(field "$g" 5) + $(field "$g" 6) )) |"
      done
    done
    echo
    echo "¹ Translated: nginx cannot translate, so its figures are its native path of the caller's protocol (chat →"
    echo "vendor B, messages → vendor A), as issue 13's targets are stated; direct is the upstream vendor's own API, so"
    echo "the gateway's *added* includes the translation."
    echo
    echo "### Against issue 13's targets"
    echo
    echo "CPU per request: native paths ≤ 1.5 × nginx's, translated ≤ 3 × nginx's native; added p50 at one connection ≤ nginx's."
    echo
    echo "| scenario | CPU ratio c=1 | CPU ratio c=64 | target | gateway added p50 c=1 µs | nginx added p50 c=1 µs | added ratio |"
    echo "|---|---|---|---|---|---|---|"
    for s in "${SCEN[@]}"; do
      IFS='|' read -r name cpath vpath gurl gbody <<<"$s"
      tgt="≤ 1.5"; [ "$cpath" != "$vpath" ] && tgt="≤ 3"
      ga=$(awk -v a="$(field "${RES[gateway|$name|1]}" 3)" -v b="$(field "${RES[direct|$vpath|1]}" 3)" 'BEGIN { print a - b }')
      na=$(awk -v a="$(field "${RES[nginx|$cpath|1]}" 3)" -v b="$(field "${RES[direct|$cpath|1]}" 3)" 'BEGIN { print a - b }')
      echo "| $name | $(ratio "$(field "${RES[gateway|$name|1]}" 8)" "$(field "${RES[nginx|$cpath|1]}" 8)") \
| $(ratio "$(field "${RES[gateway|$name|64]}" 8)" "$(field "${RES[nginx|$cpath|64]}" 8)") | $tgt | $(f0 "$ga") | $(f0 "$na") | $(ratio "$ga" "$na") |"
    done
    echo
    echo "### Memory"
    echo
    echo "| process | idle RSS MiB | peak RSS over the relay runs MiB (VmHWM) | RSS after the relay MiB |"
    echo "|---|---|---|---|"
    echo "| gateway | $(mib "$IDLE_GW") | $(mib "$HWM_GW") | $(mib "$RSS_GW_AFTER") |"
    echo "| nginx (master + worker) | $(mib "$IDLE_NGX") | $(mib "$HWM_NGX") | – |"
    echo
    echo "Targets: idle ≤ 100 MiB, under 64-connection load ≤ 200 MiB. Idle = after start-up and one check request per"
    echo "scenario; the peak covers the JIT warm-up (16 connections) and every relay run (up to 64)."
  else
    echo
    echo "Idle RSS: gateway $(mib "$IDLE_GW") MiB, nginx (master + worker) $(mib "$IDLE_NGX") MiB."
  fi
  if [ -n "$DO_SOAK" ]; then
    echo
    echo "## Slow-stream soak: native chat streams, 20 chunks 100 ms apart"
    echo
    echo "\`wrk -t2 -c N -d ${SOAK_DURATION}s --timeout $(( SOAK_DURATION + 60 ))s\` with \`bench/soak.lua\`: each connection runs one stream after"
    echo "another. One stream on the idle simulator takes $(awk -v v="$STREAM_US" 'BEGIN { printf "%.2f", v / 1e6 }') s (23 events 100 ms apart). *answers* = responses wrk saw end (200 or"
    echo "not; streams still running when wrk stops are not counted); *ok* = 200s whose body ends with \`data: [DONE]\`;"
    echo "*incomplete* = 200s without it; *stalled* = answers that took over $(awk -v v="$STALL_US" 'BEGIN { printf "%.1f", v / 1e6 }') s (3 × one stream); *socket errors* ="
    echo "connect + read + write. p50/p99 are over every answer (wrk keeps one histogram: fast refusals pull them down)."
    echo "CPU µs per ok stream and max RSS (VmRSS sampled every 0.5 s) are the proxy's (nginx: master + worker), for"
    echo "the direct rows the simulator's. Targets at 10,000: 0 errors, no stall, p50/p99 within 10% of direct, RSS ≤ 512 MiB."
    echo
    echo "| streams | target | answers | ok | ok/s | stalled | incomplete | non-2xx | socket errors | p50 s | p99 s | p50 vs direct | p99 vs direct | CPU µs per ok stream | max RSS MiB |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for n in "${SOAKS[@]}"; do
      d=${SOAK[direct|$n]}
      for t in direct nginx gateway; do
        r=${SOAK[$t|$n]:-}
        if [ -z "$r" ]; then echo "| $n | $t | not run: too few file descriptors (below) |||||||||||||"; continue; fi
        vs50="–"; vs99="–"; label="$t"
        if [ "$t" = direct ]; then
          label="direct (simulator)"
        else
          vs50=$(awk -v a="$(field "$r" 4)" -v b="$(field "$d" 4)" 'BEGIN { printf "%+.0f%%", (b > 0 ? 100 * (a - b) / b : 0) }')
          vs99=$(awk -v a="$(field "$r" 5)" -v b="$(field "$d" 5)" 'BEGIN { printf "%+.0f%%", (b > 0 ? 100 * (a - b) / b : 0) }')
        fi
        p50=$(awk -v v="$(field "$r" 4)" 'BEGIN { if (v > 0) printf "%.2f", v / 1e6; else print "–" }')
        p99=$(awk -v v="$(field "$r" 5)" 'BEGIN { if (v > 0) printf "%.2f", v / 1e6; else print "–" }')
        [ "$p50" = "–" ] && { vs50="–"; vs99="–"; }
        echo "| $n | $label | $(field "$r" 1) | $(field "$r" 2) | $(field "$r" 3) | $(field "$r" 9) | $(field "$r" 10) | $(field "$r" 6) | $(field "$r" 7) \
| $p50 | $p99 | $vs50 | $vs99 | $(field "$r" 11) | $(mib "$(field "$r" 12)") |"
      done
    done
    slow=""
    for n in "${SOAKS[@]}"; do
      awk -v p="$(field "${SOAK[direct|$n]}" 4)" -v s="$STREAM_US" 'BEGIN { exit !(p == 0 || p > 1.1 * s) }' && slow="$slow $n"
    done
    if [ -n "$slow" ]; then
      echo
      echo "**At$slow streams the direct run's p50 is over 10% above one stream on the idle simulator: the simulator and wrk"
      echo "(CPU $SIM_CPUS / $WRK_CPUS) cannot carry that many streams, so at that level the proxies are measured against a"
      echo "saturated upstream and load generator (give them their own cores: BENCH_SIM_CPUS, BENCH_WRK_CPUS).**"
    fi
  fi
  echo
  echo "Gateway log: $GW_ERRORS ERROR/WARN lines.${GW_TOP:+ Most frequent:}"
  [ -n "$GW_TOP" ] && { echo; echo '```'; echo "$GW_TOP"; echo '```'; }
  true
} >"$RESULT"
cat "$RESULT"
