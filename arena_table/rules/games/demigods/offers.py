"""What the players can do now in Demigods Evolution, as tappable actions (``Game.actions``).

Before the first round ('Heroes', 'Demigods', pp.10-19): each player takes heroes (in the
Chieftain order where it is played, p.11), fields a Demigod (p.17) and equips its slots
(p.18), then the first round begins. In play ('Rounds' p.26-30): the acting character enters the battlefield (1 AP, p.26), uses its
base attack, a skill, an item or a special ability on a target ('Attacking' p.22-23: the side
of the target is asked only while the figures' positions are unknown), or ends its turn; a
pending attack with attack-link rerolls left offers a re-roll of each die or keeping them
(p.12); a teammates' initiative tie offers who acts (p.30). Nothing is offered while dice are
awaited for the Demigod dice; an open attack die is offered as its six faces, each named by its
printed result ('Attack Dice' p.24: no face is typed as a bare 1-6). Every choice is one ``apply`` accepts
(:func:`~arena_table.rules.kernel.actions.legal`).
"""

from __future__ import annotations

from typing import Any

from arena_table.rules.kernel.actions import Action, Apply, Choice, Param, accepts, legal

from . import data, rounds
from .actions import knows, spec
from .state import Character, DemigodsState, demigod_card, item_card

SIDES = (("front", "Front"), ("side", "Side"), ("back", "Back"))
"""Where the attacker stands as seen from the target ('Attacking', p.22)."""


def actions(state: DemigodsState, apply: Apply) -> list[Action]:
    """The actions legal in ``state`` under ``apply`` (the game's own, ``GAME.apply``); while the
    Demigod dice are awaited only :func:`die_reads`, and nothing once the game is over."""
    out = _actions(state, apply)
    return out + die_reads(state, apply) if state.stage == "play" else out


def die_reads(state: DemigodsState, apply: Apply) -> list[Action]:
    """For each hero whose divine die the camera reads at another value than the game keeps
    (``dg-divine-read``), one tap to take the die's value: ``dg-divine who=H value=N`` ('Divine
    Power' p.12: the die tracks the hero's total, so the players may have counted what the game did
    not, a card effect it does not model)."""
    out = []
    for who, read in state.reads.items():
        ch = state.chars.get(who)
        if ch is None or not ch.power or read == ch.divine:
            continue
        out.append(legal(apply, state, "dg-divine", f"{ch.name}: {ch.power} {read}, as the die shows (the game has "
                         f"{ch.divine})", ch.player, {"who": who, "value": read}))
    return [a for a in out if a]


def _actions(state: DemigodsState, apply: Apply) -> list[Action]:
    out: list[Action | None] = []
    if state.stage == "select":
        out += _selection(state, apply)
        if accepts(apply, state, "dg-begin", {}):
            out.append(Action(kind="dg-begin", label="Begin the first round"))
        return [a for a in out if a]
    if state.stage != "play":
        return []
    p = state.pending
    if p is not None:
        if any(not d.face for d in p.dice):
            return [a for a in (_attack_die(state, apply, t) for t in dict.fromkeys(d.type for d in p.dice if not d.face))
                    if a]
        att = state.chars[p.attacker]
        dice = Param("index", "Which die", tuple(Choice(f"die {i + 1}: {d.type} (face {d.face})", {"index": i})
                                                 for i, d in enumerate(p.dice)))
        out.append(legal(apply, state, "dg-reroll", "Re-roll a die (attack link)", att.player, params=(dice,)))
        out.append(legal(apply, state, "dg-resolve", "Keep the dice", att.player))
        return [a for a in out if a]
    if state.acting is None:
        if state.phase == "hero":
            nh = rounds.next_hero(state)
            if nh.kind == "choice":
                out += [legal(apply, state, "dg-activate", f"{state.chars[h].name} acts", state.chars[h].player,
                              {"who": h}) for h in nh.ids]
        return [a for a in out if a]
    if state.acting.startswith("minions:"):
        out.append(legal(apply, state, "dg-end-turn", "End the minions' turn", state.acting.split(":", 1)[1]))
        return [a for a in out if a]
    ch = state.chars[state.acting]
    if not ch.on_board:
        out.append(legal(apply, state, "dg-enter", f"{ch.name}: enter the battlefield", ch.player,
                         {"who": ch.id}, _entry_cells(state, ch)))
    else:
        for use in _uses(state, ch):
            out.append(legal(apply, state, "dg-use", f"{ch.name}: {_use_name(state, ch, use)}", ch.player,
                             {"who": ch.id, "use": use}, (_targets(state, ch),)))
    out.append(legal(apply, state, "dg-end-turn", f"{ch.name}: end the turn", ch.player, {"who": ch.id}))
    return [a for a in out if a]


def _attack_die(state: DemigodsState, apply: Apply, die_type: str) -> Action | None:
    """Enter one open attack die by tapping its face, each face named by its printed result
    ('Attack Dice' p.24, in the order of ``data/dice.json`` or the ``dice_faces`` option)."""
    faces = state.dice.get(die_type, ())
    owner = next(d.owner for d in state.pending.dice if d.type == die_type and not d.face)
    who = state.chars[state.pending.attacker if owner == "attack" else owner]
    return legal(apply, state, "roll", f"Roll the {die_type} die" + ("" if owner == "attack" else f" for {who.name}"),
                 who.player, {"die": f"dg-{die_type}", "source": "control"},
                 (Param("faces", "Face rolled", tuple(Choice(f"{i}: {face_name(r)}", {"faces": [i]})
                                                       for i, r in enumerate(faces, 1))),))


def face_name(result: Any) -> str:
    """A printed attack die result in words: ``+2``, ``-1``, ``Critical``, ``Knockdown``.

    >>> face_name(2), face_name(-1), face_name("critical")
    ('+2', '-1', 'Critical')
    """
    if isinstance(result, int):
        return f"{result:+d}"
    return str(result).replace("-", " ").capitalize()


def _entry_cells(state: DemigodsState, ch: Character) -> tuple[Param, ...]:
    """The fields of the entry row while the battlefield is known, else nothing to pick."""
    if state.board is None:
        return ()
    from .state import team_index

    row = state.board.entry_row(team_index(state, ch.player))
    return (Param("cell", "Which field", tuple(Choice(f"field {c + 1}", {"cell": [c, row]})
                                               for c in range(state.board.cols))),)


def _uses(state: DemigodsState, ch: Character) -> list[str]:
    """Ids of everything ``ch`` can use: base attack, active skills or abilities, primary, items."""
    out = ["attack"] if ch.kind == "hero" else []
    out += [s["id"] for s in ch.skills if not s.get("passive")]
    if ch.kind == "demigod":
        out.append(demigod_card(state, ch.card_id)["primary"]["id"])
        out += list(ch.items)
    return out


def _use_name(state: DemigodsState, ch: Character, use: str) -> str:
    try:
        return str(spec(state, ch, use).get("name") or use)
    except Exception:  # a use the rules refuse is not offered anyway
        return use


def _targets(state: DemigodsState, ch: Character) -> Param:
    """Every figure on the battlefield (the user first), each asking the side while positions are unknown."""
    figures = sorted((c for c in state.chars.values() if c.alive and c.on_board),
                     key=lambda c: (c.id != ch.id, c.player == ch.player, c.name))
    choices = []
    for t in figures:
        then = () if knows(state, ch, t) else (Param("side", "Attacked from", tuple(
            Choice(label, {"side": [side]}) for side, label in SIDES)),)
        choices.append(Choice(t.name + ("" if t.player == ch.player else f" ({t.player})"), {"targets": [t.id]}, then))
    return Param("targets", "Target", tuple(choices))


def _selection(state: DemigodsState, apply: Apply) -> list[Action | None]:
    """Taking heroes, fielding a Demigod and equipping it, as :mod:`.setup` allows them now."""
    out: list[Action | None] = []
    heroes = Param("hero", "Hero", tuple(Choice(_hero_name(state, h), {"hero": h}) for h in data.hero_ids()))
    demigods = Param("demigod", "Demigod", tuple(Choice(data.demigod(d).get("name", d), {"demigod": d})
                                                 for d in data.demigod_ids()))
    for p in state.players:
        me = {"player": p}
        out.append(legal(apply, state, "dg-pick", f"{p}: take a hero", p, me, (heroes,)))
        dg = next((c for c in state.chars.values() if c.kind == "demigod" and c.player == p), None)
        if dg is None:
            out.append(legal(apply, state, "dg-demigod", f"{p}: field a Demigod", p, me, (demigods,)))
            continue
        owned = tuple(Choice(_hero_name(state, h), {"hero": h}) for q, h in state.picks if q == p)
        items = []
        for i in data.item_ids():
            rec = item_card(state, i)
            then = (Param("hero", "Bound to", owned),) if rec.get("choose_hero") and owned else ()
            items.append(Choice(rec.get("name", i), {"item": i}, then))
        slots = tuple(Choice(f"slot {n + 1} ({'/'.join(kinds)})", {"slot": n}, (Param("item", "Item", tuple(items)),))
                      for n, kinds in enumerate(demigod_card(state, dg.card_id)["slots"]) if not dg.items[n])
        if slots:
            out.append(legal(apply, state, "dg-equip", f"{p}: equip {dg.name}", p, me,
                             (Param("slot", "Equipment slot", slots),)))
    return out


def _hero_name(state: DemigodsState, hero: str) -> str:
    """A hero by the name on its card."""
    return str(data.hero(hero, state.hero_stats).get("name", hero))
