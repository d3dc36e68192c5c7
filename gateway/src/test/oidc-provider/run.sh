#!/usr/bin/env bash
# Installs the test OpenID provider's one package (npm ci, when the lock file changed) and runs provider.mjs with the
# arguments given: the console sign-in tests (e2e/console/OidcSignInTest, SsoBrowserTest) start it this way.
# --install-only: installs and stops there. Needs node >= 20 and npm.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# tests running in parallel may start it at once: one installs, the others wait (the lock is the subshell's only)
(
  flock 9
  if [ ! -f "$HERE/node_modules/.installed" ] || [ "$HERE/package-lock.json" -nt "$HERE/node_modules/.installed" ]; then
    (cd "$HERE" && timeout 300 npm ci --no-audit --no-fund --loglevel=error >&2)
    touch "$HERE/node_modules/.installed"
  fi
) 9>"$HERE/.install.lock"
[ "${1:-}" = --install-only ] && exit 0
exec node "$HERE/provider.mjs" "$@"
