#!/usr/bin/env bash
# Checks that the runtime scripts/dist.sh links has the modules jdeps finds in the jar (run it after a dependency
# change; over a minute): prints both lists and fails when jdeps finds one that dist.sh lacks.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
: "${JAVA_HOME:?set JAVA_HOME to a JDK 25}"
found=$("$JAVA_HOME/bin/jdeps" --print-module-deps --ignore-missing-deps --multi-release 25 "$ROOT/gateway/target/gateway.jar")
linked=$(sed -n 's/^MODULES=//p' "$ROOT/scripts/dist.sh")
echo "jdeps:   $found"
echo "dist.sh: $linked"
missing=$(comm -23 <(tr , '\n' <<<"$found" | sort) <(tr , '\n' <<<"$linked" | sort))
[ -z "$missing" ] || { echo "missing from dist.sh's MODULES: $missing" >&2; exit 1; }
