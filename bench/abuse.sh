#!/usr/bin/env bash
# Mixed abusive load (docs/security.md): starts `./gw demo` (loopback only) with a 1 GiB heap in a scratch
# directory, runs bench/abuse.py against it for --seconds (default 20), prints the latency table, stops it.
# Usage: bench/abuse.sh [--seconds S] [--slowloris N] [--oversized N]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$ROOT/gateway/target/gateway.jar"
[ -f "$JAR" ] || { echo "error: $JAR not found; build first (./gw build)" >&2; exit 1; }
JAVA=java
for d in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
  if [ -n "$d" ] && [ -x "$d/bin/java" ] && "$d/bin/java" -version 2>&1 | grep -q 'version "2[5-9]'; then JAVA="$d/bin/java"; break; fi
done
PORT=${BENCH_GW_PORT:-18090}
WORK=$(mktemp -d)
ulimit -n 65536 2>/dev/null || true
(cd "$WORK" && GATEWAY_PORT=$PORT exec "$JAVA" -Xmx1g -XX:+UseZGC -jar "$JAR" demo >"$WORK/demo.log" 2>&1) &
GW=$!
trap 'kill $GW 2>/dev/null || true; wait $GW 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 60); do grep -q "Press Ctrl+C" "$WORK/demo.log" 2>/dev/null && break; sleep 1; done
SIM=$(sed -n 's/.*vendors simulated on \(http[^ ]*\).*/\1/p' "$WORK/demo.log" | head -n1)
[ -n "$SIM" ] || { cat "$WORK/demo.log" >&2; echo "error: the demo did not start" >&2; exit 1; }
python3 "$ROOT/bench/abuse.py" --port "$PORT" --sim-url "$SIM" --key pk-demo-model-gateway "$@"
echo "gateway resident memory: $(awk '/VmRSS/ {print int($2/1024) " MiB"}' /proc/$GW/status 2>/dev/null || echo "?")"
