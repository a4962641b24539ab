#!/usr/bin/env bash
# Browser tests use Debian's Chromium (Playwright's own browser download is not reachable here).
set -euo pipefail
# Which Chromium counts: scripts/chromium-path.mjs (CHROMIUM_PATH if executable, else /usr/bin/chromium). A
# CHROMIUM_PATH that names no file does not stop the install: the tests then use Debian's.
if node "$(dirname "$0")/chromium-path.mjs" >/dev/null; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's chromium for the browser tests..."
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)
else
  echo "Chromium not found (CHROMIUM_PATH=${CHROMIUM_PATH:-unset}, /usr/bin/chromium). Install it (apt-get install chromium) or set CHROMIUM_PATH." >&2
  exit 1
fi
