"""Wiring of the token reader: driver events -> ``TagPlaced``/``TagRemoved`` kernel events.

``build_tokens(ports, spec, pads, registry)`` is called by :class:`~arena_table.table.app.Table`
when ``tokens.reader`` names a reader. ``spec`` picks the backend in this one place
(STYLE.md §7):

* ``sim`` — the real firmware logic under CPython behind a pseudo-terminal
  (:class:`~arena_table.table.tokens_sim.SimFirmware`), read by the real driver;
  the control page lays simulated tags with :meth:`SimTokenDevice.place`/``remove``;
* a port path (``/dev/ttyACM0``) or ``usb:VID:PID[:SERIAL]`` — the Pico firmware;
* ``pn532:/dev/serial0`` — a PN532 on the Pi's own UART.

Each tag change becomes one event submitted to the engine, with the game object
the tag registry (``<data_dir>/tags.db``) binds to its UID; the link and reader
health go to the status board under ``tokens``. The reader starts from the tags
the log has lying on the pads (:func:`logged_presence`), so after a service
restart a resting tag is not recorded again and one taken away meanwhile gets its
``tag-off`` (firmware/PROTOCOL.md, host rule 2).
"""

from __future__ import annotations

import difflib
import logging
from pathlib import Path
from typing import Any

from arena_table.hardware.pn532_uart import Pn532TokenReader
from arena_table.hardware.reader import LinkStatus, SerialTokenReader, TagChange
from arena_table.hardware.errors import RegistryError
from arena_table.hardware.registry import Binding, TagRegistry, check_object_name
from arena_table.rules import RulesError, TagPlaced, TagRemoved, UnknownGame, find_game

from .ports import Ports

log = logging.getLogger(__name__)

SIM_PADS = 4


def logged_presence(state: Any) -> dict[int, str]:
    """``{pad: uid}`` of the tags ``state`` (the table's, rebuilt from the event log) has on the pads.

    Plain data for the driver (``hardware`` does not import ``table``); empty for a state that keeps
    no tags.
    """
    return {pad: uid for pad, uid, _obj in getattr(state, "tags", ())}


def registry_path(table: Any):
    """Where the table keeps its tag registry."""
    return table.data_dir / "tags.db"


class TokenDevice:
    """The table's token reader (see the module docstring for ``spec``).

    Args:
        ports: the table's :class:`~.ports.Ports` for the reader (``submit``, ``clock``, ``report``,
            ``state``).
        spec: ``sim``, a port path, ``usb:VID:PID[:SERIAL]`` or ``pn532:PATH``.
        pads: simulated pads (``sim`` only; ``tokens.pads`` of the configuration).

    Raises:
        ValueError: an empty spec or a malformed ``usb:`` spec.
    """

    name = "tokens"

    def __init__(self, ports: Ports, spec: str, pads: int = SIM_PADS, registry: Path = Path("tags.db")) -> None:
        if not spec:
            raise ValueError("token reader spec is empty; use sim, a port, usb:VID:PID[:SERIAL] or pn532:PATH")
        self.ports = ports
        self.registry_path = Path(registry)
        self.spec = spec
        self.n_pads = pads
        self.sim = None
        self.reader: SerialTokenReader | Pn532TokenReader | None = None
        self.registry: TagRegistry | None = None
        self.submitted = 0
        self.rejected = 0
        self._last_unknown: str | None = None
        if spec.startswith("usb:"):
            from arena_table.hardware.ports import PortLocator

            PortLocator(spec)  # validates the spec now, not on the reader thread

    def __repr__(self) -> str:
        state = self.reader.status.state if self.reader else "not started"
        return f"<TokenDevice {self.spec} {state}>"

    # -- lifecycle ------------------------------------------------------------------------
    def start(self) -> "TokenDevice":
        self.registry = TagRegistry(self.registry_path)
        kw: dict[str, Any] = {"clock": self.ports.clock, "present": logged_presence(self.ports.state())}
        if self.spec == "sim":
            from .tokens_sim import SimFirmware

            self.sim = SimFirmware(pads=self.n_pads).start()
            self.reader = SerialTokenReader(self.sim.port, self._on_tag, self._on_status, settle=0.0, **kw)
        elif self.spec.startswith("pn532:"):
            self.reader = Pn532TokenReader(self.spec[len("pn532:"):], self._on_tag, self._on_status, **kw)
        else:
            self.reader = SerialTokenReader(self.spec, self._on_tag, self._on_status, **kw)
        self.reader.start()
        return self

    def close(self) -> None:
        if self.reader is not None:
            self.reader.close()
        if self.sim is not None:
            self.sim.close()
        if self.registry is not None:
            self.registry.close()

    def __enter__(self) -> "TokenDevice":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- driver callbacks (reader thread) -----------------------------------------------------
    def _on_tag(self, change: TagChange) -> None:
        obj = self.registry.lookup(change.uid) if self.registry else ""
        if change.placed and not obj:
            self._last_unknown = change.uid
        cls = TagPlaced if change.placed else TagRemoved
        self._submit(cls(pad=change.pad, uid=change.uid, object=obj, at=change.at or None))

    def _submit(self, event) -> None:
        try:
            self.ports.submit(event)
            self.submitted += 1
        except RulesError as exc:  # the engine has stored it as rejected
            self.rejected += 1
            log.warning("tag event refused: %s", exc)
        except TimeoutError:
            log.error("engine did not take %s in time", event)

    def _on_status(self, status: LinkStatus) -> None:
        self.ports.report(**status.to_json(), spec=self.spec, sim=self.spec == "sim")

    # -- what the control page calls ------------------------------------------------------------
    def pads(self) -> list[dict[str, Any]]:
        """Each pad as ``{"pad", "uid", "object", "health"}`` (uid/object empty when nothing lies there).

        The UIDs are those the host has received (not the simulator's own notion), so the
        page shows what the rules see.
        """
        present = dict(self.reader.present) if self.reader else {}
        readers = dict(self.reader.status.readers) if self.reader else {}
        n = max([self.n_pads if self.sim else 0, *(p + 1 for p in readers), *(p + 1 for p in present)])
        out = []
        for pad in range(n):
            uid = present.get(pad, "")
            obj = self.registry.lookup(uid) if uid and self.registry else ""
            out.append({"pad": pad, "uid": uid, "object": obj, "health": readers.get(pad, "")})
        return out

    def last_unknown_uid(self) -> str | None:
        """UID of the most recent tag placed that the registry does not know (for enrolment)."""
        return self._last_unknown

    def enroll(self, uid: str, obj: str) -> Binding:
        """Bind ``uid`` to ``obj`` in the registry; a tag of that UID lying on a pad now is
        announced again (``TagPlaced`` with the object) so the game sees it at once.

        Raises:
            BadUid, RegistryError: see :meth:`TagRegistry.bind`.
        """
        binding = self.registry.bind(uid, obj)
        if self._last_unknown == binding.uid:
            self._last_unknown = None
        present = dict(self.reader.present) if self.reader else {}
        for pad, on_pad in sorted(present.items()):
            if on_pad == binding.uid:
                self._submit(TagPlaced(pad=pad, uid=binding.uid, object=binding.object))
        return binding



class SimTokenDevice(TokenDevice):
    """``--tokens sim``: a :class:`TokenDevice` whose pads the control page can lay tags on.

    Only this class has :meth:`place`/:meth:`remove`, so the web app finds the simulated
    reader by those methods and a real reader never offers them.
    """

    def __init__(self, ports: Ports, pads: int = SIM_PADS, registry: Path = Path("tags.db")) -> None:
        super().__init__(ports, "sim", pads, registry)

    def place(self, pad: int, uid: str) -> None:
        """Lay a simulated tag (``uid`` in any spelling) on ``pad``; the driver reports it within ~1 ms.

        Raises:
            IndexError: no such pad. BadUid: not a UID. RuntimeError: not started.
        """
        self._running_sim().place(pad, uid)

    def remove(self, pad: int, uid: str | None = None) -> None:
        """Take the simulated tag off ``pad`` (only if it is ``uid``, when given).

        The firmware's debounce reports the removal after 3 polls (~60 ms).
        """
        self._running_sim().remove(pad, uid)

    def _running_sim(self):
        if self.sim is None:
            raise RuntimeError("the simulated token reader is not started")
        return self.sim


def build_tokens(ports: Ports, spec: str, pads: int = SIM_PADS, registry: Path = Path("tags.db")) -> TokenDevice:
    """The token device for ``spec`` on ``ports`` (not started; the table starts it), binding tags
    through the registry at ``registry`` (``<data dir>/tags.db``).

    Raises:
        ValueError: an empty or malformed spec.
    """
    if spec == "sim":
        return SimTokenDevice(ports, pads, registry)
    return TokenDevice(ports, spec, registry=registry)


def catalogue(game_name: str) -> list[str]:
    """The game's taggable objects (empty when the game keeps no catalogue).

    Raises:
        UnknownGame: no such game.
    """
    return list(getattr(find_game(game_name), "objects", lambda: [])())


def check_catalogue(obj: str) -> str | None:
    """Why ``obj`` cannot be enrolled, or None when it can.

    The game is the first part of the name; a game with a catalogue must list ``obj``
    (the message offers the closest names), a game without one accepts any well-formed name.

    >>> check_catalogue("dice-tray:die:red") is None
    True
    """
    try:
        check_object_name(obj)
    except RegistryError as exc:
        return str(exc)
    game_name = obj.split(":", 1)[0]
    try:
        known = catalogue(game_name)
    except UnknownGame as exc:
        return f"{obj!r}: {exc}"
    if known and obj not in known:
        # Compare without the shared "game:" prefix, which would make every name look close.
        tails = {name.split(":", 1)[1]: name for name in known if ":" in name}
        close = [tails[t] for t in difflib.get_close_matches(obj.split(":", 1)[1], list(tails), n=3, cutoff=0.8)]
        hint = f"did you mean {', '.join(close)}?" if close else \
            f"see `arena-table tags objects {game_name}` ({len(known)} objects)"
        return f"{obj!r} is not in the {game_name} catalogue; {hint}"
    return None


def enroll_tag(table: Any, uid: str, obj: str) -> dict[str, str]:
    """Bind ``uid`` to ``obj`` for ``table`` (the control page's enrol button).

    Checked against the game's catalogue; with a running token device the tag, if it lies on a
    pad, is announced again with its object (:meth:`TokenDevice.enroll`).

    Returns:
        ``{"uid": canonical UID, "object": obj}``.

    Raises:
        BadUid: not a UID. RegistryError: a malformed name or one the catalogue lacks (both ValueError).
    """
    why = check_catalogue(obj)
    if why:
        raise RegistryError(why)
    dev = next((d for d in getattr(table, "devices", []) if isinstance(d, TokenDevice) and d.registry), None)
    if dev is not None:
        binding = dev.enroll(uid, obj)
    else:
        with TagRegistry(registry_path(table)) as reg:
            binding = reg.bind(uid, obj)
    return {"uid": binding.uid, "object": binding.object}


__all__ = ["SimTokenDevice", "TokenDevice", "build_tokens", "catalogue", "check_catalogue", "enroll_tag",
           "logged_presence", "registry_path"]
