#!/usr/bin/env bash
# Installs what the test suite needs outside the venv (system packages, npm tools).
# Idempotent: skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
# A real font so the browser tests' screenshots are legible (the pages ask for DejaVu Sans first).
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need_apt+=(fonts-dejavu-core)
# Node.js runs the MicroPython WebAssembly port for the firmware tests (tests/firmware).
command -v node >/dev/null 2>&1 || need_apt+=(nodejs)
command -v npm >/dev/null 2>&1 || need_apt+=(npm)
# systemd-analyze checks the Raspberry Pi service unit (tests/table/test_install_pi.py).
command -v systemd-analyze >/dev/null 2>&1 || need_apt+=(systemd)
# A real MQTT broker for the convention hub's tests (tests/hub), and its mosquitto_passwd.
command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ] || need_apt+=(mosquitto)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "test-deps: missing ${need_apt[*]}; install with: sudo apt-get install ${need_apt[*]}" >&2
  fi
fi
# npm packages: (re)install when node_modules is missing or older than the lock file.
if [ -f package.json ] && { [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; }; then
  npm ci --silent --no-audit --no-fund || npm install --silent --no-audit --no-fund
fi
