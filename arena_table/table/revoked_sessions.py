"""The control page's logged-out session ids, kept in the table's data folder.

A logout revokes its session id on the server (:class:`arena_table.webui.auth.SessionRevocations`);
the table's session key survives a restart (``secrets_store``), so the revoked ids must too, or a
copy of a logged-out cookie would log in again after the next restart. The file
(:data:`REVOKED_FILE`, mode 0600) holds one ``<sid> <unix time of the logout>`` per line, is
rewritten whole at each logout (:meth:`DataDir.write`: all or nothing) and forgets an id
:attr:`SessionRevocations.keep_s` after its logout, when every copy of its cookie has expired.
"""

from __future__ import annotations

import logging
import math
import re
import time
from pathlib import Path
from typing import Callable

from arena_table.table.data_dir import DataDir, SecretFileError
from arena_table.table.secrets_store import REVOKED_FILE
from arena_table.webui.auth import SessionRevocations

log = logging.getLogger(__name__)

_SID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A session id as :func:`secrets.token_urlsafe` makes them."""


class StoredSessionRevocations(SessionRevocations):
    """:class:`SessionRevocations` loaded from and written to ``data_dir/revoked-sessions``.

    Raises:
        SecretFileError: on load, a folder is in the file's place, it cannot be read (another user's),
            or it is open to others and not ours to change.

    A line that is not ``<sid> <time>`` is skipped with a warning (the rest are kept). A logout
    whose file cannot be written is still revoked until the table stops, and a warning says so.
    """

    def __init__(self, data_dir: str | Path, clock: Callable[[], float] = time.time) -> None:
        super().__init__(clock)
        self._data = DataDir(data_dir)
        self.path = self._data.path / REVOKED_FILE
        try:
            data = self._data.read(REVOKED_FILE, "revoked sessions") or b""
        except SecretFileError:  # a folder in its place, or open to others and not ours: said as such
            raise
        except OSError as exc:  # refused, not read as empty: that would let logged-out cookies in again
            raise SecretFileError(f"{self.path} cannot be read ({exc.strerror or exc}): the control page's "
                                  "logged-out sessions are in it; make it this user's (chown) or delete it "
                                  "(every control session then ends: delete session-secret too)") from None
        bad = 0
        for line in data.splitlines():  # line by line: one damaged line costs only itself
            parts = line.split()
            if not parts:
                continue
            try:
                sid, at = parts[0].decode("ascii"), float(parts[1])
                if len(parts) != 2 or not _SID.fullmatch(sid) or not math.isfinite(at):
                    raise ValueError
            except (IndexError, ValueError):  # UnicodeDecodeError is a ValueError
                bad += 1
                continue
            self._ids[sid] = at
        if bad:
            log.warning("%s: %d line(s) not '<session id> <time>' skipped", self.path, bad)
        self._prune()

    def _store(self, ids: dict[str, float]) -> None:
        text = "".join(f"{sid} {at:.0f}\n" for sid, at in ids.items())
        try:
            self._data.write(REVOKED_FILE, text)
        except OSError as exc:
            log.warning("%s; the logged-out session stays refused until the table stops", exc)
