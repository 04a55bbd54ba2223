"""Placed/removed transitions of one reader pad from its raw polls.

Pure: no hardware imports, no clock. A reader answers each poll with the UID
it sees or ``None``; a resting tag is one ``placed``, never a stream, and a tag
counts as removed only after ``miss_limit`` consecutive empty polls (a tag on
the edge of the field, or a poll that collides with the card's own reset, drops
single reads). A different UID replaces the old one at once.
"""


class PadDebounce:
    """Debounce state of one pad.

    ``uid`` is the UID the pad reports as present (or ``None``); ``misses`` the
    consecutive empty polls seen since it was last read.
    """

    def __init__(self, miss_limit=3):
        if miss_limit < 1:
            raise ValueError("miss_limit must be at least 1")
        self.miss_limit = miss_limit
        self.uid = None
        self.misses = 0

    def update(self, uid):
        """Feed one poll (canonical UID text or ``None``); returns ``[(kind, uid), ...]``.

        ``kind`` is ``"placed"`` or ``"removed"``; at most two transitions (a swap).
        """
        if uid is None:
            if self.uid is None:
                return []
            self.misses += 1
            if self.misses < self.miss_limit:
                return []
            old, self.uid, self.misses = self.uid, None, 0
            return [("removed", old)]
        self.misses = 0
        if uid == self.uid:
            return []
        out = [] if self.uid is None else [("removed", self.uid)]
        self.uid = uid
        out.append(("placed", uid))
        return out
