#!/usr/bin/env bash
# Tests the release archive as a machine without a JDK, Maven or checkout would run it: unpacks
# dist/model-gateway-<version>-linux-x64.tar.gz (./gw dist) into a temporary directory, runs bin/model-gateway with an
# empty environment whose PATH holds bash and coreutils' readlink alone (no java, no mvn), checks --version, that the
# start-up cache is usable by that runtime (-XX:AOTMode=on refuses to start otherwise), then starts the demo and calls
# /health and one chat completion. The state must land in $XDG_DATA_HOME, not in the install tree. Prints the cold
# start: launch to the first /health answered, with and without the cache. Then, over TLS with a certificate made
# here: /health and the JVM's metrics; and the runtime's CA certificates. About 30 s.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
archives=("$ROOT"/dist/model-gateway-*-linux-x64.tar.gz)
[ -f "${archives[0]}" ] || { echo "error: no archive in dist/: run ./gw dist first" >&2; exit 1; }
[ "${#archives[@]}" = 1 ] || { echo "error: several archives in dist/: ${archives[*]}" >&2; exit 1; }
ARCHIVE="${archives[0]}"
VERSION=$(basename "$ARCHIVE" | sed 's/^model-gateway-\(.*\)-linux-x64\.tar\.gz$/\1/')
TMP=$(mktemp -d)
PID=
cleanup() { [ -z "$PID" ] || kill "$PID" 2>/dev/null || true; rm -rf "$TMP"; }
trap cleanup EXIT
fail() { echo "dist-test: FAILED: $*" >&2; [ ! -f "$TMP/gateway.log" ] || tail -20 "$TMP/gateway.log" >&2; exit 1; }

tar -xzf "$ARCHIVE" -C "$TMP"
APP="$TMP/model-gateway-$VERSION"
mkdir -p "$TMP/tools" "$TMP/home"
ln -s "$(command -v bash)" "$TMP/tools/bash"
ln -s "$(command -v readlink)" "$TMP/tools/readlink"
# what a fresh machine has: no JAVA_HOME, no java or mvn on the PATH, a home of its own
clean_env=(env -i PATH="$TMP/tools" HOME="$TMP/home" XDG_DATA_HOME="$TMP/home/share" LANG=C.UTF-8)
"${clean_env[@]}" bash -c 'command -v java || command -v mvn' >/dev/null && fail "the clean PATH finds java or mvn"

printed=$("${clean_env[@]}" "$APP/bin/model-gateway" --version 2>/dev/null) || fail "--version exited $?"
[ "$printed" = "model-gateway $VERSION" ] || fail "--version printed '$printed', not 'model-gateway $VERSION'"
"${clean_env[@]}" JAVA_OPTS=-XX:AOTMode=on "$APP/bin/model-gateway" --version >/dev/null 2>"$TMP/aot.log" \
  || { cat "$TMP/aot.log" >&2; fail "the start-up cache is not usable by the bundled runtime"; }

ms() { echo $(( $(date +%s%N) / 1000000 )); }
# Starts the demo on a free port; sets PID, URL and STARTED_MS (launch to the first /health answered)
start() {
  local t0; t0=$(ms)
  URL=
  "${clean_env[@]}" GATEWAY_SERVER_PORT=0 "$@" "$APP/bin/model-gateway" demo >"$TMP/gateway.log" 2>&1 &
  PID=$!
  for _ in $(seq 1 3000); do
    # the demo prints its address once it listens
    [ -n "$URL" ] || URL=$(sed -n 's#.*the gateway on \(https\{0,1\}://127.0.0.1:[0-9]*\)/api/v1.*#\1#p' "$TMP/gateway.log" | head -n1)
    if [ -n "$URL" ] && curl -sf ${CACERT:+--cacert "$CACERT"} "$URL/health" -o "$TMP/health.json" 2>/dev/null; then STARTED_MS=$(( $(ms) - t0 )); return; fi
    kill -0 "$PID" 2>/dev/null || fail "the gateway exited"
    sleep 0.01
  done
  fail "no /health within 30 s"
}
stop() { kill "$PID"; wait "$PID" || true; PID=; }

start
cold=$STARTED_MS
grep -q "\"version\":\"$VERSION\"" "$TMP/health.json" || fail "/health: $(cat "$TMP/health.json")"
answer=$(curl -sf "$URL/api/v1/chat/completions" -H 'Authorization: Bearer pk-demo-model-gateway' \
  -H 'Content-Type: application/json' \
  -d '{"model":"platform/vendorB-5.5","messages":[{"role":"user","content":"Hello!"}]}') || fail "the chat completion failed"
grep -q '"object":"chat.completion"' <<<"$answer" || fail "chat completion: $answer"
grep -q '"content":"' <<<"$answer" || fail "chat completion without content: $answer"
stop
[ -f "$TMP/home/share/model-gateway/demo.db" ] || fail "the demo's database is not in \$XDG_DATA_HOME/model-gateway"
[ ! -e "$APP/data" ] || fail "state was written inside the install tree"

start GW_AOT=off
without=$STARTED_MS
stop

# What the cut-down runtime must still do: serve TLS (SunJSSE and SunEC in java.base) with a certificate made here,
# expose the JVM's metrics (java.management, jdk.management), and hold the CA certificates for the vendors' TLS.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$TMP/key.pem" -out "$TMP/cert.pem" 2>/dev/null
CACERT="$TMP/cert.pem" start GATEWAY_SERVER_TLS_CERT_FILE="$TMP/cert.pem" GATEWAY_SERVER_TLS_KEY_FILE="$TMP/key.pem"
[[ "$URL" == https://* ]] || fail "the demo did not serve TLS: $URL"
grep -q "\"version\":\"$VERSION\"" "$TMP/health.json" || fail "/health over TLS: $(cat "$TMP/health.json")"
curl -sf --cacert "$TMP/cert.pem" "$URL/metrics" -o "$TMP/metrics.txt" || fail "/metrics over TLS"
grep -q '^jvm_memory_used_bytes{' "$TMP/metrics.txt" || fail "/metrics has no JVM memory series: $(grep -c . "$TMP/metrics.txt") lines"
stop
roots=$("$APP/runtime/bin/keytool" -list -cacerts -storepass changeit 2>/dev/null | grep -c trustedCertEntry || true)
[ "$roots" -gt 50 ] || fail "the runtime holds $roots CA certificates"
echo "dist-test: passed: $(basename "$ARCHIVE") ($(( $(stat -c %s "$ARCHIVE") / 1048576 )) MiB); cold start to /health:" \
  "${cold} ms with the start-up cache (first start, database created), ${without} ms without it"
