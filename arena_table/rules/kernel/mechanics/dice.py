"""The dice record: every roll of the running game, with statistics (a kernel mechanic).

The table keeps one for every game (:class:`arena_table.rules.kernel.table.TableState`
``tray``); the ``dice-tray`` game (:mod:`arena_table.rules.games.dice_tray`) is nothing but
this record, for a game the engine does not know.

Statistics per die kind: totals, per-face counts and, once
:data:`FAIRNESS_MIN_DICE` dice of a kind have been read, Pearson's chi-square
goodness-of-fit statistic against a fair die with its p-value
(chi-square distribution with ``sides - 1`` degrees of freedom). A p-value
under 0.01 is the usual sign of a biased die or a biased reader.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..errors import Refused
from ..events import MEDIA_REF, DiceRolled, DieCorrected, Event
from .die_kinds import KIND_ID, SYMBOL, DieKind, DieKindError, face_index, find_kind

FAIRNESS_MIN_DICE = 60
"""Dice of one kind needed before the chi-square figure is reported (expected >= 10 a face on a d6)."""
MAX_SIDES = 1000
"""Largest standard die accepted (``d1000``): anything bigger is a typing slip, not a die."""
MAX_DICE = 100
"""Most dice in one roll."""
HISTORY_IN_VIEW = 20
"""Rolls listed in the spectator view (the whole history stays in the state and the log)."""


@dataclass(frozen=True)
class Roll:
    """One settled roll as recorded, with any corrections applied."""

    seq: int
    die: str
    """The die kind of every die: ``d6``, a game's die name, a kind id of the catalogue, or
    ``mixed`` (``kinds`` names each die's)."""
    faces: tuple[int | str, ...]
    """Each die's value, or its face symbol (a kind roll; a numeral face as its number)."""
    sensed: tuple[int | str, ...]
    """The faces as first read; differs from ``faces`` where a player corrected a die."""
    at: float | None = None
    source: str = ""
    image: str = ""
    crops: tuple[str, ...] = ()
    confidence: tuple[float, ...] = ()
    kinds: tuple[str, ...] = field(default=(), metadata={"omit_default": True})
    """Each die's kind id when the roll named its dice by kind (``roll kinds=[...]``), else empty."""

    @property
    def total(self) -> int:
        """The sum of the faces that are numbers (a symbol face such as ``burn`` adds nothing)."""
        return sum(f for f in self.faces if isinstance(f, int))


@dataclass(frozen=True)
class TrayState:
    """Every roll of the running game, oldest first."""

    rolls: tuple[Roll, ...] = ()


def new_tray() -> TrayState:
    return TrayState()


def sides_of(die: str) -> int | None:
    """Number of faces of a standard die kind, ``None`` for a custom die.

    >>> sides_of("d6"), sides_of("D20"), sides_of("attack")
    (6, 20, None)
    """
    m = re.fullmatch(r"[dD](\d+)", die)
    return int(m.group(1)) if m else None


def roll_kinds(event: DiceRolled) -> tuple[str, ...]:
    """Each die's kind name as the roll gives it (``kinds`` repeated for every die when it names
    one); ``()`` for a roll named by ``die``.

    >>> roll_kinds(DiceRolled(kinds=("demigods-fire",), faces=("burn", 2)))
    ('demigods-fire', 'demigods-fire')
    """
    if not event.kinds:
        return ()
    return event.kinds * len(event.faces) if len(event.kinds) == 1 else tuple(event.kinds)


def known_kind(name: str) -> DieKind | None:
    """The catalogue's kind of id or alias ``name``, or ``None`` (a kind taught at the table)."""
    try:
        return find_kind(name)
    except DieKindError:
        return None


def die_names(kind: str) -> tuple[str, ...]:
    """The names a die of kind ``kind`` goes by: its id and aliases (``demigods-fire``, ``dg-fire``),
    or ``kind`` alone for a kind the catalogue does not know.

    >>> import arena_table.rules
    >>> die_names("dg-fire"), die_names("ivory")
    (('demigods-fire', 'dg-fire'), ('ivory',))
    """
    k = known_kind(kind)
    return (k.id, *k.aliases) if k is not None else (kind,)


def face_symbol(kind: str, face: int | str) -> int | str:
    """The face ``face`` of a die of ``kind`` as a roll records it: the catalogue's symbol, a numeral
    face as its number (``"2"`` -> ``2``).

    Raises:
        Refused: the kind has no such face (its faces named), or for a kind the catalogue does not
            know or whose faces are to enter (placeholders: a table's own dice may differ), ``face``
            is neither a whole number nor a lower-case symbol.

    >>> import arena_table.rules
    >>> face_symbol("demigods-fire", "Burn"), face_symbol("demigods-fire", "-1")
    ('burn', -1)
    """
    k = known_kind(kind)
    if k is not None and (k.has_face(face) or "faces" not in k.to_enter):
        try:
            symbol = k.faces[face_index(k, face) - 1].symbol
        except DieKindError as exc:
            raise Refused(str(exc)) from None
    else:  # a taught kind, or one whose shipped faces are placeholders: the game's own faces decide
        symbol = str(face).strip().lower()
        if isinstance(face, bool) or not SYMBOL.match(symbol):
            raise Refused(f"face {face!r} of a {kind} die is not a number or a lower-case symbol")
    return int(symbol) if re.fullmatch(r"-?[0-9]+", symbol) else symbol


def kind_values(event: DiceRolled) -> tuple[tuple[str, int | str | None], ...]:
    """Each die of a roll named by ``kinds`` as (kind id, the game value of its face): the catalogue's
    value (``burn``, ``2``; the skullduggery die's row), or the face itself for a kind the catalogue
    does not know or a face its placeholder faces lack. ``()`` for a roll named by ``die``.

    Raises:
        Refused: as :func:`_kind_roll`.

    >>> import arena_table.rules
    >>> kind_values(DiceRolled(kinds=("skull",), faces=("lightning", "dash")))
    (('theosis-skullduggery', 5), ('theosis-skullduggery', 1))
    """
    if not event.kinds:
        return ()
    _, ids, faces = _kind_roll(event)
    return tuple((i, k.value_of(f) if (k := known_kind(i)) is not None and k.has_face(f) else f)
                 for i, f in zip(ids, faces))


def _kind_roll(event: DiceRolled) -> tuple[str, tuple[str, ...], tuple[int | str, ...]]:
    """(die, kind id per die, faces) of a roll named by ``kinds``, each checked.

    Raises:
        Refused: kinds that are neither one nor one per die, a ``die`` beside them, an unknown kind
            that is not a kind id, or a face the kind does not have.
    """
    if len(event.kinds) not in (1, len(event.faces)):
        raise Refused(f"{len(event.kinds)} kinds for {len(event.faces)} dice: give one kind for every die, "
                      "or one per die", event=event)
    if event.die != "d6":
        raise Refused(f"a roll names its dice by kinds or by die, not both (die={event.die})", event=event)
    ids, faces = [], []
    for name, face in zip(roll_kinds(event), event.faces):
        k = known_kind(name)
        if k is None and not KIND_ID.match(name):
            raise Refused(f"die kind {name!r} is not a lower-case word (words joined by -)", event=event)
        ids.append(k.id if k is not None else name)
        try:
            faces.append(face_symbol(name, face))
        except Refused as exc:
            raise exc.at(event) from None
    die = ids[0] if len(set(ids)) == 1 else "mixed"
    return die, tuple(ids), tuple(faces)


def game_dice_error(title: str, kinds: Mapping[str, int], tray: TrayState, event: Event) -> str:
    """Why a running game refuses a ``roll`` or ``correct`` event, or "": the game rolls only the
    die kinds it names (kind -> number of faces), each face ``1..faces``.

    >>> dice = {"d4": 4, "skull": 6}
    >>> game_dice_error("Theosis", dice, new_tray(), DiceRolled(die="banana", faces=(3,)))
    "Theosis uses no 'banana' die; its dice: d4 (faces 1-4), skull (faces 1-6)"
    >>> game_dice_error("Theosis", dice, new_tray(), DiceRolled(die="skull", faces=(7, 0)))
    'a skull die of Theosis shows 1 to 6, not [7, 0]'
    >>> game_dice_error("Theosis", dice, new_tray(), DiceRolled(die="D4", faces=(4,)))
    ''
    """
    if isinstance(event, DiceRolled) and event.kinds:
        for name in dict.fromkeys(roll_kinds(event)):
            if not any(n in kinds for n in die_names(name)):
                known = ", ".join(f"{k} (faces 1-{n})" for k, n in kinds.items())
                return f"{title} uses no {name!r} die; its dice: {known}"
        return ""  # the faces are the kind's own (apply_tray checks them)
    if isinstance(event, DiceRolled):
        die, values = event.die, event.faces
    elif isinstance(event, DieCorrected):
        roll = next((r for r in tray.rolls if r.seq == event.roll), None)
        if roll is None:
            return ""  # apply_tray names the missing roll
        if roll.kinds or not isinstance(event.value, int):
            return ""  # a die of a kind: the kind's own faces; a symbol for a numbered die: apply_tray says
        die, values = roll.die, (event.value,)
    else:
        return ""
    sides = sides_of(die)
    kind = f"d{sides}" if sides is not None else die
    if kind not in kinds:
        known = ", ".join(f"{k} (faces 1-{n})" for k, n in kinds.items())
        return f"{title} uses no {die!r} die; its dice: {known}"
    bad = [v for v in values if not 1 <= v <= kinds[kind]]
    if bad:
        return f"a {kind} die of {title} shows 1 to {kinds[kind]}, not {bad if len(values) > 1 else bad[0]}"
    return ""


def already_shows(tray: TrayState, event: DieCorrected) -> bool:
    """Whether the die ``event`` corrects already shows ``event.value`` (a repeated correction,
    e.g. a request resent after a timeout): the table answers it without recording it again.
    ``False`` when the roll or die does not exist (``apply_tray`` then says why).

    >>> tray = apply_tray(new_tray(), DiceRolled(faces=(1, 6)), 1)
    >>> already_shows(tray, DieCorrected(roll=1, index=1, value=6)), already_shows(tray, DieCorrected(roll=1, index=0, value=6))
    (True, False)
    """
    for roll in tray.rolls:
        if roll.seq == event.roll:
            return 0 <= event.index < len(roll.faces) and roll.faces[event.index] == event.value
    return False


def _check_reading(event: DiceRolled) -> None:
    """A roll's camera data: each confidence a number from 0 to 1, ``image`` and ``crops`` media
    references (``events.MEDIA_REF``), not paths.

    >>> _check_reading(DiceRolled(faces=(3, 4), confidence=(2.0, 0.5)))
    Traceback (most recent call last):
    ...
    arena_table.rules.kernel.errors.Refused: illegal event roll faces=[3,4] confidence=[2.0,0.5]: confidence 2.0 of die #1 is not a probability from 0 to 1
    """
    for i, c in enumerate(event.confidence):
        if not isinstance(c, (int, float)) or isinstance(c, bool) or not 0.0 <= c <= 1.0:
            raise Refused(f"confidence {c!r} of die #{i + 1} is not a probability from 0 to 1", event=event)
    for what, ref in [("image", event.image)] + [(f"crop of die #{i + 1}", r) for i, r in enumerate(event.crops)]:
        if ref and not MEDIA_REF.match(ref):
            raise Refused(f"{what} {ref!r} is not a media reference such as 2026-11-29/000123-frame.jpg", event=event)


def _check_extras(event: DiceRolled) -> None:
    """``crops`` and ``confidence`` one per die (or none), and :func:`_check_reading`."""
    for name in ("crops", "confidence"):
        extra = getattr(event, name)
        if extra and len(extra) != len(event.faces):
            raise Refused(f"{name} has {len(extra)} entries for {len(event.faces)} dice", event=event)
    _check_reading(event)


def apply_tray(tray: TrayState, event: Event, seq: int) -> TrayState:
    """The tray after a ``roll`` or ``correct`` event numbered ``seq``.

    Raises:
        Refused: a face outside ``1..sides``, an empty roll, a confidence outside 0..1, an
            image or crop that is not a media reference, or a correction naming a roll or die
            position that does not exist.
    """
    if isinstance(event, DiceRolled):
        if not event.faces:
            raise Refused("a roll needs at least one die", event=event)
        if len(event.faces) > MAX_DICE:
            raise Refused(f"{len(event.faces)} dice in one roll; at most {MAX_DICE}", event=event)
        if event.kinds:
            die, ids, faces = _kind_roll(event)
            _check_extras(event)
            roll = Roll(seq=seq, die=die, faces=faces, sensed=faces, at=event.at, source=event.source,
                        image=event.image, crops=event.crops, confidence=event.confidence, kinds=ids)
            return TrayState(rolls=tray.rolls + (roll,))
        if any(not isinstance(f, int) for f in event.faces):
            raise Refused(f"faces {list(event.faces)} of a {event.die} die must be numbers; a roll of symbol "
                          f"faces names its die kind (roll kinds=[...] faces=[...])", event=event)
        sides = sides_of(event.die)
        if sides is not None and not 2 <= sides <= MAX_SIDES:
            raise Refused(f"no such die {event.die}: standard dice have 2 to {MAX_SIDES} sides", event=event)
        if sides is None and any(abs(f) > MAX_SIDES for f in event.faces):
            raise Refused(f"face values of a {event.die} die must lie within ±{MAX_SIDES}", event=event)
        if sides is not None:
            bad = [f for f in event.faces if not 1 <= f <= sides]
            if bad:
                raise Refused(f"face(s) {bad} impossible on a {event.die}", event=event)
        _check_extras(event)
        die = f"d{sides}" if sides is not None else event.die  # D6, d06 and d6 are one kind of die
        roll = Roll(seq=seq, die=die, faces=event.faces, sensed=event.faces, at=event.at,
                    source=event.source, image=event.image, crops=event.crops, confidence=event.confidence)
        return TrayState(rolls=tray.rolls + (roll,))
    if isinstance(event, DieCorrected):
        for i, roll in enumerate(tray.rolls):
            if roll.seq == event.roll:
                break
        else:
            raise Refused(f"no roll with seq {event.roll} in this game", event=event)
        if not 0 <= event.index < len(roll.faces):
            n = len(roll.faces)
            raise Refused(f"roll {event.roll} has no die with index {event.index} "
                          f"(its {n} dice have index 0 to {n - 1}: #1 to #{n} in the log)", event=event)
        if not roll.kinds and not isinstance(event.value, int):
            raise Refused(f"a {roll.die} die shows a number, not {event.value!r}", event=event)
        sides = sides_of(roll.die)
        if sides is not None and not 1 <= event.value <= sides:
            raise Refused(f"{event.value} is impossible on a {roll.die}", event=event)
        value: int | str = event.value
        if roll.kinds:
            try:
                value = face_symbol(roll.kinds[event.index], event.value)
            except Refused as exc:
                raise exc.at(event) from None
        faces = roll.faces[:event.index] + (value,) + roll.faces[event.index + 1:]
        rolls = tray.rolls[:i] + (dataclasses.replace(roll, faces=faces),) + tray.rolls[i + 1:]
        return TrayState(rolls=rolls)
    return tray


def with_sensed(tray: TrayState, seq: int, sensed: tuple[int, ...]) -> TrayState:
    """``tray`` with roll ``seq`` marked as read ``sensed`` (replay of a corrected roll enters the
    corrected faces; the tray keeps what the camera or the player first gave).

    >>> with_sensed(apply_tray(new_tray(), DiceRolled(faces=(6,)), 1), 1, (2,)).rolls[0].sensed
    (2,)
    """
    return TrayState(rolls=tuple(dataclasses.replace(r, sensed=sensed) if r.seq == seq else r for r in tray.rolls))


def chi2_sf(x: float, dof: int) -> float:
    """Survival function of the chi-square distribution: P(X >= x), X ~ chi2(dof).

    Regularised upper incomplete gamma Q(dof/2, x/2) by series / continued
    fraction (Numerical Recipes, 3rd ed., §6.2).

    >>> round(chi2_sf(11.0705, 5), 4)
    0.05
    >>> round(chi2_sf(0.0, 5), 4)
    1.0
    """
    if x <= 0:
        return 1.0
    a, z = dof / 2.0, x / 2.0
    gln = math.lgamma(a)
    if z < a + 1:  # series for P, then Q = 1 - P
        term = total = 1.0 / a
        ap = a
        for _ in range(1000):
            ap += 1
            term *= z / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-z + a * math.log(z) - gln))
    b = z + 1 - a  # Lentz's continued fraction for Q
    c = 1.0 / 1e-300
    d = 1.0 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-z + a * math.log(z) - gln) * h


def _face_weights(die: str) -> dict[int | str, int] | None:
    """How many faces of a die of kind ``die`` show each face, as a roll records faces (a numeral
    as its number), in face order; ``None`` when the faces are not known (a kind the catalogue does
    not know, or whose shipped faces are placeholders to enter).

    >>> import arena_table.rules
    >>> _face_weights("d4"), _face_weights("demigods-slashing")
    ({1: 1, 2: 1, 3: 1, 4: 1}, {'enrage': 2, 'critical': 1, 2: 1, 1: 1, -1: 1})
    """
    sides = sides_of(die)
    if sides is not None:
        return {f: 1 for f in range(1, sides + 1)}
    k = known_kind(die)
    if k is None or "faces" in k.to_enter:
        return None
    weights: dict[int | str, int] = {}
    for f in k.faces:
        face = int(f.symbol) if re.fullmatch(r"-?[0-9]+", f.symbol) else f.symbol
        weights[face] = weights.get(face, 0) + 1
    return weights


def stats(tray: TrayState) -> dict[str, dict[str, Any]]:
    """Per die kind: ``rolls``, ``dice``, ``total``, ``mean``, ``counts`` (face -> count),
    ``chi2``/``p_value`` once :data:`FAIRNESS_MIN_DICE` dice of that kind are in (else ``None``),
    and ``shares`` (face -> the share of a fair die's throws it shows) for a kind whose faces do not
    all show once (Slashing's two Enrage faces).
    A roll named by ``kinds`` counts each die under its own kind (a throw of a fire and an ice die
    adds one die to each). A kind whose faces are known lists every face, those not thrown at 0, and
    is tested against its faces' shares (a face printed twice is expected twice as often).

    >>> t = TrayState()
    >>> for i, f in enumerate([1, 2, 3, 4, 5, 6] * 10):
    ...     t = apply_tray(t, DiceRolled(faces=(f,)), i + 1)
    >>> s = stats(t)["d6"]
    >>> s["dice"], s["chi2"], s["p_value"]
    (60, 0.0, 1.0)
    """
    out: dict[str, dict[str, Any]] = {}
    for roll in tray.rolls:
        dice = zip(roll.kinds, roll.faces) if roll.kinds else ((roll.die, f) for f in roll.faces)
        rolled = set()
        for die, f in dice:
            s = out.setdefault(die, {"rolls": 0, "dice": 0, "total": 0, "counts": {}})
            if die not in rolled:
                rolled.add(die)
                s["rolls"] += 1
            s["dice"] += 1
            s["total"] += f if isinstance(f, int) else 0  # a symbol face such as burn adds nothing
            s["counts"][f] = s["counts"].get(f, 0) + 1
    for die, s in out.items():
        weights = _face_weights(die)
        if weights is not None:
            s["counts"] = {**{f: s["counts"].get(f, 0) for f in weights},
                           **{f: c for f, c in s["counts"].items() if f not in weights}}
        else:
            s["counts"] = dict(sorted(s["counts"].items(), key=lambda kv: (isinstance(kv[0], str), kv[0])))
        if weights is not None and len(set(weights.values())) > 1:  # a face printed twice: its share
            s["shares"] = {f: round(w / sum(weights.values()), 4) for f, w in weights.items()}
        s["mean"] = s["total"] / s["dice"] if s["dice"] else None
        s["chi2"] = s["p_value"] = None
        if weights is not None and len(weights) > 1 and s["dice"] >= FAIRNESS_MIN_DICE \
                and len(s["counts"]) == len(weights):
            n = sum(weights.values())
            chi2 = sum((s["counts"][f] - s["dice"] * w / n) ** 2 / (s["dice"] * w / n) for f, w in weights.items())
            s["chi2"] = round(chi2, 4)
            s["p_value"] = round(chi2_sf(chi2, len(weights) - 1), 4)
    return out


def tray_view(tray: TrayState) -> dict[str, Any]:
    """The tray as the spectator screen shows it: last roll, recent history, statistics."""
    def roll_json(r: Roll) -> dict[str, Any]:
        return {"seq": r.seq, "die": r.die, "faces": list(r.faces), "sensed": list(r.sensed),
                "total": r.total, "at": r.at, "source": r.source, "image": r.image,
                "crops": list(r.crops), "confidence": list(r.confidence),
                **({"kinds": list(r.kinds), "kind_titles": [k.title if (k := known_kind(i)) is not None else i
                                                             for i in r.kinds]} if r.kinds else {})}

    st = stats(tray)
    return {
        "last": roll_json(tray.rolls[-1]) if tray.rolls else None,
        "history": [roll_json(r) for r in reversed(tray.rolls[-HISTORY_IN_VIEW:])],
        "rolls": len(tray.rolls),
        "stats": {die: {**s, **{key: {str(k): v for k, v in s[key].items()} for key in ("counts", "shares") if key in s}}
                  for die, s in st.items()},
    }


def describe_tray(tray: TrayState, event: Event) -> str:
    """Plain words for a tray event (``tray`` is the state before it)."""
    if isinstance(event, DiceRolled) and event.kinds:
        try:
            die, ids, faces_read = _kind_roll(event)
        except Refused:
            return ""
        names = [k.title if (k := known_kind(i)) is not None else i for i in ids]
        if die != "mixed":
            total = f" (total {sum(faces_read)})" if all(isinstance(f, int) for f in faces_read) else ""
            return f"Rolled {len(faces_read)} × {names[0]}: {', '.join(map(str, faces_read))}{total}"
        return "Rolled " + ", ".join(f"{name} {face}" for name, face in zip(names, faces_read))
    if isinstance(event, DiceRolled):
        faces = ", ".join(map(str, event.faces))
        n = len(event.faces)
        sides = sides_of(event.die)
        die = f"d{sides}" if sides is not None else f" × {event.die}"  # "2d6", "2 × attack"
        return f"Rolled {n}{die}: {faces} (total {sum(event.faces)})"
    if isinstance(event, DieCorrected):
        roll = next((r for r in tray.rolls if r.seq == event.roll), None)
        was = f" from {roll.faces[event.index]}" if roll is not None and 0 <= event.index < len(roll.faces) else ""
        return f"Corrected die #{event.index + 1} of roll {event.roll}{was} to {event.value}"
    return ""
