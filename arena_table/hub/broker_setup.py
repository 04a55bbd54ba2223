"""``arena-table hub init``: a Mosquitto config, password file and ACL for a hall of tables.

Each table gets its own broker user, named after its id, that may write only its own
``view``, ``events`` and ``status`` and read its own ``resend`` (``arena_table.hub.topics``);
the hub's user reads everything and may ask any table to resend; anonymous clients (phones,
the wall in a browser) may only read views and presence. Besides the MQTT listener the broker has
a websockets one (MQTT over WebSockets, ``protocol websockets``) so that a spectator page in a
browser can subscribe to a view itself; the same ACL holds on both (``per_listener_settings
false``). Passwords are hashed into the
password file by Mosquitto's own ``mosquitto_passwd -U``; the plain ones are printed once.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .topics import PREFIX, check_table_id, topic

HUB_USER = "hub"
"""The hub's broker user (the wall's subscriber)."""
DEFAULT_WS_PORT = 9001
"""The websockets listener's port unless told otherwise (the port Mosquitto's own docs use for it)."""


@dataclass(frozen=True)
class Credential:
    user: str
    password: str
    table_id: str | None = None
    """None for the hub's own user."""


def table_ids(count: int, names: list[str] | None = None) -> list[str]:
    """The ids of ``count`` tables: ``names`` if given, else ``table-1`` ... ``table-N``.

    Raises:
        ValueError: no table, a bad id, the same id twice, or ``hub`` (the hub's user).

    >>> table_ids(3)
    ['table-1', 'table-2', 'table-3']
    """
    ids = list(names) if names else [f"table-{i}" for i in range(1, count + 1)]
    if not ids:
        raise ValueError("hub init: at least one table")
    for table_id in ids:
        check_table_id(table_id)
    if len(set(ids)) != len(ids):
        raise ValueError(f"hub init: a table id given twice in {', '.join(ids)}")
    if HUB_USER in ids:
        raise ValueError(f"hub init: {HUB_USER!r} is the hub's own broker user; name the table otherwise")
    return ids


def acl_text(ids: list[str]) -> str:
    """The ACL file: anonymous reads views and status; each table writes only under its id.

    >>> print(acl_text(["t1"]))  # doctest: +ELLIPSIS
    # arena-table hub ACL...
    topic read arena-table/+/view
    topic read arena-table/+/status
    <BLANKLINE>
    user hub
    topic read arena-table/#
    topic write arena-table/+/resend
    <BLANKLINE>
    user t1
    topic write arena-table/t1/view
    topic write arena-table/t1/events
    topic write arena-table/t1/status
    topic read arena-table/t1/resend
    <BLANKLINE>
    """
    lines = ["# arena-table hub ACL (arena-table hub init). Lines before the first `user` are anonymous clients'.",
             f"topic read {PREFIX}/+/view", f"topic read {PREFIX}/+/status", "",
             f"user {HUB_USER}", f"topic read {PREFIX}/#", f"topic write {PREFIX}/+/resend", ""]
    for table_id in ids:
        lines += [f"user {table_id}"] + [f"topic write {topic(table_id, k)}" for k in ("view", "events", "status")]
        lines += [f"topic read {topic(table_id, 'resend')}", ""]
    return "\n".join(lines)


def config_text(folder: Path, port: int, bind: str | None, ws_port: int | None = None) -> str:
    """``mosquitto.conf`` for the files in ``folder`` (absolute paths): MQTT on ``port``, and MQTT
    over WebSockets on ``ws_port`` (None: no websockets listener), both on ``bind`` (None: every
    interface).

    >>> print(config_text(Path("/h"), 1883, "127.0.0.1", 9001))  # doctest: +ELLIPSIS
    # arena-table hub broker...
    listener 1883 127.0.0.1
    listener 9001 127.0.0.1
    protocol websockets
    allow_anonymous true
    ...
    """
    folder = folder.absolute()
    at = f" {bind}" if bind else ""
    ws = [f"listener {ws_port}{at}", "protocol websockets"] if ws_port else []
    return "\n".join([
        "# arena-table hub broker (arena-table hub init): mosquitto -c THIS_FILE",
        "# On a shared hall network add TLS: `listener 8883`, `certfile`, `keyfile` (docs/convention.md);",
        "# browsers then need the websockets listener with TLS too (wss://), with the same two lines under it.",
        "per_listener_settings false",
        f"listener {port}{at}",
        *ws,
        "allow_anonymous true",
        f"password_file {folder / 'passwd'}",
        f"acl_file {folder / 'acl'}",
        "persistence false",
        "",
    ])


def _readable_by_broker(path: Path) -> None:
    """Started as root, Debian's mosquitto turns into user ``mosquitto``: let its group read ``path``."""
    if os.geteuid() != 0:
        return
    import grp

    try:
        os.chown(path, 0, grp.getgrnam("mosquitto").gr_gid)
    except KeyError:  # no such group: mosquitto not from Debian's package
        pass


def write_hub_files(folder: Path, ids: list[str], port: int = 1883, bind: str | None = None,
                    passwd_tool: str | None = None, ws_port: int | None = DEFAULT_WS_PORT) -> list[Credential]:
    """Write ``mosquitto.conf``, ``passwd`` (hashed) and ``acl`` into ``folder``; return the credentials.
    ``ws_port``: the websockets listener's port (None: none).

    Raises:
        FileNotFoundError: ``mosquitto_passwd`` is not installed (Debian: ``apt-get install mosquitto``).
        FileExistsError: ``folder`` already holds a ``passwd`` (the tables' credentials would change).
        subprocess.CalledProcessError: ``mosquitto_passwd`` failed.
    """
    tool = passwd_tool or shutil.which("mosquitto_passwd")
    if tool is None:
        raise FileNotFoundError("mosquitto_passwd is not installed (Debian: apt-get install mosquitto)")
    folder.mkdir(parents=True, exist_ok=True)
    passwd = folder / "passwd"
    if passwd.exists():
        raise FileExistsError(f"{passwd}: already there (its tables' passwords would change); use another folder")
    creds = [Credential(HUB_USER, secrets.token_urlsafe(12))]
    creds += [Credential(t, secrets.token_urlsafe(12), t) for t in ids]
    fd = os.open(passwd, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o640)
    with os.fdopen(fd, "w", encoding="utf-8") as fp:
        fp.writelines(f"{c.user}:{c.password}\n" for c in creds)
    subprocess.run([tool, "-U", str(passwd)], check=True, capture_output=True, timeout=60)
    (folder / "acl").write_text(acl_text(ids), encoding="utf-8")
    _readable_by_broker(passwd)
    (folder / "mosquitto.conf").write_text(config_text(folder, port, bind, ws_port), encoding="utf-8")
    return creds
