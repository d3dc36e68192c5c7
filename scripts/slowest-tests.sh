#!/usr/bin/env bash
# The slowest test classes of the last run, from the surefire reports of every module: ./scripts/slowest-tests.sh [N]
# (15 by default). Each class's time is its report's `time` attribute: set-up and tear-down included. awk reads the
# whole sorted list (no `head`): an early close would end sort with SIGPIPE, which pipefail made ./gw test's status.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-15}"
shopt -s nullglob
reports=("$ROOT"/*/target/surefire-reports/TEST-*.xml)
[ ${#reports[@]} -gt 0 ] || { echo "no surefire reports under */target/surefire-reports" >&2; exit 0; }
echo "slowest $n test classes (seconds):"
# the <testsuite> element's own attributes only: the first line that opens it
for f in "${reports[@]}"; do
  sed -n '/<testsuite /{p;q}' "$f"
done | sed -n 's/.*<testsuite .*name="\([^"]*\)".*time="\([0-9.,]*\)".*/\2 \1/p; t; s/.*<testsuite .*time="\([0-9.,]*\)".*name="\([^"]*\)".*/\1 \2/p' \
  | tr -d ',' | sort -rn | awk -v n="$n" 'NR <= n {printf "  %8.1f  %s\n", $1, $2}'
