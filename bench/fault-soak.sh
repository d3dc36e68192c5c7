#!/usr/bin/env bash
# Soak under injected faults: the gateway and the vendor simulator on loopback, wrk sending a mix of chat and
# messages calls (streaming and not) of which ~20% carry a fault directive (429/500/503 with retry or fallback,
# mid-stream disconnects, deadline expiries, 400s). Prints the gateway's RSS and its open connections (callers'
# and upstream) at the start and at the end, to show nothing leaks.
#   bench/fault-soak.sh [seconds=180] [connections=32]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DURATION="${1:-180}"
CONNECTIONS="${2:-32}"
GW_PORT="${GW_PORT:-18480}"
SIM_PORT="${SIM_PORT:-18490}"
export SOAK_KEY="pk-soak-master-key"

JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
JAVA="$JAVA_HOME/bin/java"
JAR="$ROOT/gateway/target/gateway.jar"
if [ ! -f "$JAR" ] || [ -n "$(find "$ROOT/gateway/src/main" "$ROOT/vendor-sim/src/main" -newer "$JAR" -type f | head -n1)" ]; then
  (cd "$ROOT" && JAVA_HOME="$JAVA_HOME" mvn -B -q -o -DskipTests install)
fi
command -v wrk >/dev/null || { echo "wrk is required" >&2; exit 1; }

WORK="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

"$JAVA" -Xmx256m -cp "$JAR" dev.modelgateway.sim.VendorSimulator --port "$SIM_PORT" --any-key >"$WORK/sim.log" 2>&1 &
pids+=($!)
SIM="http://127.0.0.1:$SIM_PORT"
env GATEWAY_PORT="$GW_PORT" GATEWAY_MASTER_KEY="$SOAK_KEY" GATEWAY_DATABASE_URL="jdbc:sqlite:$WORK/gateway.db" GATEWAY_LEDGER_JOURNAL_DIR="$WORK/journal" \
  OPENAI_BASE_URL="$SIM/openai/v1" OPENAI_API_KEY=soak ANTHROPIC_BASE_URL="$SIM/anthropic" ANTHROPIC_API_KEY=soak \
  GEMINI_BASE_URL="$SIM/gemini" GEMINI_API_KEY=soak DASHSCOPE_BASE_URL="$SIM/dashscope/compatible-mode/v1" DASHSCOPE_API_KEY=soak \
  "$JAVA" -XX:+UseZGC -Xmx512m -jar "$JAR" serve >"$WORK/gateway.log" 2>&1 &
GW_PID=$!
pids+=($GW_PID)
for _ in $(seq 1 100); do
  curl -fs -o /dev/null "http://127.0.0.1:$GW_PORT/api/v1/models" -H "authorization: Bearer $SOAK_KEY" && break
  sleep 0.2
done

snapshot() {
  local rss callers upstream
  rss=$(ps -o rss= -p "$GW_PID" | tr -d ' ')
  callers=$(ss -tnH state established "( sport = :$GW_PORT )" | wc -l)
  upstream=$(ss -tnH state established "( dport = :$SIM_PORT )" | wc -l)
  # Live heap after a full GC: unlike RSS, it does not grow merely because the heap may use up to -Xmx.
  "$JAVA_HOME/bin/jcmd" "$GW_PID" GC.run >/dev/null
  live=$("$JAVA_HOME/bin/jcmd" "$GW_PID" GC.heap_info | sed -n 's/.*used \([0-9]*\)M.*/\1/p' | head -n1)
  printf '%-6s gateway RSS %6d MiB   live heap %4s MiB   caller connections %4d   upstream connections %4d\n' \
    "$1" $((rss / 1024)) "${live:-?}" "$callers" "$upstream"
}

echo "warm-up 20 s"
wrk -t2 -c"$CONNECTIONS" -d20s -s "$ROOT/bench/fault-soak.lua" "http://127.0.0.1:$GW_PORT" >/dev/null
sleep 3
snapshot start
echo "soak ${DURATION} s, $CONNECTIONS connections"
wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s -s "$ROOT/bench/fault-soak.lua" "http://127.0.0.1:$GW_PORT"
sleep 5
snapshot end
echo "gateway errors logged: $(grep -ci 'exception' "$WORK/gateway.log" || true)"
