"""Helpers for the browser tests: a live table on loopback, logging in, where files go."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from arena_table.table.app import Table, TableConfig
from arena_table.webui.app import create_app
from arena_table.webui.server import ServerThread

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PIN = "135790"


@dataclass
class Live:
    """A table, its app and its server on a loopback port."""

    table: Table
    app: object
    server: ServerThread

    @property
    def url(self) -> str:
        return self.server.url


def start_live(db: Path, port: int = 0) -> Live:
    table = Table(TableConfig(db=db, camera=None, pin=PIN)).start()
    app = create_app(table, {"heartbeat": 15.0})
    server = ServerThread(app, "127.0.0.1", port).start()
    return Live(table, app, server)


def stop_live(live: Live) -> None:
    live.server.stop()
    live.table.close()


def login(page, url: str, pin: str = PIN) -> None:
    page.goto(url + "/login")
    page.fill("#pin", pin)
    page.click("button[type=submit]")
    page.wait_for_url(url + "/control")


def has_axe() -> bool:
    return AXE.exists() and shutil.which("node") is not None
