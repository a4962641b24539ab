#!/usr/bin/env bash
# Browser tests use Debian's Chromium (Playwright's own browser download is not reachable here).
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's chromium for the browser tests..."
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)
else
  echo "Chromium not found at $CHROMIUM. Install it (apt-get install chromium) or set CHROMIUM_PATH." >&2
  exit 1
fi
