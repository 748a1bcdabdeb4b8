#!/bin/bash
# Installs Chromium for the playground's browser test (test/playground/), from Debian's `chromium`
# package, only when it is missing; playwright-core drives it (no browser download). Idempotent;
# needs root on a fresh machine and prints every step it takes. Prints the browser's path on
# stdout. BQ_CHROMIUM names another Chromium binary to use instead (nothing is installed then).
set -euo pipefail

log() { echo "[engines/chromium] $*" >&2; }

chromium="${BQ_CHROMIUM:-/usr/bin/chromium}"
works() { [ -x "$chromium" ] && "$chromium" --headless=new --no-sandbox --disable-gpu --version >/dev/null 2>&1; }

if works; then
  log "Chromium found: $chromium ($("$chromium" --version 2>/dev/null | head -n1))"
  echo "$chromium"
  exit 0
fi
if [ -n "${BQ_CHROMIUM:-}" ]; then
  log "BQ_CHROMIUM=$BQ_CHROMIUM is not a Chromium that runs"
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  log "Chromium missing and not root: install it with 'apt-get install chromium' (or set BQ_CHROMIUM to a Chromium binary)"
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
log "apt-get update"
apt-get update -q -o DPkg::Lock::Timeout=300 >&2
# fonts-dejavu-core: the page's text must render in the screenshot even on a machine with no fonts.
log "apt-get install -y --no-install-recommends chromium fonts-dejavu-core"
apt-get install -y -q -o DPkg::Lock::Timeout=300 --no-install-recommends chromium fonts-dejavu-core >&2

works || { log "Chromium still does not run after install: $chromium"; exit 1; }
log "installed $("$chromium" --version 2>/dev/null | head -n1)"
echo "$chromium"
