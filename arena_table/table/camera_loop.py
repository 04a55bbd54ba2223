"""The camera loop: frames -> settle detector -> dice reader -> ``roll`` events.

:func:`build_camera` gives the table a :class:`CameraLoop` device. Its thread
reads frames from the source named by the ``--camera`` spec, feeds the settle
detector, reads the dice of each settled frame and asks :func:`arena_table.vision.roll.decide`
which dice make the roll (pip dice; while the running game waits for dice that show symbols, such as
a Demigods attack's dice, the dice of the kinds that game throws, each read as its kind and face,
:func:`arena_table.vision.kinds.read_kinds`, the roll named by kinds); it stores the frame and each die's crop in the media store and submits
``DiceRolled`` through the engine. Dice the reader refuses (``unreadable``, ``cocked``,
``partial``) are named in the ``camera`` entry of the status board (and the log) so the page can
ask for a re-roll; a settle with a refused die records no roll at all (``decide``), unless
``partial_rolls`` is set, which records the dice that were read. Nothing here stops the table: a bad
file, a missing camera or a rejected event is reported and the loop goes on.

Settings come from the ``[camera]`` and ``[dice]`` sections of the table's configuration
(:class:`~.config.CameraSettings`, :class:`~.config.DiceSettings`; docs/configuration.md).
"""

from __future__ import annotations

import dataclasses
import logging
import math
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Mapping

import numpy as np

from arena_table.rules import DiceRolled, Refused
from arena_table.vision.capture import (CameraStatus, FolderSource, FrameSource, GrabberSource,
                                       VideoFileSource, open_source)
from arena_table.vision.size_search import HINT_SPREAD
from arena_table.vision.frames import (Calibration, CalibrationMismatch, CameraError, CameraUnavailable, EndOfStream,
                                       Frame)
from arena_table.vision.roll import RollMemory, decide
from arena_table.vision.settle import Settle, SettleConfig, SettleDetector

from . import camera_kinds
from .camera_kinds import KindReader
from .camera_draw import crop_box, draw_dice
from .camera_settings import Reader, default_reader
from .config import CameraSettings, DiceSettings
from .ports import Ports

log = logging.getLogger(__name__)

class CameraLoop:
    """The table's camera device: one thread from frames to ``roll`` events.

    Args:
        ports: the table's :class:`~.ports.Ports` for the camera (``submit``, ``media``, ``clock``,
            ``report``, ``rows``).
        spec: the ``--camera`` spec (``sim``, ``0``, a video file, a folder, ``picamera2``).
        settle: settle parameters.
        reader: frame -> ``DiceReading``; default the shipped reader.
        calibration: refused (camera ``failed``) if frames come at another resolution; its
            ``tray`` limits motion and reading to that part of the frame, and the default reader
            looks for dice of its ``die_size_px``.
        options: source options (:meth:`CameraSettings.source_options`).
        dice: the reader's thresholds (the default reader's) and ``partial_rolls``.
        source_factory: builds the source (tests); default :func:`open_source`.
        kind_reader: the reader of dice by kind (:mod:`.camera_kinds`); default
            :func:`~arena_table.vision.kinds.read_kinds`.
        read_timeout: seconds a read may wait before the loop checks for close.
    """

    def __init__(self, ports: Ports, spec: str, *, settle: SettleConfig = SettleConfig(), reader: Reader | None = None,
                 calibration: Calibration | None = None, options: Mapping[str, Any] | None = None,
                 dice: DiceSettings = DiceSettings(),
                 source_factory: Callable[..., FrameSource] | None = None, read_timeout: float = 1.0,
                 kind_reader: KindReader | None = None,
                 frame_readers: tuple[Callable[[Frame], None], ...] = ()) -> None:
        self.ports = ports
        self.spec = spec
        self.detector = SettleDetector(settle)
        self.reader = reader
        self.calibration = calibration
        self.options = dict(options or {})
        self.dice = dice
        self.source_factory = source_factory or open_source
        self.read_timeout = read_timeout
        self.kind_reader = kind_reader or camera_kinds.default_kind_reader
        self._memory_kinds: tuple[str, ...] = ()
        """The kinds the last settle was read as (``()``: pips); another set starts the memory afresh."""
        self.frame_readers = tuple(frame_readers)
        """Other readers of the same camera (the figure reader, ``figures.py``): each gets every full
        frame, before the dice tray is cut out of it; one that fails is logged and goes on getting them."""
        self._reader_errors: set[str] = set()
        self.source: FrameSource | None = None
        self.rolls = 0
        """Roll events accepted by the engine."""
        self.errors: list[str] = []
        """One line per problem met (bad files, refused dice, rejected events), newest last."""
        self._status: dict[str, Any] = {"state": "starting", "detail": f"camera {spec}: starting", "source": spec}
        self._status_lock = threading.Lock()
        self._reader_lock = threading.Lock()
        self._latest: Frame | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._tray_view: tuple[np.ndarray, np.ndarray] | None = None
        """The last frame image and its tray part."""
        self._reader_failing = False
        self._memory = RollMemory()
        """What earlier settles leave for the next (``vision.roll.decide``): the dice of the still
        tray, and a roll held back for a re-roll of its refused dice."""
        self._overlay_pool: ThreadPoolExecutor | None = None
        """The one thread that reads and draws the control page's overlays (see :meth:`overlay`)."""
        self._overlay_pool_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"CameraLoop({self.spec!r}, state={self._status.get('state')!r}, rolls={self.rolls})"

    # -- lifecycle ----------------------------------------------------------------------------------
    def start(self) -> "CameraLoop":
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"camera-{self.spec}", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None
        with self._overlay_pool_lock:
            pool, self._overlay_pool = self._overlay_pool, None
        if pool is not None:
            pool.shutdown(wait=True)

    def __enter__(self) -> "CameraLoop":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the loop to end by itself (a finite source ran out); for tools and tests."""
        if self._thread is not None:
            self._thread.join(timeout)

    # -- for the control page ---------------------------------------------------------------------
    def latest_frame(self) -> np.ndarray | None:
        """The newest frame the loop has seen (BGR, the tray part if calibrated), or None."""
        frame = self._latest
        return None if frame is None else frame.image

    def overlay(self) -> np.ndarray | None:
        """:meth:`latest_frame` with the dice the reader finds in it drawn over it, or None.

        Boxes: green ``ok`` (with the value), orange ``cocked``, blue ``partial``, red
        ``unreadable`` (``?``), so a player can aim the camera until every die is found.

        The reading and drawing run on one thread of the loop's own (``camera-overlay``), whatever
        thread asks: native code keeps memory per calling thread for as long as the thread lives
        (OpenCV 5's ``putText`` a ``thread_local`` font engine with its built-in fonts unpacked,
        about 6 MB; the reader's ONNX Runtime and OpenCV buffers about 0.4-1.3 MB), and the web
        server hands each request to the next of its ``--max-clients`` + 16 threads in turn, so
        a control page polling once a second grew the service by ~6 MB a request, to over 1 GB
        (``arena_table/bench/service_memory.py``).
        """
        image = self.latest_frame()
        if image is None:
            return None
        with self._overlay_pool_lock:
            if self._overlay_pool is None:
                self._overlay_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"camera-overlay-{self.spec}")
            job = self._overlay_pool.submit(self._draw_overlay, image)
        return job.result()

    def _draw_overlay(self, image: np.ndarray) -> np.ndarray:
        """:meth:`overlay`'s work, on the overlay thread: the dice as the loop reads them now (by kind,
        each labelled ``kind face`` and a die of no kind in play ``?``, while the game waits for symbol dice)."""
        try:
            kinds, _ = camera_kinds.kinds_now(self.ports)
            if kinds:
                with self._reader_lock:
                    reading, codes, others = camera_kinds.read_by_kinds(self.kind_reader, image, kinds)
                return draw_dice(image, reading.dice + camera_kinds.as_unread(others),
                                 lambda d: camera_kinds.label(codes, d))
            reading = self._read_frame(image, search=False)  # drawn every second: never a size search
        except Exception as exc:
            log.warning("camera %s: overlay reading failed: %s", self.spec, exc)
            return image
        return draw_dice(image, reading.dice)

    # -- status -------------------------------------------------------------------------------------
    def _set_status(self, **info: Any) -> None:
        with self._status_lock:  # the grabber thread reports too
            self._status.update(info)
            self._status["settle"] = self.detector.state
            self._status["rolls"] = self.rolls
            self.ports.report(**self._status)

    def _on_source_status(self, st: CameraStatus) -> None:
        fields = st.to_dict()
        fields["settings"] = dict(fields["settings"])
        said = st.detail if st.detail.startswith("camera") else f"camera {self.spec}: {st.detail or st.state}"
        if st.state == "retrying" and st.attempt & (st.attempt - 1) == 0 or st.state == "failed":
            log.warning("%s", said)  # the console says it too (attempts 1, 2, 4, 8, ...: not every few seconds)
        elif st.state == "ok" and self._status.get("state") == "retrying":
            log.warning("%s", said)
        self._set_status(**fields)

    def _problem(self, message: str, level: int = logging.ERROR) -> None:
        log.log(level, "camera %s: %s", self.spec, message)
        self.errors.append(message)
        del self.errors[:-20]
        self._set_status(last_error=message, errors=len(self.errors))

    # -- the loop -----------------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            self.source = self.source_factory(self.spec, clock=time.monotonic, on_status=self._on_source_status,
                                              on_error=self._problem, options=self.options)
        except (ValueError, CameraError, OSError) as exc:
            self._problem(str(exc))
            self._set_status(state="failed", detail=f"camera {self.spec}: {exc}")
            return
        if isinstance(self.source, FolderSource):  # each photo must stay long enough to settle once
            need = math.ceil(self.detector.config.settle_s * self.source.fps + 1e-9) + 1
            self.source.still_frames = max(self.source.still_frames, need)
            self._skip_recorded_photos(self.source)
        if isinstance(self.source, VideoFileSource):
            self._resume_video(self.source)
        if not isinstance(self.source, GrabberSource):  # live cameras report through _on_source_status
            self._set_status(state="ok", detail=f"camera {self.spec}: running", exposure_locked=None,
                             white_balance_locked=None)
        try:
            while not self._stop.is_set():
                try:
                    frame = self.source.read(timeout=self.read_timeout)
                except CameraUnavailable:
                    continue  # the source retries and reports; keep waiting
                except EndOfStream as exc:
                    self._set_status(state="ended", detail=f"camera {self.spec}: {exc}")
                    return
                if not self._step(frame):
                    return
        except Exception as exc:  # the loop must never take the table down
            log.exception("camera loop %s failed", self.spec)
            self._set_status(state="failed", detail=f"camera {self.spec}: {type(exc).__name__}: {exc}")
        finally:
            self.source.close()

    def _recorded_sources(self) -> set[str]:
        return {row.event.source for row in self.ports.rows() if row.status == "ok" and row.event.KIND == "roll"}

    def _skip_recorded_photos(self, source: FolderSource) -> None:
        """After a restart, photos whose roll is already in the log are not read again (matched by
        their full path: another folder's photo of the same name is a new photo)."""
        done = self._recorded_sources()
        kept = [p for p in source.files if f"dir:{Path(p).absolute()}" not in done]
        if len(kept) != len(source.files):
            log.info("camera %s: %d photo(s) already recorded, not read again", self.spec, len(source.files) - len(kept))
        source.files = kept

    def _resume_video(self, source: VideoFileSource) -> None:
        """After a restart, a video file goes on after the last frame whose roll is in the log, so its
        rolls are not recorded twice (a new ``--db`` reads it from the start)."""
        prefix = f"video:{source.path.absolute()}@"
        done = [int(s[len(prefix):]) for s in self._recorded_sources()
                if s.startswith(prefix) and s[len(prefix):].isdigit()]
        if done:
            source.skip_to(max(done) + 1)
            log.info("camera %s: rolls up to frame %d already recorded; going on from there", self.spec, max(done))

    def feed(self, frame: Frame) -> bool:
        """Take one frame as the loop's thread does, in the caller's thread: a test drives a
        simulated source frame by frame on a simulated clock, without :meth:`start`. Returns False
        when the loop would stop (a calibration refused the frame)."""
        return self._step(frame)

    def _share(self, frame: Frame) -> None:
        """Hand the full frame to the other readers of this camera (:attr:`frame_readers`)."""
        for reader in self.frame_readers:
            try:
                reader(frame)
            except Exception as exc:  # a failing reader must not stop the dice, nor the next frames
                what = f"{type(exc).__name__}: {exc}"
                if what not in self._reader_errors:
                    self._reader_errors.add(what)
                    log.exception("camera %s: frame reader %r failed", self.spec, reader)

    def _step(self, frame: Frame) -> bool:
        """One frame; False stops the loop (calibration refused)."""
        self._share(frame)
        if self.calibration is not None:
            # every frame: a USB camera that reconnects, or a folder of photos, can change size midway
            try:
                self.calibration.check_frame(frame)
            except CalibrationMismatch as exc:
                self._problem(str(exc))
                self._set_status(state="failed", detail=f"camera {self.spec}: {exc}")
                return False
            if self.calibration.tray:
                if self._tray_view is None or self._tray_view[0] is not frame.image:
                    x, y, w, h = self.calibration.tray
                    self._tray_view = (frame.image, frame.image[y:y + h, x:x + w])
                # the same view for the same image: the detector knows a held photo by its array
                frame = dataclasses.replace(frame, image=self._tray_view[1])
        self._latest = frame
        before = self.detector.state
        settled = self.detector.update(frame)
        if self.detector.state != before:
            self._set_status()
        if settled is not None:
            self._read(settled)
        elif before == "starting" and self.detector.state == "idle":
            self._note_baseline(frame)
        return True

    def _nothing_read(self, frame: Frame, dice_in_view: bool, had_dice: bool) -> None:
        """The status (and an info line) of a settle that records nothing: the dice read did not move,
        or no die is read at all. The latter also happens when dice lie outside what the reader looks
        for (a calibration's die size, a die cut by the tray), so it says so rather than "no dice
        moved" (a new user's trial: a calibrated 49 px table's 87 px die thrown was shown as that)."""
        if dice_in_view:
            said = "settled, no dice moved"
        else:
            said = "settled, but no die is read" + (" (were the dice taken away?)" if had_dice else "")
            side = self.calibration.die_size_px if self.calibration else None
            if side:
                said += (f"; with its calibration the camera reads dice of {side / HINT_SPREAD:.0f}-"
                         f"{side * HINT_SPREAD:.0f} px only (arena-table dice calibrate)")
            log.info("camera %s: %s: %s", self.spec, frame.name, said)
        self._set_status(last_settle=frame.name, detail=f"camera {self.spec}: {said}")

    def _note_baseline(self, frame: Frame) -> None:
        """Read the dice lying in the tray when the camera starts, without recording them (unless
        ``read_initial``, the detector does not hand this frame in as a roll): the first re-throw of
        one of them onto its own spot is then told by its face (``Settle.face_changed``)."""
        try:
            reading = self._read_frame(frame.image)
        except Exception as exc:  # reported by _read_frame; the next settle reads again
            log.debug("camera %s: baseline not read (%s)", self.spec, exc)
            return
        self._memory = self._memory.remember(reading)

    def _source_name(self, frame: Frame) -> str:
        """``dir:<photo's full path>``, ``video:<file's full path>@<frame index>`` or the camera's name:
        what a restart needs to know it was read (:meth:`_skip_recorded_photos`, :meth:`_resume_video`)."""
        if isinstance(self.source, FolderSource):
            return f"dir:{(self.source.folder / frame.name).absolute()}"
        if isinstance(self.source, VideoFileSource):
            return f"video:{self.source.path.absolute()}@{frame.index}"
        return frame.name

    def _read_frame(self, image: np.ndarray, search: bool = True) -> Any:
        """The reader's ``DiceReading`` of ``image``; ``search=False`` (the live view's overlay)
        uses the reader's ``peek`` when it has one (``size_search.LearningReader``: no size search),
        without waiting for a read in progress; calls of the reader itself take turns.

        A reader that raises (model file missing, bad model) puts the camera status in
        ``state="error"`` with the error in ``detail`` (the dashboard shows it red); the next
        successful read puts it back to ``ok``. The exception is raised again for the caller.
        """
        try:
            reader = self.reader
            if reader is None:
                with self._reader_lock:  # one reader shared by the loop and the page
                    if self.reader is None:
                        self.reader = default_reader(self.calibration.die_size_px if self.calibration else None,
                                                     self.dice)
                    reader = self.reader
            peek = None if search else getattr(reader, "peek", None)
            if peek is not None:
                # a peek neither searches nor learns: the overlay need not wait for the loop's read and
                # its size search (the models themselves take one run at a time, nets._forward)
                reading = peek(image)
            else:
                with self._reader_lock:
                    reading = reader(image)
        except Exception as exc:
            self._reader_failing = True
            self._set_status(state="error", detail=f"camera {self.spec}: dice reader failed "
                                                   f"({type(exc).__name__}: {exc})")
            raise
        if self._reader_failing:
            self._reader_failing = False
            self._set_status(state="ok", detail=f"camera {self.spec}: running, dice reader back")
        return reading

    def _read(self, settled: Settle) -> None:
        frame = settled.frame
        kinds, title = camera_kinds.kinds_now(self.ports)
        ids = tuple(k.id for k in kinds)
        if ids != self._memory_kinds:  # pip values and face codes are not to be compared
            self._memory, self._memory_kinds = RollMemory(), ids
        codes = None
        try:
            if kinds:
                with self._reader_lock:
                    reading, codes, others = camera_kinds.read_by_kinds(self.kind_reader, frame.image, kinds)
                self._set_status(other_kind=[{"box": list(r.box)} for r in others])
                if others:
                    self._problem(camera_kinds.other_kind_words(others, title), logging.WARNING)
            else:
                if self._status.get("other_kind"):
                    self._set_status(other_kind=[])
                reading = self._read_frame(frame.image)
        except Exception as exc:
            self._memory = self._memory.forget()
            self._problem(f"{frame.name}: dice reader failed ({type(exc).__name__}: {exc})")
            return
        decision = decide(settled, reading, self._memory, self.dice.partial_rolls)
        self._memory = decision.memory
        dice, good, refused = decision.dice, decision.good, decision.refused
        if not dice:
            self._nothing_read(frame, bool(reading.dice), decision.had_dice)
            return
        media = self.ports.media
        image_ref = media.save(frame.image, "frame")
        if refused:
            words = "; ".join(f"die at ({d.center[0]:.0f}, {d.center[1]:.0f}) {d.status}"
                              + (f" ({d.reason})" if d.reason else "") for d in refused)
            self._problem(f"{frame.name}: {len(refused)} of {len(dice)} dice not read, please re-roll them: {words}",
                          logging.WARNING)
            self._set_status(reroll=[{"status": d.status, "reason": d.reason, "center": list(d.center),
                                      "box": list(d.box)} for d in refused], reroll_image=image_ref)
        else:
            self._set_status(reroll=[], reroll_image="")
        if not decision.records:
            return
        crops = tuple(media.save(crop_box(frame.image, d.box), f"die{i}") for i, d in enumerate(good))
        confidence = tuple(round(float(d.confidence), 3) for d in good)
        named = camera_kinds.roll_fields(codes, good) if codes is not None else {"die": "d6", "faces": decision.faces}
        event = DiceRolled(**named, source=self._source_name(frame), image=image_ref, crops=crops,
                           confidence=confidence, at=self.ports.clock())
        try:
            seq = self.ports.submit(event)
        except Refused as exc:
            self._problem(f"roll refused by the rules: {exc}")
            return
        except Exception as exc:  # engine busy or closing: report, keep the camera running
            self._problem(f"roll not recorded ({type(exc).__name__}: {exc})")
            return
        self.rolls += 1
        self._set_status(last_settle=frame.name, last_roll={"seq": seq, "faces": list(event.faces), "source": event.source,
                                                              "frame_t": frame.t, "frame_index": frame.index,
                                                              **({"kinds": list(event.kinds)} if event.kinds else {})},
                         detail=f"camera {self.spec}: rolled {camera_kinds.roll_words(event)}")


def build_camera(ports: Ports, spec: str, camera: CameraSettings = CameraSettings(),
                 dice: DiceSettings = DiceSettings(),
                 frame_readers: tuple[Callable[[Frame], None], ...] = (), taught=None) -> CameraLoop:
    """The camera device on ``ports`` (called by ``Table`` when ``camera.source`` names one);
    ``taught``: the table's :class:`~.camera_taught.TaughtKinds`, read with their face models.

    Raises:
        CameraError / OSError: ``camera.calibration`` names a missing or bad file.
    """
    calibration = Calibration.load(Path(camera.calibration)) if camera.calibration else None
    kind_reader = None
    if taught is not None:
        from .camera_taught import taught_kind_reader

        kind_reader = taught_kind_reader(taught, camera_kinds.default_kind_reader)
    return CameraLoop(ports, str(spec), settle=camera.settle(), calibration=calibration,
                      options=camera.source_options(), dice=dice, frame_readers=frame_readers,
                      kind_reader=kind_reader)
