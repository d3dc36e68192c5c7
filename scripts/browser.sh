#!/usr/bin/env bash
# Makes sure Debian's Chromium and its WebDriver are installed for the console's browser tests
# (gateway/src/test/java/dev/modelgateway/e2e/console/ConsoleBrowserTest.java drives them headless through
# Selenium). Idempotent; installing needs root. The tests skip, saying why, only when the browser is missing.
set -euo pipefail

if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "warning: chromium/chromedriver missing and not root: the console's browser tests will skip" >&2
  exit 0
fi
apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null \
  || echo "warning: chromium could not be installed: the console's browser tests will skip" >&2
