#!/usr/bin/env bash
# Installs what the compatibility suite needs (node when missing, the pinned clients with npm ci when the lock
# file changed) and runs it: arguments go to run.mjs (--docs FILE, --record DIR, --only REGEX, --jobs N).
# --install-only: installs and stops there (scripts/image-test.sh calls the SDKs installed here).
# Needs the built jar (gateway/target/gateway.jar) and JAVA_HOME set to a JDK 25 (./gw does both).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "compat: installing nodejs and npm (apt-get)..." >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
  else
    echo "error: the compatibility suite needs node >= 20 and npm (apt-get install nodejs npm)" >&2
    exit 1
  fi
fi

if [ ! -f "$HERE/node_modules/.installed" ] || [ "$HERE/package-lock.json" -nt "$HERE/node_modules/.installed" ]; then
  echo "compat: npm ci..." >&2
  (cd "$HERE" && timeout 900 npm ci --no-audit --no-fund --loglevel=error >&2)
  touch "$HERE/node_modules/.installed"
fi

[ "${1:-}" = --install-only ] && exit 0

# paths given as arguments stay relative to the caller's directory
exec timeout 900 node "$HERE/run.mjs" "$@"
