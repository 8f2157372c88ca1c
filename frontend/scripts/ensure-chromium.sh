#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed for the e2e suite (Playwright never downloads a browser here).
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  exit 0
fi
echo "Installing Chromium (Debian package) for the e2e suite…"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium
