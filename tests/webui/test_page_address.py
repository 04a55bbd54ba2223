"""The QR code and the page show where phones reach the table: the LAN address for a server on
every interface opened on the Pi itself (never ``127.0.0.1`` or ``0.0.0.0``), else a configured
``web.public_url`` as given."""

from __future__ import annotations

import ipaddress
import re

import psutil
import pytest

from arena_table.table.config import BadValue, WebSettings
from arena_table.webui.address import lan_address
from arena_table.webui.app import create_app, shutdown


def _qr_url(client, base_url: str) -> str:
    svg = client.get("/qr.svg", base_url=base_url).get_data(as_text=True)
    return re.search(r"QR code of ([^<\"]+)", svg).group(1)


def test_lan_address_is_one_of_this_machines_interfaces():
    address = lan_address()
    if address is None:
        pytest.skip("this machine has no IPv4 address on a network")
    mine = {a.address for addrs in psutil.net_if_addrs().values() for a in addrs}
    ip = ipaddress.ip_address(address)
    assert address in mine and ip.version == 4 and not (ip.is_loopback or ip.is_link_local)


@pytest.mark.parametrize("opened_as", ["http://127.0.0.1:8000", "http://localhost:8000", "http://0.0.0.0:8000"])
def test_qr_shows_the_lan_address_to_a_tv_on_the_pi(table, opened_as):
    lan = lan_address()
    if lan is None:
        pytest.skip("this machine has no IPv4 address on a network")
    app = create_app(table, {"host": "0.0.0.0"})
    client = app.test_client()
    assert _qr_url(client, opened_as) == f"http://{lan}:8000/"
    page = client.get("/", base_url=opened_as).get_data(as_text=True)
    assert f"follow this table on your phone at http://{lan}:8000/" in page
    assert "127.0.0.1" not in page and "0.0.0.0" not in page and "localhost" not in page
    # a phone that came by the LAN (or a name) is shown the address it used
    assert _qr_url(client, "http://192.0.2.77:8000") == "http://192.0.2.77:8000/"
    shutdown(app)


def test_a_configured_public_url_is_shown_as_given(table):
    url = WebSettings(public_url="https://arena.example.org/hall-b").public_url
    assert url == "https://arena.example.org/hall-b/"
    app = create_app(table, {"host": "0.0.0.0", "public_url": url})
    client = app.test_client()
    assert _qr_url(client, "http://127.0.0.1:8000") == url
    assert "<span>/hall-b/</span>" in client.get("/", base_url="http://127.0.0.1:8000").get_data(as_text=True)
    shutdown(app)


@pytest.mark.parametrize("bad", ["arena.example.org", "ftp://a.example/", "http:///x", "http://a.example/?t=1",
                                 "http://a b/", "http://a.example:port/"])
def test_a_public_url_that_is_no_web_address_is_named(bad):
    with pytest.raises(BadValue, match=r"web\.public_url: must be an http:// or https:// address"):
        WebSettings(public_url=bad)


def test_the_console_prints_the_lan_address_of_a_server_on_every_interface():
    from arena_table.table.service import _shown_url

    lan = lan_address()
    if lan is None:
        pytest.skip("this machine has no IPv4 address on a network")
    assert _shown_url("0.0.0.0", 8000) == _shown_url("::", 8000) == f"http://{lan}:8000/"


def test_run_prints_and_shows_its_public_url(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import urllib.request

    from arena_table.cli.common import free_port

    port = free_port()
    url = "http://arena.example.org:8080/hall-b/"
    proc = subprocess.Popen([sys.executable, "-m", "arena_table.cli", "run", "--camera", "none", "--port", str(port),
                             "--db", str(tmp_path / "t.db"), "--public-url", url.rstrip("/")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        lines = [proc.stdout.readline().strip() for _ in range(3)]
        assert lines[1] == f"arena-table: spectator screen {url}"
        assert lines[2].startswith(f"arena-table: control page {url}control   PIN ")
        svg = urllib.request.urlopen(f"http://127.0.0.1:{port}/qr.svg", timeout=5).read().decode()
        assert f"QR code of {url}<" in svg
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
