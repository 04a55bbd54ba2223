"""What a player can do now, as data: :class:`Action`, its :class:`Param` and their :class:`Choice`.

A game's ``actions(state) -> [Action]`` (the :class:`~.game.Game` field) lists the events the
rules accept now, with every choice filled from the state: heroes by the names the screens show,
locations, targets, powers by their printed names (boardgame.io's moves, python-chess's
``legal_moves``). The control page shows each action as a button and each parameter as a row of
choices; the chosen choices' fields, merged over the action's own (:func:`merge`), make the event it submits.

Offers are computed by the same rules that ``apply`` enforces: :func:`accepted` runs the game's
``apply`` on a candidate event (:func:`accepts`), so a choice is offered only if the event it
completes is accepted.

>>> a = Action(kind="note", label="Say hello", player="Ann", params=(
...     Param("text", "Words", (Choice("hello", {"text": "hello"}), Choice("bye", {"text": "bye"}))),))
>>> str(a.event([1]))
'note text=bye'
>>> a.to_json()["params"][0]["choices"][0]
{'label': 'hello', 'fields': {'text': 'hello'}}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from .errors import Refused
from .events import Event, from_json

Apply = Callable[[Any, Event], Any]
"""A game's ``apply(state, event) -> state`` (raises Refused): the judge of every offer."""


@dataclass(frozen=True)
class Choice:
    """One tappable value of a parameter: its words and the event fields it sets."""

    label: str
    fields: Mapping[str, Any]
    """Event fields this choice sets (``{"location": "warmonger", "golden": True}``)."""
    then: tuple["Param", ...] = ()
    """Parameters picked next only after this choice (the target of the Thieves' Guild)."""


@dataclass(frozen=True)
class Param:
    """One thing a player picks to complete an action (a location, a target, a side)."""

    name: str
    label: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class Action:
    """One thing a player can do now: an event ``kind`` with ``fields`` fixed and ``params`` to pick.

    ``player`` is whose action it is (a player's or a character's name as the screens show it).
    Every complete pick (one choice per parameter) gives an event the rules accept, unless a
    parameter's legality depends on another's (then :func:`accepted` still decides).
    """

    kind: str
    label: str
    player: str = ""
    fields: Mapping[str, Any] = field(default_factory=dict)
    params: tuple[Param, ...] = ()

    def event(self, picks: Sequence[int] = ()) -> Event:
        """The event for choice ``picks[i]`` of parameter ``i``.

        Raises:
            ValueError: a pick missing or out of range; NotationError: fields the event lacks.
        """
        obj: dict[str, Any] = {"kind": self.kind, **self.fields}
        todo, picks = list(self.params), list(picks)
        while todo:
            param = todo.pop(0)
            if not picks:
                raise ValueError(f"{self.label}: {param.label} is not picked")
            i = picks.pop(0)
            if not 0 <= i < len(param.choices):
                raise ValueError(f"{self.label}: {param.label} has {len(param.choices)} choices, not #{i + 1}")
            obj = merge(obj, param.choices[i].fields)
            todo[:0] = param.choices[i].then
        if picks:
            raise ValueError(f"{self.label}: {len(picks)} pick(s) more than it has parameters")
        return from_json(obj)

    def completions(self) -> list[list[int]]:
        """Every complete pick (indexes, in the order the parameters come), for tests."""
        def walk(todo: tuple[Param, ...]) -> list[list[int]]:
            if not todo:
                return [[]]
            return [[i, *rest] for i, c in enumerate(todo[0].choices) for rest in walk(c.then + todo[1:])]
        return walk(self.params)

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "label", "player", "fields", "params": [{"name", "label", "choices": [...]}],
        "notation"}``; ``notation`` is the event in notation when the action has nothing to pick."""
        out: dict[str, Any] = {"kind": self.kind, "label": self.label, "player": self.player,
                               "fields": dict(self.fields),
                               "params": [_param_json(p) for p in self.params]}
        out["notation"] = str(self.event()) if not self.params else None
        return out


def _param_json(p: Param) -> dict[str, Any]:
    return {"name": p.name, "label": p.label,
            "choices": [{"label": c.label, "fields": dict(c.fields),
                         **({"then": [_param_json(t) for t in c.then]} if c.then else {})} for c in p.choices]}


def merge(fields: Mapping[str, Any], more: Mapping[str, Any]) -> dict[str, Any]:
    """``fields`` with ``more`` laid over; a mapping laid over a mapping merges into it (the parts
    of a card picked one by one: ``{"card": {"health": 1}}`` then ``{"card": {"exchange": 6}}``).

    >>> merge({"card": {"tier": "I"}, "leader": "ael"}, {"card": {"health": 1}})
    {'card': {'tier': 'I', 'health': 1}, 'leader': 'ael'}
    """
    out = dict(fields)
    for k, v in more.items():
        old = out.get(k)
        out[k] = {**old, **v} if isinstance(v, Mapping) and isinstance(old, Mapping) else v
    return out


def accepted(apply: Callable[[Any, Event], Any], state: Any, ev: Event) -> bool:
    """Whether ``apply(state, ev)`` accepts ``ev`` (the rules' own check; nothing is changed)."""
    try:
        apply(state, ev)
    except (Refused, KeyError, ValueError):
        return False
    return True


def accepts(apply: Callable[[Any, Event], Any], state: Any, kind: str, fields: Mapping[str, Any]) -> bool:
    """Whether the event ``{"kind": kind, **fields}`` is well formed and ``apply`` accepts it now."""
    try:
        ev = from_json({"kind": kind, **fields})
    except (ValueError, TypeError, KeyError):
        return False
    return accepted(apply, state, ev)


def legal(apply: Callable[[Any, Event], Any], state: Any, kind: str, label: str, player: str = "",
          fields: Mapping[str, Any] | None = None, params: Sequence[Param] = ()) -> Action | None:
    """The action ``kind`` with every choice (and every choice's ``then``) cut to those that some
    complete pick the rules accept goes through; ``None`` when no complete pick is accepted.

    Parameters after the first are pruned as they stand after its first legal choice (a game whose
    later choices depend on earlier ones nests them with :attr:`Choice.then`).
    """
    fields = dict(fields or {})
    kept = _prune(apply, state, kind, fields, tuple(params))
    if kept is None:
        return None
    return Action(kind=kind, label=label, player=player, fields=fields, params=kept)


def _prune(apply: Callable[[Any, Event], Any], state: Any, kind: str, base: Mapping[str, Any],
           params: tuple[Param, ...]) -> tuple[Param, ...] | None:
    if not params:
        return () if accepts(apply, state, kind, base) else None
    first, rest = params[0], params[1:]
    kept: list[Choice] = []
    rest_kept: tuple[Param, ...] | None = None
    for c in first.choices:
        sub = _prune(apply, state, kind, merge(base, c.fields), c.then + rest)
        if sub is None:
            continue
        kept.append(Choice(c.label, c.fields, sub[:len(c.then)]))
        if rest_kept is None:
            rest_kept = sub[len(c.then):]
    if not kept:
        return None
    return (Param(first.name, first.label, tuple(kept)),) + (rest_kept or ())


def settled(action: Action | None) -> Action | None:
    """``action`` with every parameter that has one choice folded into the fields (the action's, or
    the choice's that asks it), the parameters that choice asks next taking its place: nothing
    to tap where the rules leave no choice.

    >>> a = Action("note", "Say", params=(Param("text", "Words", (Choice("hi", {"text": "hi"}),)),))
    >>> settled(a).params, str(settled(a).event())
    ((), 'note text=hi')
    """
    if action is None:
        return None
    fields, params = _settle(action.fields, action.params)
    return Action(kind=action.kind, label=action.label, player=action.player, fields=fields, params=params)


def _settle(fields: Mapping[str, Any], params: Sequence[Param]) -> tuple[dict[str, Any], tuple[Param, ...]]:
    out_fields, out = dict(fields), []
    todo = list(params)
    while todo:
        p = todo.pop(0)
        if len(p.choices) == 1:
            out_fields = merge(out_fields, p.choices[0].fields)
            todo[:0] = p.choices[0].then
            continue
        choices = []
        for c in p.choices:
            cf, then = _settle(c.fields, c.then)
            choices.append(Choice(c.label, cf, then))
        out.append(Param(p.name, p.label, tuple(choices)))
    return out_fields, tuple(out)


def no_actions(state: Any) -> list[Action]:
    """A game that offers nothing (its events are typed at the advanced panel)."""
    return []
