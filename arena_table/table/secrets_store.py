"""The table's secret files in its data folder, for ``arena-table run`` and ``doctor``.

``pin.txt`` holds the control page's PIN, so it survives restarts and ``doctor`` can show it;
``session-secret`` holds the key that signs the control page's login cookie, so a restart keeps
the players logged in (a new PIN makes a new key, which logs everyone out); ``revoked-sessions``
holds the logged-out sessions (``revoked_sessions``). All are private (mode 0600) and written
whole, through :class:`~arena_table.table.data_dir.DataDir`: a new file is made so, and an
existing one that group or others may read is made so when ``run`` reads it, with a warning; one
that cannot be (another user's), or a folder in a file's place, stops ``run`` with
:class:`SecretFileError` (``docs/security.md`` says what each of these is for).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
from pathlib import Path

from arena_table.table.data_dir import DataDir, SecretFileError

PIN_FILE = "pin.txt"
SESSION_SECRET_FILE = "session-secret"
SESSION_SECRET_BYTES = 32
REVOKED_FILE = "revoked-sessions"
"""The logged-out control sessions (``revoked_sessions.StoredSessionRevocations``)."""

__all__ = ["PIN_FILE", "REVOKED_FILE", "SESSION_SECRET_BYTES", "SESSION_SECRET_FILE", "SecretFileError",
           "load_or_create_pin", "load_or_create_session_secret", "pin_problem", "read_pin", "secrets_problem",
           "valid_pin"]

log = logging.getLogger(__name__)


# --- the PIN -----------------------------------------------------------------------------------

def valid_pin(text: str) -> bool:
    return text.isascii() and text.isdigit() and 4 <= len(text) <= 12


def _stored_pin(data: DataDir) -> tuple[str | None, str]:
    """``(pin, "")`` from the PIN file, or ``(None, what is wrong)``: ``"missing"``, ``"empty"``, a
    sentence saying why it cannot be read, or the text found (``repr``, starting with a quote). A
    byte-order mark and surrounding blanks (a file saved by a text editor) are ignored. Read only."""
    path = data.path / PIN_FILE
    try:
        raw = data.read(PIN_FILE, "PIN", fix_mode=False)
    except SecretFileError as exc:
        return None, str(exc)
    except OSError as exc:
        return None, f"{path} cannot be read ({exc.strerror or exc}): check its owner and mode"
    if raw is None:
        return None, "missing"
    try:
        text = raw.decode("utf-8-sig").strip()
    except UnicodeDecodeError:
        return None, f"{path} is not text (UTF-8 or ASCII digits)"
    if not text:
        return None, "empty"
    return (text, "") if valid_pin(text) else (None, repr(text[:40]))


def _refusal(path: Path, problem: str) -> str:
    """What ``run`` says of the PIN file ``path`` whose :func:`_stored_pin` problem is ``problem``,
    or ``""`` when it can go on (a valid PIN, or no file or an empty one, which ``run`` replaces)."""
    if problem in ("", "missing", "empty"):
        return ""
    if problem.startswith(("'", '"')):
        return (f"{path} holds {problem}, not a PIN of 4 to 12 digits: correct it, or delete it for a new "
                "random PIN (or give --pin)")
    return problem


def pin_problem(data_dir: Path) -> str:
    """What keeps ``run`` from using the PIN file in ``data_dir``, in words, or ``""`` when it can
    (a valid PIN, or no file or an empty one, which ``run`` replaces). Read only."""
    data = DataDir(data_dir)
    return _refusal(data.path / PIN_FILE, _stored_pin(data)[1])


def secrets_problem(data_dir: Path, pin_given: bool = False) -> str:
    """What keeps ``run`` from using the PIN, session-key or revoked-sessions file in ``data_dir``, in
    words, or ``""`` (the first such problem); read only (``run`` asks before it takes the log, and
    writes them after). ``pin_given``: a ``--pin`` replaces what the PIN file holds, so only a
    folder in its place (:meth:`DataDir.problem`) or a mode ``run`` cannot make private is a problem."""
    data = DataDir(data_dir)
    if data.path.exists() and not data.path.is_dir():
        return f"{data.path} is a file, not the table's data folder: give --data-dir a folder"
    if problem := data.problem(PIN_FILE, "PIN") if pin_given else pin_problem(data_dir):
        return problem
    if problem := data.problem(SESSION_SECRET_FILE, "session key") or data.problem(REVOKED_FILE, "revoked sessions"):
        return problem
    revoked = data.path / REVOKED_FILE
    if revoked.exists() and not os.access(revoked, os.R_OK):  # its logouts must not be forgotten
        return (f"{revoked} cannot be read by this user (uid {os.geteuid()}): the control page's logged-out "
                "sessions are in it; make it this user's (chown) or delete it together with session-secret")
    for name in (PIN_FILE, SESSION_SECRET_FILE, REVOKED_FILE):  # a loose mode is made 0600 at start
        if problem := data.cannot_make_private(name):
            return problem
    return ""


def read_pin(data_dir: Path) -> str | None:
    """The stored PIN (4 to 12 digits, as ``--pin`` takes) of the table whose data folder is
    ``data_dir``, or ``None``. Read only: the file's mode is left as it is."""
    return _stored_pin(DataDir(data_dir))[0]


def load_or_create_pin(data_dir: Path, given: str | None = None) -> str:
    """The PIN to use: ``given`` (stored for next time), else the stored one, else a new
    random 6-digit PIN (stored). The file is created with mode 0600, and an existing one
    open to group or others is made 0600 (a warning is logged).

    Raises:
        ValueError: ``given`` is not 4 to 12 digits.
        SecretFileError: :data:`PIN_FILE` is a folder, open to others and not ours to change, or
            holds something that is not a PIN of 4 to 12 digits (a hand edit is never overwritten
            unasked; an empty file, which only a crash can leave, is replaced with a warning).
    """
    if given is not None:
        given = given.strip()
        if not valid_pin(given):
            raise ValueError(f"the PIN must be 4 to 12 digits, got {given!r}")
    data = DataDir(data_dir)
    path = data.path / PIN_FILE
    if problem := data.problem(PIN_FILE, "PIN"):
        raise SecretFileError(problem)
    data.make_private(PIN_FILE, "PIN")
    stored, problem = _stored_pin(data)
    if given is None:
        if stored:
            return stored
        if refused := _refusal(path, problem):
            raise SecretFileError(refused)
        if problem == "empty":
            log.warning("%s is empty: a new PIN is made (the control page's players log in again)", path)
        given = f"{secrets.randbelow(10**6):06d}"
    if stored != given:  # written only when it changes: a start with --pin rewrites nothing
        data.write(PIN_FILE, given + "\n")
    return given


# --- the session key ----------------------------------------------------------------------------

def _pin_tag(key: bytes, pin: str) -> bytes:
    return hmac.new(key, b"pin:" + pin.encode("ascii"), hashlib.sha256).digest()


def load_or_create_session_secret(data_dir: Path, pin: str) -> bytes:
    """The key that signs the control page's session cookie (:data:`SESSION_SECRET_BYTES` random
    bytes), kept in ``data_dir`` so a restart of the table keeps its players logged in.

    The file (:data:`SESSION_SECRET_FILE`, mode 0600) holds two hex lines: the key, and a tag
    binding it to the PIN it was made for (HMAC-SHA256 of ``pin`` under the key). A new key
    is made and stored when there is no file, when the file is not in that form (a warning is
    logged), or when it was made for another PIN: a new PIN, however it came (``--pin``, an
    edited or deleted ``pin.txt``), ends every session made with the old one. A key kept from a
    file open to group or others makes that file 0600 (a warning is logged); a replaced one is 0600.

    Raises:
        SecretFileError: the file is a folder, or open to others and not ours to change.
        OSError: a new key cannot be written.
    """
    data = DataDir(data_dir)
    path = data.path / SESSION_SECRET_FILE
    try:
        raw = data.read(SESSION_SECRET_FILE, "session key", fix_mode=False)
        if raw is None:
            raise FileNotFoundError(path)
        lines = raw.decode("ascii").split()
        key, tag = (bytes.fromhex(line) for line in lines) if len(lines) == 2 else (b"", b"")
        if len(key) != SESSION_SECRET_BYTES or len(tag) != hashlib.sha256().digest_size:
            raise ValueError(f"not a {SESSION_SECRET_BYTES}-byte key and its tag, in hex")
    except FileNotFoundError:
        pass
    except SecretFileError:
        raise
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        log.warning("%s is not a session key (%s): a new one is made, the control page's players log in again",
                    path, exc)
    else:
        if hmac.compare_digest(tag, _pin_tag(key, pin)):
            data.make_private(SESSION_SECRET_FILE, "session key")
            return key
        log.info("the control page's PIN changed: a new session key, every control session ends")
    key = secrets.token_bytes(SESSION_SECRET_BYTES)
    data.write(SESSION_SECRET_FILE, f"{key.hex()}\n{_pin_tag(key, pin).hex()}\n")
    return key
