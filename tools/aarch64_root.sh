#!/bin/sh
# An aarch64 Python for tools/dice_same_reading.py --cpu aarch64, run under qemu-aarch64-static:
# Debian's arm64 python3 and the libraries it needs, unpacked (not installed) into ROOT, and the
# aarch64 wheels of the versions this machine runs (numpy, opencv-python-headless, onnxruntime)
# in ROOT/site-packages. Needs root (apt), Debian's qemu-user-static, and this repo's .venv.
#   sh tools/aarch64_root.sh /opt/arm64
set -eu
ROOT=${1:?usage: aarch64_root.sh ROOT}
PY=${PYTHON:-$(dirname "$0")/../.venv/bin/python}
[ -x "$PY" ] || PY=python3
command -v qemu-aarch64-static >/dev/null || apt-get install -y qemu-user-static
dpkg --print-foreign-architectures | grep -qx arm64 || { dpkg --add-architecture arm64; apt-get update; }
mkdir -p "$ROOT/debs"
cd "$ROOT/debs"
pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
       --no-enhances python3.11:arm64 libstdc++6:arm64 libgomp1:arm64 | grep -E '^[a-z0-9]' | grep ':arm64$' | sort -u)
apt-get download $pkgs
for deb in *.deb; do dpkg -x "$deb" "$ROOT"; done
# usrmerge: the loader is asked for at /lib
[ -e "$ROOT/lib/ld-linux-aarch64.so.1" ] || { mkdir -p "$ROOT/lib"; ln -sf ../usr/lib/ld-linux-aarch64.so.1 "$ROOT/lib/ld-linux-aarch64.so.1"; }
v() { "$PY" -c "import importlib.metadata as m; print(m.version('$1'))"; }
"$PY" -m pip install --quiet --only-binary=:all: --platform manylinux_2_28_aarch64 --platform manylinux2014_aarch64 \
  --python-version 3.11 --implementation cp --target "$ROOT/site-packages" \
  "numpy==$(v numpy)" "opencv-python-headless==$(v opencv-python-headless)" "onnxruntime==$(v onnxruntime)"
echo "aarch64 root ready: qemu-aarch64-static -L $ROOT $ROOT/usr/bin/python3.11"
