# Sourced by the bench scripts that start their own processes: stopping them and waiting for them to answer.

# stop pid...: SIGTERM, up to BENCH_STOP_GRACE_S seconds (default 3) for all of them to exit, then SIGKILL.
# Empty arguments are skipped, so a script can pass the pid of a process it may not have started.
stop() {
  local pid alive tenths=$(( ${BENCH_STOP_GRACE_S:-3} * 10 ))
  for pid in "$@"; do [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null || true; done
  for _ in $(seq 1 "$tenths"); do
    alive=""
    for pid in "$@"; do [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && alive=1; done
    [ -z "$alive" ] && break
    sleep 0.1
  done
  for pid in "$@"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      echo "pid $pid did not exit on SIGTERM within ${BENCH_STOP_GRACE_S:-3} s: kill -9" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  for pid in "$@"; do [ -n "$pid" ] && wait "$pid" 2>/dev/null || true; done
}

# up URL: waits up to 30 s for any HTTP answer from URL; exits the script if none comes.
up() {
  for _ in $(seq 1 300); do [ "$(curl -s -o /dev/null -w '%{http_code}' "$1")" != 000 ] && return 0; sleep 0.1; done
  echo "error: $1 not up" >&2
  exit 1
}

# find_java25: prints the path of a java of version 25 or later: $JAVA_HOME's, the PATH's, or one under /usr/lib/jvm
# (the simulator runs on it; the gateway itself starts through ./gw, which finds its own).
find_java25() {
  local j major
  for j in ${JAVA_HOME:+"$JAVA_HOME/bin/java"} "$(command -v java || true)" /usr/lib/jvm/*/bin/java; do
    [ -x "$j" ] || continue
    major=$("$j" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n1)
    [ "${major:-0}" -ge 25 ] 2>/dev/null && { echo "$j"; return 0; }
  done
  echo "error: no Java 25 found (set JAVA_HOME)" >&2
  exit 1
}

# build_if_stale ROOT: ./gw build when gateway.jar is missing or older than a source, before anything is timed
# (./gw serve would otherwise build inside the measured start).
build_if_stale() {
  local jar="$1/gateway/target/gateway.jar"
  if [ ! -f "$jar" ] || [ -n "$(cd "$1" && find pom.xml ./*/pom.xml ./*/src -newer "$jar" -type f 2>/dev/null | head -n1)" ]; then
    echo "gateway.jar is missing or older than the sources: ./gw build" >&2
    "$1/gw" build
  fi
}
