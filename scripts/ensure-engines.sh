#!/usr/bin/env bash
# The cross-engine journey (e2e/engines) drives Debian's Firefox ESR (WebDriver BiDi, launched by puppeteer-core) and
# WebKitGTK (its WebKitWebDriver, under xvfb-run); Chromium comes from ensure-chromium.sh. Installs what is missing,
# as root with apt-get, the way a fresh machine and CI get them.
set -euo pipefail
missing=()
[ -x "${FIREFOX_PATH:-/usr/bin/firefox-esr}" ] || missing+=(firefox-esr)
[ -x "${WEBKIT_DRIVER_PATH:-/usr/bin/WebKitWebDriver}" ] || missing+=(webkit2gtk-driver)
command -v xvfb-run >/dev/null || missing+=(xvfb)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's ${missing[*]} for the cross-engine browser tests..."
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null)
else
  echo "Missing for the cross-engine browser tests: ${missing[*]}. Install them (apt-get install ${missing[*]}) or set FIREFOX_PATH / WEBKIT_DRIVER_PATH." >&2
  exit 1
fi
