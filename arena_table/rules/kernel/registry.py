"""The game registry: games are added by the composition root, looked up by name or alias.

The kernel imports no game. :func:`arena_table.rules.games.load` finds the games by scanning
the ``arena_table.rules.games`` package and adds each one's ``GAME`` here; a table that wants
another set of games calls :func:`register_game` itself.
"""

from __future__ import annotations

from .errors import UnknownGame
from .game import Game

_GAMES: dict[str, Game] = {}
_HOMES: dict[str, str] = {}
"""Game name -> the package its events live in (``arena_table.rules.games.theosis``)."""
_LOAD_ERRORS: dict[str, str] = {}
"""Game packages that failed to import, ``package -> error``: one broken game must not take
the table (and the other games) down; ``find_game`` names the error instead."""


def register_game(game: Game, home: str = "") -> Game:
    """Add ``game`` under its name and aliases; ``home`` is the package defining its events.

    Raises:
        ValueError: a name or alias is taken by another game, or a second game claims to be the
            fallback (the game a table runs before its first ``start``).
    """
    for key in (game.name, *game.aliases):
        key = key.lower()
        if key in _GAMES and _GAMES[key].name != game.name:
            raise ValueError(f"game name {key!r} already taken by {_GAMES[key].name}")
    other = next((g for g in _GAMES.values() if g.fallback and g.name != game.name), None)
    if game.fallback and other is not None:
        raise ValueError(f"{game.name} and {other.name} both claim to be the table's fallback game")
    for key in (game.name, *game.aliases):
        _GAMES[key.lower()] = game
    if home:
        _HOMES[game.name] = home
    return game


def record_load_error(package: str, error: str) -> None:
    """Note that the game package ``package`` could not be loaded (``find_game`` reports it)."""
    _LOAD_ERRORS[package] = error


def find_game(name_or_alias: str) -> Game:
    """Look a game up by name or alias, case-insensitively.

    >>> import arena_table.rules  # loads the games
    >>> find_game("Dice-Tray").name
    'dice-tray'

    Raises:
        UnknownGame: no such game; the message lists the known names and any game that failed to load.
    """
    game = _GAMES.get(name_or_alias.strip().lower())
    if game is None:
        names = sorted({g.name for g in _GAMES.values()})
        broken = "".join(f"; {m} failed to load ({e})" for m, e in sorted(_LOAD_ERRORS.items()))
        raise UnknownGame(f"unknown game {name_or_alias!r}; known games: {', '.join(names)}{broken}")
    return game


def registered_games() -> list[Game]:
    """Every registered game, each once, sorted by name."""
    return sorted({g.name: g for g in _GAMES.values()}.values(), key=lambda g: g.name)


def game_homes() -> dict[str, str]:
    """Game name -> the package it was registered from (a copy; a game registered without one is absent)."""
    return dict(_HOMES)


def fallback_game() -> str:
    """The name of the game a table runs before its first ``start``.

    Raises:
        UnknownGame: no registered game is the fallback.
    """
    for g in registered_games():
        if g.fallback:
            return g.name
    raise UnknownGame("no registered game is the fallback game (Game.fallback)")


def event_game(cls: type) -> str:
    """The name of the game whose package defines the event class ``cls``, or "" (a kernel event).

    >>> import arena_table.rules
    >>> from arena_table.rules.kernel.events import Note
    >>> event_game(Note), event_game(arena_table.rules.parse("th-next").__class__)
    ('', 'theosis')
    """
    module = cls.__module__
    for name, home in _HOMES.items():
        if module == home or module.startswith(home + "."):
            return name
    return ""
