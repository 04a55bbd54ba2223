"""A simulated reader: tags are laid down and taken away by method calls.

Pure (no hardware imports). Used by the firmware scenario tests (CPython and
MicroPython) and by the host's ``--tokens sim`` table, which runs the real
:class:`scanner.Scanner` over these readers behind a pseudo-terminal.
"""

try:
    from .uid import uid_bytes
except ImportError:
    from uid import uid_bytes


class SimReader:
    """One simulated pad: ``place(uid)``, ``remove()``, ``drop(n)`` flaky reads, ``fail(why)``."""

    name = "sim"

    def __init__(self, where="sim"):
        self.where = where
        self.uid = None
        self._drops = 0
        self._fault = None

    def place(self, uid):
        """Lay the tag with canonical UID text ``uid`` on the pad (replacing any other)."""
        self.uid = uid_bytes(uid)

    def remove(self):
        self.uid = None

    def drop(self, n):
        """The next ``n`` polls miss the tag even if it is there (a tag at the field's edge)."""
        self._drops = n

    def fail(self, why="no-answer"):
        """The chip stops answering (``why=None`` brings it back)."""
        self._fault = why

    def init(self):
        if self._fault:
            raise OSError(self._fault)
        return "sim"

    def poll(self):
        if self._fault:
            raise OSError(self._fault)
        if self._drops:
            self._drops -= 1
            return None
        return self.uid
