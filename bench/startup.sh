#!/usr/bin/env bash
# Cold start: from launching `./gw serve` (pinned to CPU 0) to the first `GET /health` answered 200, and to the
# first `GET /api/v1/models` answered 200 with the master key; N runs per cell, median, min and max.
# Cells: without and with the launcher's ahead-of-time cache (GW_AOT=off/on), each on a fresh data directory
# (an empty SQLite file: the migrations run) and on an existing one (the schema is current).
# Usage: bench/startup.sh [--runs N] [--launcher PATH] [--out FILE] [--wait-quiet S]
#   --runs N         measured starts per cell (default 7)
#   --launcher PATH  the launcher to start (default ./gw of this checkout); another checkout's ./gw measures that
#                    checkout (a launcher without GW_AOT is measured without the cache only)
#   --out FILE       where the table goes (default bench/results/startup-latest.md)
#   --wait-quiet S   wait up to S seconds for the 1-minute load average to drop to 1 or below (default 60)
# Also measured: the CPU time the process had used when /health first answered (steadier than the wall
# clock on a shared machine), its resident memory 3 s after the launch, and how long `./gw aot` takes to
# build the cache. The script and its polls (bench/startup.py, one process polling every 2 ms) run on CPU 1.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUNS=7; LAUNCHER="$ROOT/gw"; OUT="$ROOT/bench/results/startup-latest.md"; WAIT_QUIET=60
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS="$2"; shift 2 ;;
    --launcher) LAUNCHER="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --wait-quiet) WAIT_QUIET="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
command -v taskset >/dev/null || { echo "error: taskset (util-linux) is required for CPU pinning" >&2; exit 1; }
NCPU=$(nproc)
[ "$NCPU" -ge 2 ] || { echo "error: needs 2 CPUs (the gateway on CPU 0, this script and its polls on CPU 1)" >&2; exit 1; }
taskset -cp 1 $$ >/dev/null
PORT=${STARTUP_PORT:-28481}; KEY=pk-startup-bench
WORK="$(mktemp -d)"
trap 'rc=$?; if [ $rc -ne 0 ]; then echo "startup benchmark failed (exit $rc); logs kept in $WORK" >&2; else rm -rf "$WORK"; fi' EXIT
if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
  echo "error: port $PORT is in use; set STARTUP_PORT" >&2; exit 1
fi

read -r LOAD1 LOAD5 _ </proc/loadavg
waited=0
while [ "$waited" -lt "$WAIT_QUIET" ] && awk -v l="$LOAD1" 'BEGIN { exit !(l > 1.0) }'; do
  [ "$waited" -eq 0 ] && echo "load average $LOAD1 > 1: waiting up to ${WAIT_QUIET}s for the machine to quieten..." >&2
  sleep 5; waited=$((waited + 5))
  read -r LOAD1 LOAD5 _ </proc/loadavg
done
echo "load average: $LOAD1 $LOAD5 (1/5 min), $NCPU cores" >&2

# One start (bench/startup.py launches, polls and stops it): sets R_HEALTH R_MODELS (ms from the launch),
# R_CPU (ms of CPU at the first /health), R_RSS (KiB at 3 s), CMDLINE.
start_once() { # aot(on|off) database-directory
  mkdir -p "$2"
  read -r R_HEALTH R_MODELS R_CPU R_RSS CMDLINE < <(python3 "$ROOT/bench/startup.py" "$LAUNCHER" "$PORT" "$KEY" \
    "jdbc:sqlite:$2/gateway.db" "$1" "$WORK/gateway.log" || echo FAILED)
  [ "$R_HEALTH" != FAILED ] || exit 1
}

stats() { # column -> "median min max" of the numbers in that column of $WORK/cell
  awk -v k="$1" '{ print $k }' "$WORK/cell" | sort -g | awk '{ v[NR] = $1 }
    END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.0f %.0f %.0f", m, v[1], v[NR] }'
}
ROWS="$WORK/rows"; : >"$ROWS"; COMMANDS="$WORK/commands"; : >"$COMMANDS"
cell() { # label aot(on|off) fresh|existing
  local label=$1 aot=$2 data=$3 dir
  : >"$WORK/cell"
  if [ "$data" = existing ]; then dir="$WORK/existing"; rm -rf "$dir"; start_once "$aot" "$dir"; fi # creates it, not counted
  for i in $(seq 1 "$RUNS"); do
    [ "$data" = fresh ] && { dir="$WORK/fresh"; rm -rf "$dir"; }
    start_once "$aot" "$dir"
    echo "$label, $data data directory, run $i/$RUNS: /health ${R_HEALTH} ms, /api/v1/models ${R_MODELS} ms, CPU ${R_CPU} ms, RSS $((R_RSS / 1024)) MiB" >&2
    echo "$R_HEALTH $R_MODELS $R_CPU $R_RSS" >>"$WORK/cell"
  done
  read -r hm hl hh <<<"$(stats 1)"; read -r mm ml mh <<<"$(stats 2)"; read -r cm _ _ <<<"$(stats 3)"; read -r rm _ _ <<<"$(stats 4)"
  echo "| $label | $data | $hm | $hl–$hh | $mm | $ml–$mh | $cm | $((rm / 1024)) |" >>"$ROWS"
  [ "$data" = existing ] || echo "- $label: \`$CMDLINE\`" >>"$COMMANDS"
}

BUILD_NOTE=""
cell "no AOT cache" off fresh
cell "no AOT cache" off existing
if grep -q GW_AOT "$LAUNCHER"; then
  t0=$(date +%s%N)
  taskset -c 0 "$LAUNCHER" aot >&2
  BUILD_NOTE=$(awk -v ms=$(( ($(date +%s%N) - t0) / 1000000 )) 'BEGIN { printf "Building the cache (`./gw aot`, pinned to CPU 0) took %.1f s.", ms / 1000 }')
  cell "AOT cache" on fresh
  cell "AOT cache" on existing
else
  BUILD_NOTE="This launcher builds no AOT cache: measured without one only."
fi
read -r END1 END5 _ </proc/loadavg

mkdir -p "$(dirname "$OUT")"
{
  echo "# Cold start ($(date -u +%Y-%m-%dT%H:%MZ), $NCPU cores, $RUNS runs per cell)"
  echo
  echo "Command: \`${JAVA_OPTS:+JAVA_OPTS='$JAVA_OPTS' }bench/startup.sh --runs $RUNS\`$( [ "$LAUNCHER" = "$ROOT/gw" ] || echo " with the launcher of another checkout ($(git -C "$(dirname "$LAUNCHER")" log -1 --format='%h %s' 2>/dev/null || echo "$LAUNCHER"))")."
  echo "From launching \`./gw serve\` (\`taskset -c 0\`: the launcher and the JVM on CPU 0; SQLite store) to the first"
  echo "answer 200; the polls (every 2 ms, from one process) run on CPU 1. Times in ms: median and range."
  echo "CPU: the process's CPU time when /health first answered (median). RSS: 3 s after the launch (median)."
  echo "Load average (1/5 min): $LOAD1/$LOAD5 at the start, $END1/$END5 at the end."
  echo
  echo "| launch | data directory | /health | range | /api/v1/models | range | CPU ms | RSS MiB |"
  echo "|---|---|---|---|---|---|---|---|"
  cat "$ROWS"
  echo
  echo "$BUILD_NOTE"
  echo
  echo "Java command lines (from /proc):"
  echo
  cat "$COMMANDS"
} >"$OUT"
cat "$OUT"
