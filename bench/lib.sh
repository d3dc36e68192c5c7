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

# The vendor simulator as side-by-side.sh, ab.sh and memory.sh run it: one event loop, a bounded heap (without a
# limit it grows to gigabytes over a run: ZGC, a quarter of the RAM), G1 rather than the serial collector (with
# -XX:+UseSerialGC, Temurin 25.0.3's C2 crashed twice compiling Netty's ChannelOutboundBuffer::remove, in
# PhiNode::Ideal; cf. JDK-8376104), a short request log. BENCH_SIM_JAVA_OPTS replaces these flags.
SIM_JAVA_OPTS=${BENCH_SIM_JAVA_OPTS:-"-XX:+UseG1GC -Xmx1g -Dsim.log.max=100"}

# start_sim JAVA JAR CPUS PORT DIR LOG: the simulator pinned to CPUS, run in DIR (a JVM crash report lands there,
# not in the repository), its output to LOG; sets SIM_PID.
start_sim() {
  # shellcheck disable=SC2086
  (cd "$5" && exec taskset -c "$3" "$1" $SIM_JAVA_OPTS -cp "$2" dev.modelgateway.sim.VendorSimulator --port "$4") >"$6" 2>&1 &
  SIM_PID=$!
}

# sim_vendors_yaml PORT: the gateway's configuration for the simulator at PORT, over HTTP/2 in cleartext, as the
# gateway speaks to the real vendors' APIs (by ALPN): thousands of streams share a few upstream connections.
sim_vendors_yaml() {
  printf 'vendors:\n  openai: {base_url: "http://127.0.0.1:%s/openai/v1", http_version: "2"}\n' "$1"
  printf '  anthropic: {base_url: "http://127.0.0.1:%s/anthropic", http_version: "2"}\n' "$1"
}

# on_exit CLEANUP DIR: when the script ends (normally, on an error, on Ctrl-C or SIGTERM), runs the function
# CLEANUP, which stops what the script started, then removes the work directory DIR if the script succeeded, or
# keeps it, with its logs, and says where if it failed; the script's exit status stays its own. INT and TERM are trapped
# so that a signal, too, exits through the EXIT trap.
on_exit() {
  ON_EXIT=("$@")
  trap run_on_exit EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}
run_on_exit() {
  local rc=$?
  trap - EXIT INT TERM
  "${ON_EXIT[0]}" || true # under set -e a cleanup's last failed test would end the trap before the rest
  if [ "$rc" -ne 0 ]; then echo "benchmark failed (exit $rc); logs kept in ${ON_EXIT[1]}" >&2
  else rm -rf "${ON_EXIT[1]}"; fi
  exit "$rc"
}
