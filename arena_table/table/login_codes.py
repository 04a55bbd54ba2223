"""One-time login codes: the owner's way in when wrong PINs have slowed their address down.

``arena-table pin`` on the Pi (a shell there is the operator's, ``docs/security.md``) makes a code of
:data:`CODE_DIGITS` random digits, prints it and keeps only its SHA-256 and the time it expires
(:data:`CODE_TTL_S`) in the data folder's :data:`CODE_FILE` (mode 0600, written whole). The control
page's login form takes it in place of the PIN (``webui/auth.py``: a number longer than any PIN),
even from an address that must wait; the running table then deletes the file, so the code logs in
once. A new code replaces the one before. 16 random digits (53 bits) cannot be guessed in the ten
minutes one lives, so the file keeps a plain hash, not a slow one.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import threading
import time
from pathlib import Path
from typing import Callable

from arena_table.table.data_dir import DataDir, SecretFileError

CODE_FILE = "login-code"
CODE_DIGITS = 16
CODE_TTL_S = 600.0
"""Seconds a code stays valid (ten minutes: time to walk from the Pi's console to a phone)."""

log = logging.getLogger(__name__)


def _digest(digits: str) -> str:
    return hashlib.sha256(b"arena-table login code:" + digits.encode("ascii")).hexdigest()


def _digits(text: str) -> str:
    """``text`` without the spaces and dashes a code is written with.

    >>> _digits("4821-0937 5561-2208")
    '4821093755612208'
    """
    return text.replace("-", "").replace(" ", "").strip()


def new_code(data_dir: str | Path, clock: Callable[[], float] = time.time) -> str:
    """Make a one-time code for the table whose data folder is ``data_dir``, store its hash and
    expiry there (replacing any code before), and return it as ``NNNN-NNNN-NNNN-NNNN``.

    Run as root (``sudo arena-table pin``) on a folder another user owns (the service's), the file
    is given to that user, so the table can read and delete it.

    Raises:
        SecretFileError: a folder is in :data:`CODE_FILE`'s place.
        OSError: the file cannot be written.
    """
    data = DataDir(data_dir)
    if problem := data.problem(CODE_FILE, "login code"):
        raise SecretFileError(problem)
    digits = "".join(secrets.choice("0123456789") for _ in range(CODE_DIGITS))
    data.write(CODE_FILE, f"{clock() + CODE_TTL_S:.0f} {_digest(digits)}\n")
    folder = data.path.stat()
    if os.geteuid() == 0 and folder.st_uid != 0:
        os.chown(data.path / CODE_FILE, folder.st_uid, folder.st_gid)
    return "-".join(digits[i:i + 4] for i in range(0, CODE_DIGITS, 4))


class LoginCodes:
    """The running table's side: :meth:`use` checks a code given at the login form and uses it up.

    Thread-safe; a code used is also remembered in memory, so it never logs in twice even if its
    file could not be deleted.
    """

    def __init__(self, data_dir: str | Path, clock: Callable[[], float] = time.time) -> None:
        self._data = DataDir(data_dir)
        self.clock = clock
        self._lock = threading.Lock()
        self._used: set[str] = set()

    def use(self, text: str) -> bool:
        """Whether ``text`` is the current code, unexpired and not used; if so it is used up (its
        file deleted). A file that cannot be read, or is not ``<expiry> <sha256>``, is no code."""
        digits = _digits(text)
        if len(digits) != CODE_DIGITS or not digits.isascii() or not digits.isdigit():
            return False
        digest = _digest(digits)
        with self._lock:
            try:
                raw = self._data.read(CODE_FILE, "login code", fix_mode=False)
            except OSError as exc:  # SecretFileError too
                log.warning("the one-time login code cannot be read: %s", exc)
                return False
            try:
                expires, stored = (raw or b"").decode("ascii").split()
                expires_at = float(expires)
            except ValueError:  # no file, or not one arena-table pin wrote (UnicodeDecodeError is one)
                return False
            if not hmac.compare_digest(stored, digest) or digest in self._used:
                return False
            if self.clock() > expires_at:
                log.info("a one-time login code was given after it expired")
                return False
            self._used.add(digest)
            try:
                (self._data.path / CODE_FILE).unlink()
            except FileNotFoundError:
                pass
            except OSError as exc:
                log.warning("the used login code's file cannot be deleted (%s); this table refuses it anyway", exc)
            return True
