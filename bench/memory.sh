#!/usr/bin/env bash
# Where the gateway's memory goes (docs/performance.md, "Where the memory targets stop"): `./gw serve` on CPU 0
# in front of the vendor simulator on CPU 1, as side-by-side.sh places them, with native memory tracking on;
# its resident memory split by what holds it, at three moments: idle after one request per scenario, the peak
# of a 64-connection load, and (with --streams) the peak of N concurrent slow streams.
# Usage: bench/memory.sh [--load-seconds S] [--streams N] [--stream-seconds S] [--out FILE]
#   --load-seconds S    seconds of wrk -c64 per scenario (4 scenarios; default 15)
#   --streams N         also hold N slow streams (20 chunks 100 ms apart; default none)
#   --stream-seconds S  how long (default 20)
#   --out FILE          where the table goes (default bench/results/memory-latest.md)
# Sources: VmRSS and VmHWM, the start-up cache's and libjvm's resident pages from /proc/PID/smaps, the rest from `jcmd PID VM.native_memory summary` (committed): the Java heap, compiled code,
# the C2 compiler's arenas ("Arena Chunk"), metaspace, thread stacks and Netty's direct buffers ("Other").
# At a peak the split is the one sampled closest after the highest VmRSS (at most one sample every 2 s, from CPU 1).
# NMT itself holds ≈ 2 MiB, counted in the RSS.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib.sh
. "$ROOT/bench/lib.sh"
ARGS="$*"
LOAD_S=15; STREAMS=0; STREAM_S=20; OUT="$ROOT/bench/results/memory-latest.md"
while [ $# -gt 0 ]; do
  case "$1" in
    --load-seconds) LOAD_S="$2"; shift 2 ;;
    --streams) STREAMS="$2"; shift 2 ;;
    --stream-seconds) STREAM_S="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
JAVA=$(find_java25)
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
[ "$(nproc)" -ge 2 ] || { echo "error: needs at least 2 CPUs (gateway on CPU 0, simulator and wrk on CPU 1)" >&2; exit 1; }
if [ "$STREAMS" -gt 0 ]; then
  ulimit -n $(( STREAMS + 4096 )) 2>/dev/null || { echo "error: $STREAMS streams need $(( STREAMS + 4096 )) descriptors (ulimit -Hn: $(ulimit -Hn))" >&2; exit 1; }
fi
build_if_stale "$ROOT"

WORK=$(mktemp -d); SIM_PORT=${BENCH_SIM_PORT:-19191}; GW_PORT=${BENCH_GW_PORT:-18182}
KEY="pk-bench-memory-$(date +%s)-0123456789abcdef"
SIM_PID=""; GW_PID=""; SAMPLER_PID=""; WRK_PID=""
cleanup() { stop "$WRK_PID" "$SAMPLER_PID" "$GW_PID" "$SIM_PID"; }
on_exit cleanup "$WORK"

start_sim "$JAVA" "$ROOT/gateway/target/gateway.jar" 1 "$SIM_PORT" "$WORK" "$WORK/sim.log"
sim_vendors_yaml "$SIM_PORT" >"$WORK/gateway.yaml"
env GATEWAY_PORT="$GW_PORT" GATEWAY_MASTER_KEY="$KEY" GATEWAY_DATABASE_URL="jdbc:sqlite:$WORK/gateway.db" \
  GATEWAY_LEDGER_JOURNAL_DIR="$WORK/journal" GATEWAY_MAX_CONNECTIONS_PER_CLIENT=0 \
  OPENAI_API_KEY=sim-openai-key ANTHROPIC_API_KEY=sim-anthropic-key \
  JAVA_OPTS="${JAVA_OPTS:-} -XX:NativeMemoryTracking=summary" \
  taskset -c 0 "$ROOT/gw" serve --config "$WORK/gateway.yaml" >"$WORK/gateway.log" 2>&1 &
GW_PID=$!
up "http://127.0.0.1:$SIM_PORT/"
for _ in $(seq 1 600); do curl -sf "http://127.0.0.1:$GW_PORT/health" >/dev/null && break; sleep 0.1; done
JVM=$GW_PID # ./gw serve execs the JVM
grep -q java "/proc/$JVM/cmdline" 2>/dev/null || { echo "error: the gateway did not start" >&2; tail -20 "$WORK/gateway.log" >&2; exit 1; }

# --- the split: one line "rss cache heap code arenas libjvm metaspace threads direct" in MiB
kib() { # NMT category file -> its committed KiB (0 if absent)
  awk -v k="$1" '$0 ~ "^-? *"k" \\(" && match($0, /committed=[0-9]+KB/) { v = substr($0, RSTART + 10, RLENGTH - 12) }
    END { print v + 0 }' "$2"
}
split_now() { # -> one line of MiB figures, read while the process runs
  local nmt="$WORK/nmt.txt"
  taskset -c 1 jcmd "$JVM" VM.native_memory summary >"$nmt" 2>/dev/null || return 1
  local rss smaps
  rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$JVM/status")
  smaps=$(awk '/^[0-9a-f]+-[0-9a-f]+ / { n = $6 } /^Rss:/ {
      if (n ~ /\.aot$/) c += $2; else if (n ~ /libjvm\.so$/) j += $2 }
    END { print c + 0, j + 0 }' "/proc/$JVM/smaps")
  read -r cache libjvm <<<"$smaps"
  echo "$rss $cache $(kib 'Java Heap' "$nmt") $(kib Code "$nmt") $(kib 'Arena Chunk' "$nmt") $libjvm $(kib Metaspace "$nmt") $(kib Thread "$nmt") $(kib Other "$nmt")" |
    awk '{ for (i = 1; i <= NF; i++) printf "%s%.0f", (i > 1 ? " " : ""), $i / 1024; print "" }'
}
# peak_sampler FILE: VmRSS every 0.5 s; after each new maximum, the split (at most every 2 s) into FILE
peak_sampler() {
  ( max=0; last=0
    while :; do
      r=$(awk '/^VmRSS:/ { print $2 }' "/proc/$JVM/status" 2>/dev/null || echo 0)
      if [ "$r" -gt "$max" ]; then max=$r; fresh=1; fi
      if [ -n "${fresh:-}" ] && [ $(( SECONDS - last )) -ge 2 ]; then
        s=$(split_now) && { echo "$s" >"$1"; last=$SECONDS; fresh=""; }
      fi
      sleep 0.5
    done ) &
  SAMPLER_PID=$!
}

req() { # path body
  curl -s -m 30 -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
    -H 'anthropic-version: 2023-06-01' -d "$2" "http://127.0.0.1:$GW_PORT/api/v1/$1"
}
chat_json() { echo "{\"model\":\"platform/$1\",\"messages\":[{\"role\":\"user\",\"content\":\"Hello, benchmark\"}]}"; }
chat_stream() { echo "{\"model\":\"platform/$1\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"$2 Hello\"}]}"; }
msg_json() { echo "{\"model\":\"platform/$1\",\"max_tokens\":256,\"messages\":[{\"role\":\"user\",\"content\":\"Hello, benchmark\"}]}"; }
msg_stream() { echo "{\"model\":\"platform/$1\",\"max_tokens\":256,\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"$2 Hello\"}]}"; }

# --- idle: one request per scenario of side-by-side.sh (both protocols, native and translated, JSON and SSE)
for m in vendorB-5.5 vendorA-sonnet-5; do
  for r in "chat/completions|$(chat_json $m)" "chat/completions|$(chat_stream $m '[[sim:chunks=20]]')" \
           "messages|$(msg_json $m)" "messages|$(msg_stream $m '[[sim:chunks=20]]')"; do
    code=$(req "${r%%|*}" "${r#*|}")
    [ "$code" = 200 ] || { echo "error: ${r%%|*} with $m answered $code" >&2; tail -20 "$WORK/gateway.log" >&2; exit 1; }
  done
done
sleep 2
IDLE=$(split_now)

# --- 64 connections: chat JSON, chat -> A stream, chat stream, messages -> B stream, LOAD_S seconds each
cat >"$WORK/post.lua" <<'EOF'
wrk.method = "POST"
wrk.body = os.getenv("BENCH_BODY")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("BENCH_KEY")
wrk.headers["anthropic-version"] = "2023-06-01"
EOF
peak_sampler "$WORK/peak64"
for r in "chat/completions|$(chat_json vendorB-5.5)" "chat/completions|$(chat_stream vendorA-sonnet-5 '[[sim:chunks=20]]')" \
         "chat/completions|$(chat_stream vendorB-5.5 '[[sim:chunks=20]]')" "messages|$(msg_stream vendorB-5.5 '[[sim:chunks=20]]')"; do
  BENCH_BODY="${r#*|}" BENCH_KEY="$KEY" taskset -c 1 wrk -t1 -c64 -d"${LOAD_S}s" -s "$WORK/post.lua" \
    "http://127.0.0.1:$GW_PORT/api/v1/${r%%|*}" >"$WORK/wrk.out" 2>&1
  grep -q "Non-2xx" "$WORK/wrk.out" && { echo "error: non-2xx answers under load:" >&2; cat "$WORK/wrk.out" >&2; exit 1; }
done
stop "$SAMPLER_PID"; SAMPLER_PID=""
PEAK64=$(cat "$WORK/peak64"); HWM64=$(awk '/^VmHWM:/ { printf "%.0f", $2 / 1024 }' "/proc/$JVM/status")

# --- slow streams: N connections, each one stream after another (bench/soak.lua)
SOAK=""
if [ "$STREAMS" -gt 0 ]; then
  peak_sampler "$WORK/peakN"
  BENCH_BODY="$(chat_stream vendorB-5.5 '[[sim:chunks=20;chunk_delay_ms=100]]')" BENCH_KEY="$KEY" \
    BENCH_MARKER='data: [DONE]' BENCH_STALL_US=60000000 taskset -c 1 wrk -t2 -c"$STREAMS" -d"${STREAM_S}s" \
    --timeout "$(( STREAM_S + 60 ))s" -s "$ROOT/bench/soak.lua" "http://127.0.0.1:$GW_PORT/api/v1/chat/completions" \
    >"$WORK/soak.out" 2>&1 &
  WRK_PID=$!
  wait "$WRK_PID"; WRK_PID=""
  stop "$SAMPLER_PID"; SAMPLER_PID=""
  SOAK=$(cat "$WORK/peakN")
  SOAK_LINE=$(grep -o 'SOAK.*' "$WORK/soak.out" || echo "SOAK: no summary")
fi

# --- the table
row() { # label "rss cache heap code arenas libjvm metaspace threads direct"
  read -r rss cache heap code arenas libjvm meta threads direct <<<"$2"
  echo "| $1 | $rss | $cache | $heap | $code | $arenas | $libjvm | $meta | $threads | $direct | $(( rss - cache - heap - code - arenas - libjvm - meta - threads - direct )) |"
}
{
  echo "# Where the gateway's memory goes ($(date -u +%Y-%m-%dT%H:%MZ))"
  echo
  echo "Command: \`bench/memory.sh${ARGS:+ $ARGS}\`; repository at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')."
  echo "Machine: $(nproc) cores ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)), $("$JAVA" -version 2>&1 | head -n1)."
  echo "\`taskset -c 0 ./gw serve\` with \`-XX:NativeMemoryTracking=summary\` added; the simulator and wrk on CPU 1."
  echo
  echo "MiB. *cache* = the start-up cache's resident pages, *libjvm* = libjvm.so's (smaps); *heap* (committed),"
  echo "*code* (the code cache and its tables), *C2 arenas* (\"Arena Chunk\"), *metaspace*, *threads* (stacks) and"
  echo "*direct* (\"Other\": Netty's direct buffers) from NMT; *rest* = RSS minus those: the other libraries, the"
  echo "JVM's own tables, NMT itself, and what glibc keeps of freed memory until the next trim (every 2 s)."
  echo
  echo "| moment | RSS | cache | heap | code | C2 arenas | libjvm | metaspace | threads | direct | rest |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  row "idle, after one request per scenario" "$IDLE"
  row "64 connections, $LOAD_S s × 4 scenarios, at the peak (VmHWM $HWM64)" "$PEAK64"
  [ -n "$SOAK" ] && row "$STREAMS slow streams, $STREAM_S s, at the peak ($SOAK_LINE)" "$SOAK"
  echo
  echo "Targets (issue 13): idle ≤ 100 MiB, 64 connections ≤ 200 MiB, 10,000 slow streams ≤ 512 MiB."
} >"$OUT"
cat "$OUT"
