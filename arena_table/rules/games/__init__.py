"""The games, one package each: ``games/<name>/__init__.py`` exports its :class:`~arena_table.rules.kernel.game.Game` as ``GAME``.

:func:`load` finds them by scanning this package; adding a game is adding a folder here.
"""

from __future__ import annotations

import pkgutil
from importlib import import_module

from arena_table.rules.kernel.game import Game
from arena_table.rules.kernel.registry import record_load_error, register_game


def load() -> list[Game]:
    """Import every game package here and register its ``GAME``; returns the games loaded.

    A package that fails to import, or exports no ``GAME``, is recorded (``find_game`` names the
    error) and skipped: one broken game must not take the table and the other games down.
    """
    loaded = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        package = f"{__name__}.{info.name}"
        try:
            game = import_module(package).GAME
            if not isinstance(game, Game):
                raise TypeError(f"GAME is a {type(game).__name__}, not a Game")
            loaded.append(register_game(game, home=package))
        except Exception as exc:  # noqa: BLE001 - reported through find_game
            record_load_error(package, f"{type(exc).__name__}: {exc}")
    return loaded
