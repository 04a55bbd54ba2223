"""The table's secret files in its data folder, for ``arena-table run`` and ``doctor``.

``pin.txt`` holds the control page's PIN, so it survives restarts and ``doctor`` can show it;
``session-secret`` holds the key that signs the control page's login cookie, so a restart keeps
the players logged in (a new PIN makes a new key, which logs everyone out); ``revoked-sessions``
holds the logged-out sessions (``revoked_sessions``). All are private (mode 0600): a new file is
made so, and an existing one that group or others may access (a copy, an older version) is made so
when ``run`` keeps it, with a warning; one that cannot be (another user's) stops ``run`` with
:class:`SecretFileError`, as does anything but a regular file in a file's place (a folder, a
symbolic link, a FIFO: :func:`not_a_file`).
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import logging
import os
import secrets
import stat
import tempfile
import time
from pathlib import Path

PIN_FILE = "pin.txt"
SESSION_SECRET_FILE = "session-secret"
SESSION_SECRET_BYTES = 32
REVOKED_FILE = "revoked-sessions"
"""The logged-out control sessions (``revoked_sessions.StoredSessionRevocations``)."""

log = logging.getLogger(__name__)


class SecretFileError(OSError):
    """A secret file ``run`` must not use as it is; the message names the file and the fix."""


def not_a_file(path: Path, what: str) -> str:
    """Why ``path`` cannot be the table's ``what`` file, in words, or ``""`` when it is a regular
    file or there is none. Looked at with ``lstat``: a symbolic link is refused, not followed, so a
    link planted there cannot make ``run`` (perhaps as root) chmod or overwrite its target; a FIFO
    or a device is refused before anything reads it (a FIFO would block ``run`` for ever)."""
    try:
        mode = path.lstat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        return ""
    except OSError as exc:
        return f"{path} cannot be looked at ({exc.strerror or exc}): check the folder's owner and mode"
    if stat.S_ISDIR(mode):
        return f"{path} is a directory, not the {what} file: remove it"
    if stat.S_ISLNK(mode):
        return f"{path} is a symbolic link, not the {what} file: remove it (the table keeps it as a plain file)"
    if not stat.S_ISREG(mode):
        return f"{path} is not a regular file (a FIFO, socket or device), not the {what} file: remove it"
    return ""


def _open_no_link(path: Path) -> int:
    """A read-only descriptor of the regular file ``path``, refusing a symbolic link in its place
    (``O_NOFOLLOW``) and anything but a regular file (checked with ``fstat`` on the descriptor, so a
    name swapped after :func:`not_a_file` looked is caught too; ``O_NONBLOCK``: a FIFO does not wait).

    Raises:
        SecretFileError: a symbolic link, or not a regular file.
        OSError: it cannot be opened (``FileNotFoundError`` when there is none).
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise SecretFileError(f"{path} is a symbolic link: remove it (the table keeps it as a plain file)") from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise SecretFileError(f"{path} is not a regular file (a FIFO, socket or device): remove it")
    return fd


def read_no_link(path: Path) -> bytes:
    """The bytes of the regular file ``path``, read through :func:`_open_no_link` (same errors)."""
    fd = _open_no_link(path)
    with os.fdopen(fd, "rb") as fp:
        return fp.read()


def _existing_mode(path: Path, what: str) -> int | None:
    """The permission bits of the file ``path``, or ``None`` if there is none.

    Raises:
        SecretFileError: ``path`` is not a regular file (:func:`not_a_file`).
    """
    if problem := not_a_file(path, what):
        raise SecretFileError(problem)
    try:
        return stat.S_IMODE(path.lstat().st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return None


def _make_private(path: Path, mode: int | None, what: str) -> None:
    """Make the file ``path`` (of permission bits ``mode``) 0600 if group or others may access it,
    with a warning naming it and its old mode.

    Raises:
        SecretFileError: its mode cannot be changed (not the owner).
    """
    if mode is None or not mode & 0o077:
        return
    try:
        fd = _open_no_link(path)
        try:
            os.fchmod(fd, 0o600)  # on the file opened, not on whatever the name points at by now
        finally:
            os.close(fd)
    except SecretFileError:
        raise
    except OSError as exc:
        raise SecretFileError(f"{path} is mode {mode:04o}, open to other users, and cannot be made private "
                              f"({exc.strerror or exc}): run `chmod 600 {path}` as its owner") from None
    log.warning("%s was mode %04o, open to other users: made private (0600)%s", path, mode,
                "; delete it for a new key if others may have read it (everyone logs in again)"
                if what == "session key" else "")


LEFTOVER_AGE_S = 60.0
"""A temporary file of :func:`_write_private` older than this (seconds), or dated this far in the
future (a clock set back, as on a Pi without a clock battery before it syncs), was left by a crash."""


def sweep_leftovers(path: Path) -> list[Path]:
    """Delete the temporary copies of ``path`` that a crash between write and rename left beside
    it (``.<name>.*.tmp``, older than :data:`LEFTOVER_AGE_S` or as far in the future): each holds
    an old PIN or session key. A younger one may be another process's write in progress and is left.

    Returns:
        The files deleted (a warning is logged for each); one that cannot be deleted is skipped.
    """
    gone = []
    try:
        found = list(path.parent.glob(f".{path.name}.*.tmp"))
    except OSError:
        return gone
    for tmp in found:
        try:
            if abs(time.time() - tmp.lstat().st_mtime) < LEFTOVER_AGE_S:  # far in the future: a clock set back
                continue
            tmp.unlink()
        except OSError:
            continue
        log.warning("%s: a temporary copy of %s left by an interrupted write: deleted", tmp, path.name)
        gone.append(tmp)
    return gone


def _write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` as a new 0600 file, all or nothing: a temporary file beside it
    (``tempfile.mkstemp``: a fresh name, created exclusively, so no symlink planted there is
    followed), flushed to disk, then renamed over ``path`` (a power cut leaves the old file or the
    new one, never an empty one).

    Raises:
        OSError: it cannot be written.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:  # a read-only or full file system: name the file the user knows
        raise OSError(exc.errno, f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="ascii") as fp:
            fp.write(text)
            fp.flush()
            os.fsync(fp.fileno())
        os.replace(tmp, path)
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)  # the rename itself reaches the disk too
        finally:
            os.close(dir_fd)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise OSError(exc.errno, f"cannot write {path}: {exc.strerror or exc}") from None
        raise


# --- the PIN -----------------------------------------------------------------------------------

def valid_pin(text: str) -> bool:
    return text.isascii() and text.isdigit() and 4 <= len(text) <= 12


def _stored_pin(path: Path) -> tuple[str | None, str]:
    """``(pin, "")`` from the PIN file, or ``(None, what is wrong)``: ``"missing"``, ``"empty"``, a
    sentence saying why it cannot be read, or the text found (``repr``, starting with a quote). A
    byte-order mark and surrounding blanks (a file saved by a text editor) are ignored."""
    if problem := not_a_file(path, "PIN"):
        return None, problem
    try:
        text = path.read_bytes().decode("utf-8-sig").strip()
    except FileNotFoundError:
        return None, "missing"
    except OSError as exc:
        return None, f"{path} cannot be read ({exc.strerror or exc}): check its owner and mode"
    except UnicodeDecodeError:
        return None, f"{path} is not text (UTF-8 or ASCII digits)"
    if not text:
        return None, "empty"
    return (text, "") if valid_pin(text) else (None, repr(text[:40]))


def pin_problem(data_dir: Path) -> str:
    """What keeps ``run`` from using the PIN file in ``data_dir``, in words, or ``""`` when it can
    (a valid PIN, or no file or an empty one, which ``run`` replaces)."""
    path = Path(data_dir) / PIN_FILE
    _, problem = _stored_pin(path)
    if problem in ("", "missing", "empty"):
        return ""
    if problem.startswith(("'", '"')):
        return (f"{path} holds {problem}, not a PIN of 4 to 12 digits: correct it, or delete it for a new "
                "random PIN (or give --pin)")
    return problem


def secrets_problem(data_dir: Path, pin_given: bool = False) -> str:
    """What keeps ``run`` from using the PIN, session-key or revoked-sessions file in ``data_dir``, in
    words, or ``""`` (the first such problem); read only (``run`` asks before it takes the log, and
    writes them after). ``pin_given``: a ``--pin`` replaces what the PIN file holds, so only
    something other than a file in its place is a problem."""
    data_dir = Path(data_dir)
    if data_dir.exists() and not data_dir.is_dir():
        return f"{data_dir} is a file, not the table's data folder: give --data-dir a folder"
    pin_path = data_dir / PIN_FILE
    if problem := not_a_file(pin_path, "PIN") if pin_given else pin_problem(data_dir):
        return problem
    path, revoked = data_dir / SESSION_SECRET_FILE, data_dir / REVOKED_FILE
    if problem := not_a_file(path, "session key") or not_a_file(revoked, "revoked sessions"):
        return problem
    if revoked.exists() and not os.access(revoked, os.R_OK):  # its logouts must not be forgotten
        return (f"{revoked} cannot be read by this user (uid {os.geteuid()}): the control page's logged-out "
                "sessions are in it; make it this user's (chown) or delete it together with session-secret")
    for secret in (pin_path, path, revoked):  # a loose mode is made 0600 at start: only the owner can
        try:
            st = secret.stat()
        except OSError:
            continue
        if st.st_mode & 0o077 and st.st_uid != os.geteuid() != 0:  # root may chmod any file
            return (f"{secret} is mode {stat.S_IMODE(st.st_mode):04o}, open to other users, and owned by "
                    f"uid {st.st_uid}, not this user ({os.geteuid()}): it cannot be made private; "
                    "chown or delete it")
    return ""


def read_pin(data_dir: Path) -> str | None:
    """The stored PIN (4 to 12 digits, as ``--pin`` takes) of the table whose data folder is
    ``data_dir``, or ``None``. Read only: the file's mode is left as it is."""
    return _stored_pin(Path(data_dir) / PIN_FILE)[0]


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
    data_dir = Path(data_dir)
    path = data_dir / PIN_FILE
    sweep_leftovers(path)
    _make_private(path, _existing_mode(path, "PIN"), "PIN")
    if given is None:
        stored, problem = _stored_pin(path)
        if stored:
            return stored
        if refused := pin_problem(data_dir):
            raise SecretFileError(refused)
        if problem == "empty":
            log.warning("%s is empty: a new PIN is made (the control page's players log in again)", path)
        given = f"{secrets.randbelow(10**6):06d}"
    if _stored_pin(path)[0] != given:  # written only when it changes: a start with --pin rewrites nothing
        _write_private(path, given + "\n")
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
    path = Path(data_dir) / SESSION_SECRET_FILE
    sweep_leftovers(path)
    mode = _existing_mode(path, "session key")
    try:
        lines = path.read_text(encoding="ascii").split()
        key, tag = (bytes.fromhex(line) for line in lines) if len(lines) == 2 else (b"", b"")
        if len(key) != SESSION_SECRET_BYTES or len(tag) != hashlib.sha256().digest_size:
            raise ValueError(f"not a {SESSION_SECRET_BYTES}-byte key and its tag, in hex")
    except FileNotFoundError:
        pass
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        log.warning("%s is not a session key (%s): a new one is made, the control page's players log in again",
                    path, exc)
    else:
        if hmac.compare_digest(tag, _pin_tag(key, pin)):
            _make_private(path, mode, "session key")
            return key
        log.info("the control page's PIN changed: a new session key, every control session ends")
    key = secrets.token_bytes(SESSION_SECRET_BYTES)
    _write_private(path, f"{key.hex()}\n{_pin_tag(key, pin).hex()}\n")
    return key
