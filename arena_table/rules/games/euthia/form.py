"""The control page's start form for Euthia and the options it submits.

``setup_form()`` lists flat fields in the ``/api/games`` format: the mode (Playing with Fire or
Fellowship), the Heroes, the Monster difficulty, the Leader of round 1 and the readings of
ambiguities.md. The values still to enter from the components (Monster cards, base-game card
boxes, the Combat die) are listed in the Monster cards field's help; the page's "More options
(JSON)" box takes them. ``to_options`` turns the values into :func:`.setup.new_game` options.

>>> to_options({"mode": "fellowship", "heroes": ["ael", "dral"], "leader": ""})
{'mode': 'fellowship', 'heroes': ['ael', 'dral']}
"""

from __future__ import annotations

from typing import Any, Mapping

from . import catalog
from .setup import HEROES


def setup_form() -> list[dict[str, Any]]:
    """Fields of the control page's start form, in the order shown."""
    todo = catalog.unentered(catalog.monsters(), catalog.cards(), {})
    listed = "; ".join(f"{k.removeprefix('euthia:')}: {', '.join(v)}" for k, v in todo.items())
    return [
        {"name": "mode", "label": "Game mode", "type": "select", "default": "fire",
         "options": [{"value": "fire", "label": "Playing with Fire (solo)"},
                     {"value": "fellowship", "label": "Fellowship (co-op, 1-4 players)"}]},
        {"name": "heroes", "label": "Heroes, clockwise", "type": "list", "default": ["ael"],
         "help": "Hero ids: " + ", ".join(HEROES) + ". One in Playing with Fire."},
        {"name": "difficulty", "label": "Monster cards", "type": "select", "default": "normal",
         "options": [{"value": "normal", "label": "Normal (base cards)"}, {"value": "hard", "label": "Hard (++)"},
                     {"value": "heroic", "label": "Heroic (+++)"}],
         "help": "To enter from the components (the book does not print them), under More options as JSON, e.g. "
                 "{\"hero_health\": 14, \"monsters\": {\"gecko\": {\"health\": 5}}}: " + listed + "."},
        {"name": "leader", "label": "Leader of round 1 (Fellowship)", "type": "text", "default": ""},
        {"name": "earth", "label": "Earth/Corrupted change the Combat Value of", "type": "select", "default": "monster",
         "options": ["monster", "hero"], "help": "ambiguities.md: the Monster's Combat Value by default."},
        {"name": "shii", "label": "Shii's Intervention reads the Monster dice", "type": "select", "default": "end",
         "options": ["end", "first"], "help": "As they stand when step C ends (default), or the first roll."},
        {"name": "gaar_tests", "label": "Gaar loop checks", "type": "select", "default": "every",
         "options": ["every", "entry"], "help": "All three tests before every re-roll (default)."},
        {"name": "creature_now", "label": "Rotting Fly/Worm act in the attack they are revealed in",
         "type": "checkbox", "default": False},
    ]


def to_options(values: Mapping[str, Any]) -> dict[str, Any]:
    """The form's values (or plain options) as :func:`.setup.new_game` options: a field left
    empty is an option not given."""
    if not isinstance(values, Mapping):
        return values  # new_game names the problem
    return {k: v for k, v in values.items() if v not in ("", None)}
