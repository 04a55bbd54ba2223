"""Pure game logic: the kernel (:mod:`.kernel`) and one package a game (:mod:`.games`).

Importing this package loads every game under ``games/`` (:func:`arena_table.rules.games.load`),
so :func:`find_game` and :func:`parse` know them. Imports nothing else of arena-table, no
hardware, clocks, threads or ``random``.
"""

from .kernel import *  # noqa: F403 - this package's API is the kernel's
from .kernel import __all__ as _kernel_api
from .games import load as _load_games

_load_games()

__all__ = list(_kernel_api)
