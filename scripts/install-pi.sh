#!/usr/bin/env bash
# Installs arena-table as a service on Raspberry Pi OS (Bookworm or Trixie): `sudo make install-pi`.
#
#   apt packages   python3-venv, python3-picamera2 (the camera), python3-lgpio (the LEDs' pin factory)
#   program        a copy of this tree in /opt/arena-table/src, a venv in /opt/arena-table/venv that sees
#                  the system's packages (--system-site-packages: picamera2 and lgpio come from apt)
#   user           system user arena-table in the gpio, video and dialout groups
#   data           /var/lib/arena-table: the event log, PIN, login key, media, taught dice
#   configuration  /etc/arena-table/config.toml (made once, yours to edit) and config.example.toml
#   service        /etc/systemd/system/arena-table.service, enabled and started
#   command        /usr/local/bin/arena-table (`sudo arena-table doctor`)
#
# Run again to upgrade (`git pull && sudo make install-pi`): the program and the service are
# replaced; the data folder and config.toml are never touched (an upgrade keeps the log, the PIN
# and the taught dice).
#
# DESTDIR=/some/root puts every file under that root and skips what acts on the running system
# (apt, the user, ownership, systemctl): for tests and packaging. ARENA_PIP_ARGS is added to the
# venv's `pip install` (the tests pass --no-deps).
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/opt/arena-table}
DATA=${DATA:-/var/lib/arena-table}
ETC=${ETC:-/etc/arena-table}
UNIT_DIR=${UNIT_DIR:-/etc/systemd/system}
PYTHON=${PYTHON:-/usr/bin/python3}
ACCOUNT=arena-table
APT_PACKAGES=(python3-venv python3-picamera2 python3-lgpio)
RUN_ARGS="--config $ETC/config.toml"

say() { echo "install-pi: $*"; }
live() { [ -z "$DESTDIR" ]; }

if live; then
  if [ "$(id -u)" != 0 ]; then
    echo "install-pi: run it as root: sudo make install-pi" >&2
    exit 1
  fi
  say "apt packages: ${APT_PACKAGES[*]}"
  apt-get update -qq
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${APT_PACKAGES[@]}"; then
    echo "install-pi: apt could not install ${APT_PACKAGES[*]}: this script is for Raspberry Pi OS" \
         "(Bookworm or Trixie), whose archive has python3-picamera2" >&2
    exit 1
  fi
fi

say "program in $DESTDIR$PREFIX"
mkdir -p "$DESTDIR$PREFIX"
rm -rf "$DESTDIR$PREFIX/src.new"
mkdir -p "$DESTDIR$PREFIX/src.new"
tar -C "$SRC" --exclude=./.git --exclude=./.venv --exclude=./node_modules --exclude='*.egg-info' \
    --exclude=__pycache__ --exclude=./build -cf - . | tar -C "$DESTDIR$PREFIX/src.new" -xf -
rm -rf "$DESTDIR$PREFIX/src"
mv "$DESTDIR$PREFIX/src.new" "$DESTDIR$PREFIX/src"
[ -x "$DESTDIR$PREFIX/venv/bin/python" ] || "$PYTHON" -m venv --system-site-packages "$DESTDIR$PREFIX/venv"
# shellcheck disable=SC2086  # ARENA_PIP_ARGS is a list of options
"$DESTDIR$PREFIX/venv/bin/python" -m pip install --quiet --disable-pip-version-check ${ARENA_PIP_ARGS:-} \
    "$DESTDIR$PREFIX/src"

mkdir -p "$DESTDIR/usr/local/bin"
ln -sfn "$PREFIX/venv/bin/arena-table" "$DESTDIR/usr/local/bin/arena-table"

if live; then
  if ! id "$ACCOUNT" >/dev/null 2>&1; then
    say "system user $ACCOUNT"
    useradd --system --home-dir "$DATA" --no-create-home --shell /usr/sbin/nologin "$ACCOUNT"
  fi
  for group in gpio video dialout; do
    if getent group "$group" >/dev/null; then usermod -a -G "$group" "$ACCOUNT"; fi
  done
fi

say "data in $DESTDIR$DATA (kept as it is)"
if [ ! -d "$DESTDIR$DATA" ]; then
  mkdir -p "$DESTDIR$DATA"
  chmod 750 "$DESTDIR$DATA"
fi
if live; then chown -R "$ACCOUNT:$ACCOUNT" "$DATA"; fi  # a reinstall after uninstall-pi: the new user's

mkdir -p "$DESTDIR$ETC"
cp "$SRC/examples/config.toml" "$DESTDIR$ETC/config.example.toml"
if [ ! -f "$DESTDIR$ETC/config.toml" ]; then
  say "configuration $DESTDIR$ETC/config.toml (edit it, then: sudo systemctl restart arena-table)"
  cat > "$DESTDIR$ETC/config.toml" <<EOF
# arena-table on this Raspberry Pi: made once by make install-pi, which never changes it again.
# Every key, its meaning and its default: config.example.toml beside this file.
# After an edit: arena-table config check $ETC/config.toml && sudo systemctl restart arena-table

[data]
db = "$DATA/table.db"
dir = "$DATA"

[web]
host = "0.0.0.0"

[leds]
kind = "gpio"
EOF
  chmod 644 "$DESTDIR$ETC/config.toml"
fi

say "service $DESTDIR$UNIT_DIR/arena-table.service"
mkdir -p "$DESTDIR$UNIT_DIR"
sed -e "s|@PREFIX@|$PREFIX|g" -e "s|@DATA@|$DATA|g" -e "s|@ETC@|$ETC|g" -e "s|@RUN_ARGS@|$RUN_ARGS|g" \
    "$SRC/scripts/pi/arena-table.service" > "$DESTDIR$UNIT_DIR/arena-table.service"
chmod 644 "$DESTDIR$UNIT_DIR/arena-table.service"

if live && [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  systemctl enable arena-table.service
  systemctl restart arena-table.service
  say "running: systemctl status arena-table; the log: journalctl -u arena-table; checks: sudo arena-table doctor"
fi
