#!/usr/bin/env bash
# Installs what Otto needs on a fresh Debian/Ubuntu machine: Chromium (when no browser is found) and the npm packages.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${CHROME_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1 && ! command -v google-chrome >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "otto setup: installing Chromium with apt"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
npm ci --no-audit --no-fund
