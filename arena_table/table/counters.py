"""Divine dice beside hero cards read as the heroes' divine power (Demigods rage, focus, mana).

Demigods Evolution, 'Divine Power' (p.12): "Each hero uses one divine die with the color
corresponding with their divine power to track their current total. The die should be placed on
or near each hero card"; a hero holds 0 to 6 of it. A slot (:mod:`.counter_slots`, the
``[counters]`` configuration) is the place beside one hero's card; the divine die whose box centre
lies in it gives that hero's value, and an empty slot reads 0 (the die has no 0 face). A changed
value becomes a ``dg-divine-read`` event, which the Demigods engine records and its view compares
with the value it keeps (the spectator screen shows a mismatch).

:class:`CounterReader` is one of the camera loop's frame readers (``CameraLoop.frame_readers``,
beside the figure reader): it gets every full frame, reads at most one every ``interval_s``, runs
the kind reader (``arena_table.vision.kinds.read_kinds``) on each slot's part of the frame only,
and submits the events through the table like every sensed event. A slot whose part of the frame
looks as it did at its last reading (:func:`unchanged`) keeps that reading without the kind reader:
a reading of six slots costs about 6.5 times ``bench.dice.reference_ms``, a still one about 0.01
times (``python -m arena_table.bench.counters``). It is built only when slots are
configured, and does nothing while the running game is not Demigods.

The readings are those of the kind reader: objects with ``kind``, ``face``, ``box`` (x, y, w, h
px) and ``status`` (``ok``, ``abstain``, ``other-kind``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

import cv2
import numpy as np

from arena_table.rules import Refused, find_game
from arena_table.rules.games.demigods.events import DivineRead

from .counter_slots import CounterSlot, contains
from .ports import Ports

log = logging.getLogger(__name__)

DIVINE_KINDS = {"rage": "demigods-divine-rage", "focus": "demigods-divine-focus", "mana": "demigods-divine-mana"}
"""Divine power -> its die kind in the Demigods catalogue (``data/die_kinds.json``)."""
REGION_GROW = 0.5
"""Each slot's part of the frame is its box grown by this share of its longer side on every side,
so a die whose centre lies in the slot is seen whole even where it sticks out."""
FRAME_SLACK_S = 0.005
"""A frame due within this much of ``interval_s`` counts as due (frame times are ``k / fps``)."""


@dataclass(frozen=True)
class PlacedSlot:
    """A slot in one camera's pixels: the part of the frame to read, and the test of a die's centre."""

    slot: CounterSlot
    region: tuple[int, int, int, int]
    """x, y, width, height px of the frame read for this slot (clipped to the frame)."""
    holds: Callable[[tuple[float, float]], bool]
    """Whether a die centre (frame px) lies in the slot."""
    outline: tuple[tuple[float, float], ...] = ()
    """The slot's four corners in frame px (a box_mm slot's box seen in perspective)."""
    frame_of: str = "px"
    """``mm`` (placed through the board calibration) or ``px``."""


def place(slots: Sequence[CounterSlot], frame_size: tuple[int, int], board: Any = None
          ) -> tuple[list[PlacedSlot], list[str]]:
    """Each slot in the frame's pixels, and one line for each slot that cannot be placed.

    A slot's ``box_mm`` is used when ``board`` (a :class:`~arena_table.vision.board_calib.BoardCalibration`
    of this frame size) is given: its corners are mapped to pixels through the inverse homography and
    a die centre is mapped back to board mm to be tested. Otherwise its ``box_px``.

    Args:
        frame_size: (width, height) px of the full frame.
    """
    width, height = frame_size
    placed, problems = [], []
    h_inv = np.linalg.inv(np.asarray(board.homography, np.float64)) if board is not None else None
    for s in slots:
        if s.box_mm is not None and board is not None:
            x, y, w, h = s.box_mm
            quad = np.array([[x, y, 1], [x + w, y, 1], [x + w, y + h, 1], [x, y + h, 1]], np.float64) @ h_inv.T
            px = quad[:, :2] / quad[:, 2:]
            bx, by = px.min(axis=0)
            bw, bh = px.max(axis=0) - (bx, by)
            box = (float(bx), float(by), float(bw), float(bh))
            outline, frame_of = tuple((float(a), float(b)) for a, b in px), "mm"
            mm = s.box_mm

            def holds(c, mm=mm):
                return contains(mm, board.to_board([c])[0])
        elif s.box_px is not None:
            box = s.box_px
            x, y, w, h = box
            outline, frame_of = ((x, y), (x + w, y), (x + w, y + h), (x, y + h)), "px"

            def holds(c, box=box):
                return contains(box, c)
        else:
            problems.append(f"{s.hero}'s slot is in board mm and there is no board calibration "
                            "(arena-table calibrate), nor a box_px")
            continue
        grow = REGION_GROW * max(box[2], box[3])
        x0, y0 = max(0, int(box[0] - grow)), max(0, int(box[1] - grow))
        x1, y1 = min(width, int(np.ceil(box[0] + box[2] + grow))), min(height, int(np.ceil(box[1] + box[3] + grow)))
        if x1 - x0 < 2 or y1 - y0 < 2:
            problems.append(f"{s.hero}'s slot lies outside the {width}x{height} frame")
            continue
        placed.append(PlacedSlot(s, (x0, y0, x1 - x0, y1 - y0), holds, outline, frame_of))
    return placed, problems


def _centre(box: Sequence[float]) -> tuple[float, float]:
    return box[0] + box[2] / 2, box[1] + box[3] / 2


def slot_value(readings: Iterable[Any], slot: PlacedSlot, power: str) -> tuple[int | None, str]:
    """The value a slot shows, from the readings of its region (boxes in frame px), and why not.

    0 when no die lies in the slot; ``None`` with the reason when its die cannot be taken: two dice
    in one slot, a die not read (``abstain``, ``other-kind``), or a divine die of another power than
    ``power`` (``""``: any divine die). The hero then keeps its last value.
    """
    inside = [r for r in readings if slot.holds(_centre(r.box))]
    hero = slot.slot.hero
    if not inside:
        return 0, ""
    if len(inside) > 1:
        return None, f"{len(inside)} dice in {hero}'s slot"
    r = inside[0]
    if r.status != "ok" or r.kind not in DIVINE_KINDS.values():
        return None, f"the die in {hero}'s slot is not read as a divine die ({r.status})"
    if power and r.kind != DIVINE_KINDS[power]:
        return None, f"a {r.kind} die in {hero}'s slot; {hero}'s divine power is {power}"
    return int(r.face), ""


class CounterTracker:
    """Successive values of the slots -> ``dg-divine-read`` events, one per change.

    A value becomes an event after ``stable_reads`` reads in a row show it (a hand turning the die
    over shows other faces for a moment); a slot not read (``None``) neither counts nor breaks a
    run. ``known``: the value the log already has for each hero, so a restart records nothing anew.
    """

    def __init__(self, stable_reads: int = 1) -> None:
        self.stable_reads = stable_reads
        self.last: dict[str, int] = {}
        self._run: dict[str, tuple[int, int]] = {}

    def update(self, values: Mapping[str, int | None], known: Mapping[str, int] | None = None) -> list[DivineRead]:
        """Events for every hero whose slot now steadily shows a value other than its last one."""
        out = []
        for hero, value in values.items():
            if value is None:
                continue
            seen, count = self._run.get(hero, (value, 0))
            count = count + 1 if seen == value else 1
            self._run[hero] = (value, count)
            last = self.last.get(hero, (known or {}).get(hero))
            if count >= self.stable_reads and last != value:
                self.last[hero] = value
                out.append(DivineRead(who=hero, value=value))
        return out


class CounterReader:
    """The camera loop's reader of the hero-card slots (see the module docstring).

    Args:
        ports: the table as the ``counters`` device sees it (submit, state, report).
        slots: the configured slots.
        board: gives the board calibration in force, or ``None`` (the figure reader's, which the
            control page may recalibrate, or the data folder's file).
        interval_s: least frame time between two frames read.
        stable_reads: reads in a row a new value must show (:class:`CounterTracker`).
        kinds: the die kinds read (default: the three divine dice of the catalogue).
    """

    def __init__(self, ports: Ports, slots: Sequence[CounterSlot], board: Callable[[], Any] = lambda: None, *,
                 interval_s: float = 0.5, stable_reads: int = 2, kinds: Sequence[Any] | None = None) -> None:
        from arena_table.rules.kernel.mechanics.die_kinds import find_kind

        self.ports = ports
        self.slots = tuple(slots)
        self.board = board
        self.interval_s = interval_s
        self.tracker = CounterTracker(stable_reads)
        self.kinds = tuple(kinds) if kinds is not None else tuple(find_kind(k) for k in DIVINE_KINDS.values())
        self.reads = 0
        """``dg-divine-read`` events the engine accepted."""
        self.unread: dict[str, str] = {}
        """Hero -> why its slot was not read in the last reading (its last value kept); also the
        ``unread`` field of the ``counters`` status entry."""
        self._last_t: float | None = None
        self._placed: tuple[Any, list[PlacedSlot]] | None = None
        self._memory: dict[str, tuple] = {}
        """Each slot's last reading and how its region looked (:func:`read_slots`)."""
        self._said: set[str] = set()
        self._status: dict[str, Any] = {}
        self._report(state="ok", detail=f"counters: {len(self.slots)} hero slot(s)")

    def __repr__(self) -> str:
        return f"<CounterReader {len(self.slots)} slots, {self.reads} reads>"

    # the table's device protocol: the camera loop drives this reader
    def start(self) -> "CounterReader":
        return self

    def close(self) -> None:
        pass

    def _report(self, **changes: Any) -> None:
        """This reader's status entry with ``changes`` (the board keeps only the last report whole)."""
        self._status.update(changes)
        self.ports.report(**self._status)

    def _once(self, message: str) -> None:
        if message not in self._said:
            self._said.add(message)
            log.warning("counters: %s", message)
            self._report(state="warning", detail=f"counters: {message}", problems=sorted(self._said))

    def _placed_for(self, size: tuple[int, int]) -> list[PlacedSlot]:
        board = self.board()
        if board is not None and tuple(board.resolution) != tuple(size):
            self._once(f"board calibration made at {board.resolution[0]}x{board.resolution[1]}, frames are "
                       f"{size[0]}x{size[1]}: box_mm slots not used (arena-table calibrate)")
            board = None
        key = (id(board), size)
        if self._placed is None or self._placed[0] != key:
            placed, problems = place(self.slots, size, board)
            for p in problems:
                self._once(p)
            self._placed, self._memory = (key, placed), {}
        return self._placed[1]

    def __call__(self, frame: Any) -> None:
        """Read ``frame`` (the full camera frame, a :class:`~arena_table.vision.frames.Frame`) unless
        one was read less than ``interval_s`` ago or the running game is not Demigods."""
        if self._last_t is not None and frame.t - self._last_t < self.interval_s - FRAME_SLACK_S:
            return
        self._last_t = frame.t
        table = self.ports.state()
        if find_game(table.game).name != "demigods" or not hasattr(table.state, "chars"):
            return
        chars = table.state.chars
        image = frame.image
        placed = []
        for p in self._placed_for((image.shape[1], image.shape[0])):
            ch = chars.get(p.slot.hero)
            if ch is None or not ch.power:
                self._once(f"{p.slot.hero} is no hero with divine power in this game "
                           f"(heroes: {', '.join(c for c, x in chars.items() if x.power)})")
            elif p.slot.power and p.slot.power != ch.power:
                self._once(f"{p.slot.hero}'s slot is set for {p.slot.power}; {p.slot.hero}'s divine power is "
                           f"{ch.power} (counters.slots)")
            else:
                placed.append((p, ch.power))
        values, unread = read_slots(image, placed, self.kinds, self._memory)
        if unread != self.unread:  # told when it changes, not every reading
            self.unread = unread
            self._report(unread=dict(unread))
            for hero, why in unread.items():
                log.info("counters: %s: %s", frame.name, why)
        reads = getattr(table.state, "reads", {})
        for event in self.tracker.update(values, reads):
            try:
                self.ports.submit(event)
            except Refused as exc:  # recorded as refused by the engine; reading goes on
                log.info("counters: %s refused: %s", event, exc)
                continue
            self.reads += 1
            self._report(detail=f"counters: {event.who} {event.value}",
                         last_read={"who": event.who, "value": event.value, "frame": frame.name})


def read_slots(image: np.ndarray, placed: Sequence[tuple[PlacedSlot, str]], kinds: Sequence[Any],
               memory: dict[str, tuple] | None = None) -> tuple[dict[str, int | None], dict[str, str]]:
    """One reading of the slots on ``image`` (the full frame, HxWx3 BGR): the kind reader on each
    slot's region only, then :func:`slot_value` with the hero's divine power.

    Args:
        placed: ``(slot, power)`` for each slot to read.
        kinds: the die kinds the kind reader tells apart (the divine dice).
        memory: kept by the caller between readings (start with ``{}``): a slot whose region looks as
            it did when it was last read (:func:`unchanged`) keeps that reading, without the kind
            reader; a divine die lies still for most of a game.

    Returns:
        hero -> value (``None``: not read), and hero -> why for each slot not read.
    """
    from arena_table.vision.kinds import read_kinds

    values: dict[str, int | None] = {}
    unread: dict[str, str] = {}
    for p, power in placed:
        x, y, w, h = p.region
        region = image[y:y + h, x:x + w]
        hero = p.slot.hero
        thumb = _thumb(region) if memory is not None else None
        if memory is not None and hero in memory and unchanged(memory[hero][0], thumb):
            value, why = memory[hero][1:]
        else:
            readings = [_moved(r, x, y) for r in read_kinds(region, kinds, game="demigods")]
            value, why = slot_value(readings, p, power)
            if value == 0 and occupied(region, p):
                value, why = None, (f"something lies in {hero}'s slot that is not read as a die (a die touching "
                                    "another, or a card's edge?)")
            if memory is not None:
                memory[hero] = (thumb, value, why)
        values[hero] = value
        if why:
            unread[hero] = why
    return values, unread


FOREGROUND_LAB = 30.0
"""Colour distance (CIE Lab) from the region's border colour above which a pixel is something lying
on the table: the kind reader's own test for a die (``vision.kinds.locate``)."""
OCCUPIED_PX = 400
"""Pixels of such things inside a slot's outline (the kind reader's smallest die: 20x20 px) that make
a slot with no die found "not read" rather than empty."""


def occupied(region: np.ndarray, slot: PlacedSlot) -> bool:
    """Whether something other than the table lies inside the slot's outline: at least
    :data:`OCCUPIED_PX` pixels of ``region`` (the slot's part of the frame) inside it are further than
    :data:`FOREGROUND_LAB` from the median colour of the region's border.

    The kind reader drops what is not one square die (two dice touching, a die against a card's
    edge): without this such a slot would read 0, an empty slot, and record a false ``0``."""
    lab = cv2.cvtColor(cv2.GaussianBlur(region, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    border = np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]])
    far = np.linalg.norm(lab - np.median(border, axis=0), axis=2) > FOREGROUND_LAB
    inside = np.zeros(far.shape, np.uint8)
    x0, y0 = slot.region[:2]
    cv2.fillPoly(inside, [np.round(np.array(slot.outline) - (x0, y0)).astype(np.int32)], 1)
    return int(np.count_nonzero(far & (inside > 0))) >= OCCUPIED_PX


THUMB_BLOCK_PX = 4
"""A slot's region is compared between readings by the mean grey of each block of this many pixels
square: finer than a numeral's stroke on a die, coarse enough to average sensor noise away."""
CHANGE_LEVEL = 12.0
"""Largest difference of one block (grey levels, 0-255) two looks of a slot may have and still be
the same scene. On rendered photos (``arena_table.vision.counter_film``, 44 px dice, sensor noise of
3 levels) noise moves a block by at most 2 levels, and turning a divine die to another face at the
same spot moves the numeral's blocks by 31-78."""


def _thumb(region: np.ndarray) -> np.ndarray:
    grey = cv2.cvtColor(region, cv2.COLOR_BGR2GRAY)
    size = (max(1, grey.shape[1] // THUMB_BLOCK_PX), max(1, grey.shape[0] // THUMB_BLOCK_PX))
    return cv2.resize(grey, size, interpolation=cv2.INTER_AREA).astype(np.float32)


def unchanged(before: np.ndarray, now: np.ndarray) -> bool:
    """Whether two looks of a slot's region (:func:`_thumb`) show the same scene: no block differs by
    more than :data:`CHANGE_LEVEL`.

    >>> a = np.zeros((40, 40), np.float32)
    >>> b = a.copy(); b[20, 20] = 30
    >>> unchanged(a, a + 5), unchanged(a, b)
    (True, False)
    """
    return before.shape == now.shape and float(np.abs(before - now).max()) <= CHANGE_LEVEL


def draw_slots(image: np.ndarray, placed: Sequence[PlacedSlot], values: Mapping[str, int | None]) -> np.ndarray:
    """A copy of ``image`` with each slot's outline and its hero and value drawn over it (``?``: not
    read): green read, red not read.

    >>> out = draw_slots(np.zeros((40, 40, 3), np.uint8), [], {})
    >>> out.shape, int(out.max())
    ((40, 40, 3), 0)
    """
    out = image.copy()
    thick = max(1, round(max(image.shape[:2]) / 640))
    for p in placed:
        value = values.get(p.slot.hero)
        colour = (60, 200, 60) if value is not None else (40, 40, 230)
        pts = np.round(np.array(p.outline)).astype(np.int32)
        cv2.polylines(out, [pts], True, colour, thick, cv2.LINE_AA)
        x, y = int(pts[:, 0].min()), int(pts[:, 1].min())
        cv2.putText(out, f"{p.slot.hero} {'?' if value is None else value}", (x, max(12, y - 4)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.4 * thick + 0.1, colour, thick, cv2.LINE_AA)
    return out


@dataclass(frozen=True)
class _Shifted:
    kind: Any
    face: Any
    box: tuple[int, int, int, int]
    status: str


def _moved(r: Any, dx: int, dy: int) -> _Shifted:
    """A reading of a slot's region with its box in full-frame pixels."""
    x, y, w, h = r.box
    return _Shifted(r.kind, r.face, (x + dx, y + dy, w, h), r.status)


def build_counters(ports: Ports, settings: Any, board: Callable[[], Any]) -> CounterReader | None:
    """The counters reader of a ``[counters]`` section (:class:`~.config.CounterSettings`), or
    ``None`` when it configures no slot (nothing is read then)."""
    if not settings.slots:
        return None
    return CounterReader(ports, [CounterSlot.of(s) for s in settings.slots], board,
                         interval_s=settings.interval_s, stable_reads=settings.stable_reads)
