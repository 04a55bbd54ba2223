#!/usr/bin/env bash
# Removes what scripts/install-pi.sh installed, but the data: `sudo make uninstall-pi`.
#
# Removed: the service, /opt/arena-table (program and venv), the arena-table command, config.example.toml,
# the system user.
# Kept: /var/lib/arena-table (the event log, PIN, login key, media, taught dice) and
# /etc/arena-table/config.toml (your settings); delete them by hand to start afresh.
# DESTDIR as in install-pi.sh (no systemctl, no userdel under it).
set -euo pipefail
DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/opt/arena-table}
DATA=${DATA:-/var/lib/arena-table}
ETC=${ETC:-/etc/arena-table}
UNIT_DIR=${UNIT_DIR:-/etc/systemd/system}
ACCOUNT=arena-table

say() { echo "uninstall-pi: $*"; }
live() { [ -z "$DESTDIR" ]; }

if live && [ "$(id -u)" != 0 ]; then
  echo "uninstall-pi: run it as root: sudo make uninstall-pi" >&2
  exit 1
fi
if live && [ -d /run/systemd/system ]; then
  systemctl disable --now arena-table.service 2>/dev/null || true
fi
rm -f "$DESTDIR$UNIT_DIR/arena-table.service"
if live && [ -d /run/systemd/system ]; then systemctl daemon-reload; fi
rm -rf "$DESTDIR$PREFIX"
if [ "$(readlink "$DESTDIR/usr/local/bin/arena-table" 2>/dev/null)" = "$PREFIX/venv/bin/arena-table" ]; then
  rm -f "$DESTDIR/usr/local/bin/arena-table"
fi
rm -f "$DESTDIR$ETC/config.example.toml"
if live && id "$ACCOUNT" >/dev/null 2>&1; then userdel "$ACCOUNT"; fi
say "removed the service, $PREFIX and the $ACCOUNT user; kept $DATA and $ETC/config.toml"
