"""The firmware's main logic: poll the pads, report transitions, answer the host.

Pure: the readers, the output and the clock are handed in, so the same code
runs on the Pico (``main.py``), under CPython in the simulated table and in the
tests under MicroPython. Every line it writes follows firmware/PROTOCOL.md.

A reader is any object with ``name`` (``mfrc522``/``pn532``/``sim``), ``where``
(wiring, e.g. ``cs:GP17``), ``init() -> str`` (chip description; raises OSError
when the chip does not answer) and ``poll() -> bytes | None`` (the UID of the tag
in the field or None; raises OSError on a bus fault).
"""

try:
    from . import protocol
    from .debounce import PadDebounce
    from .uid import uid_hex
except ImportError:  # MicroPython: flat modules on the board's filesystem
    import protocol
    from debounce import PadDebounce
    from uid import uid_hex

FIRMWARE_VERSION = "1.0.0"
TICKS_PERIOD = 1 << 30
"""MicroPython's ``time.ticks_ms()`` wraps at 2**30; the clock handed in must too."""


def ticks_diff(a, b):
    """``a - b`` in ms for clocks that wrap at TICKS_PERIOD (as MicroPython's ``time.ticks_diff``)."""
    half = TICKS_PERIOD >> 1
    return ((a - b + half) % TICKS_PERIOD) - half


class Scanner:
    """Polls ``readers`` (one per pad, pad number = index) and writes protocol lines.

    Args:
        readers: the pads' readers, see the module docstring.
        write: called with each line (``str`` ending in ``\\n``).
        clock: returns milliseconds, wrapping at TICKS_PERIOD.
        backend: reported in the banner (``mfrc522``, ``pn532``, ``sim``).
        boot_id: 4 hex digits chosen at random on each boot; lets the host tell a
            reboot (sequence restarts) from a reconnect to a running device.
        miss_limit: consecutive empty polls before a tag counts as removed.
        heartbeat_ms: interval of ``HB`` lines.
        retry_ms: interval between attempts to bring a failed reader back.
    """

    def __init__(self, readers, write, clock, backend="mfrc522", boot_id="0000", miss_limit=3,
                 heartbeat_ms=1000, retry_ms=2000):
        self.readers = list(readers)
        self.write = write
        self.clock = clock
        self.backend = backend
        self.boot_id = boot_id
        self.heartbeat_ms = heartbeat_ms
        self.retry_ms = retry_ms
        self.seq = 0
        self.pads = [PadDebounce(miss_limit) for _ in self.readers]
        self.ok = [False] * len(self.readers)
        self.detail = ["not started"] * len(self.readers)
        self.bad_reads = 0
        self._rx = bytearray()
        self._skipping = False  # inside a too-long line, already answered: drop up to its newline
        self._booted = clock()
        self._last_hb = self._booted
        self._up_tick = self._booted  # clock reading the uptime was last brought up to
        self._up_s = 0  # uptime: whole seconds ...
        self._up_ms = 0  # ... and 0..999 ms, kept apart so no int outgrows a small int on the Pico
        self._retry_at = [self._booted] * len(self.readers)

    # -- output ------------------------------------------------------------------------
    def emit(self, verb, fields=()):
        self.seq = protocol.next_seq(self.seq)
        self.write(protocol.encode(self.seq, verb, fields))

    def banner(self):
        self.emit("HELLO", (("fw", FIRMWARE_VERSION), ("proto", protocol.PROTOCOL_VERSION),
                            ("pads", len(self.readers)), ("backend", self.backend), ("boot", self.boot_id)))

    def report_reader(self, pad):
        if self.ok[pad]:
            self.emit("READER_OK", (("pad", pad), ("chip", self.detail[pad])))
        else:
            self.emit("READER_FAIL", (("pad", pad), ("why", self.detail[pad])))

    def status(self):
        for pad in range(len(self.readers)):
            self.report_reader(pad)

    def snapshot(self):
        n = 0
        for pad, deb in enumerate(self.pads):
            if deb.uid is not None:
                self.emit("PRESENT", (("pad", pad), ("uid", deb.uid)))
                n += 1
        self.emit("SNAPSHOT", (("tags", n),))

    def list_pads(self):
        for pad, reader in enumerate(self.readers):
            self.emit("PAD", (("pad", pad), ("reader", reader.name), ("where", reader.where)))
        self.emit("PADS", (("n", len(self.readers)),))

    def uptime(self, now):
        """Seconds since the Scanner was made, ``now`` being a reading of ``clock`` (ms).

        ``ticks_diff`` is only right for readings less than TICKS_PERIOD/2 ms (2**29 ms, 6.2 days)
        apart, so the uptime is not measured from boot but summed from the ticks_diff between
        successive calls; ``step()`` calls it every poll (20 ms). Correct for years (``_up_s``
        reaches 2**30 after 34 years).
        """
        ms = self._up_ms + ticks_diff(now, self._up_tick)
        self._up_tick = now
        self._up_s += ms // 1000
        self._up_ms = ms % 1000
        return self._up_s

    def heartbeat(self, now):
        self._last_hb = now
        up = self.uptime(now)
        tags = sum(1 for d in self.pads if d.uid is not None)
        self.emit("HB", (("up", up), ("tags", tags)))

    # -- polling -------------------------------------------------------------------------
    def boot(self):
        """Bring up every reader, poll each once, then banner, health and a presence snapshot.

        Tags already lying on the pads at boot are reported as ``PRESENT`` (a snapshot), not as
        new placements, so the host's picture survives a reboot of the reader.
        """
        for pad in range(len(self.readers)):
            self._init_reader(pad)
            if self.ok[pad]:
                try:
                    raw = self.readers[pad].poll()
                    self.pads[pad].update(uid_hex(raw) if raw else None)
                except (OSError, ValueError):
                    pass  # the first step() retries and reports
        self.banner()
        self.status()
        self.snapshot()

    def _init_reader(self, pad):
        try:
            self.detail[pad] = _word(self.readers[pad].init())
            self.ok[pad] = True
        except OSError as exc:
            self.ok[pad] = False
            self.detail[pad] = _why(exc)
            self._retry_at[pad] = self.clock()

    def _fail(self, pad, exc):
        self.ok[pad] = False
        self.detail[pad] = _why(exc)
        self._retry_at[pad] = self.clock()
        self.report_reader(pad)

    def step(self):
        """Poll every pad once, write the transitions, and a heartbeat when it is due."""
        for pad, reader in enumerate(self.readers):
            if not self.ok[pad]:
                if ticks_diff(self.clock(), self._retry_at[pad]) < self.retry_ms:
                    continue
                self._init_reader(pad)
                if not self.ok[pad]:
                    continue
                self.report_reader(pad)
            try:
                raw = reader.poll()
            except OSError as exc:
                self._fail(pad, exc)
                continue
            uid = None
            if raw:
                try:
                    uid = uid_hex(raw)
                except ValueError:
                    self.bad_reads += 1  # a torn read counts as a miss
            for kind, text in self.pads[pad].update(uid):
                self.emit("PLACED" if kind == "placed" else "REMOVED", (("pad", pad), ("uid", text)))
        now = self.clock()
        self.uptime(now)
        if ticks_diff(now, self._last_hb) >= self.heartbeat_ms:
            self.heartbeat(now)

    # -- input ------------------------------------------------------------------------------
    def receive(self, data):
        """Feed bytes from the host, in chunks of any size; complete lines are answered at once.

        A line may have protocol.MAX_LINE (120) bytes, its newline (and any ``\\r``) included
        (PROTOCOL.md, Lines). A longer one gets a single ``ERR why=too-long`` as soon as its length
        is certain (120 bytes without a newline), wherever the chunks split it; the rest of it, up to
        and including its newline, is dropped unanswered.
        """
        self._rx.extend(data)
        while True:
            nl = self._rx.find(b"\n")
            if nl < 0:
                break
            line = bytes(self._rx[:nl])
            self._rx = self._rx[nl + 1:]
            if self._skipping:
                self._skipping = False  # the tail of a too-long line, answered already
            elif nl + 1 > protocol.MAX_LINE:
                self.emit("ERR", (("why", "too-long"),))
            else:
                self.handle(line)
        if len(self._rx) >= protocol.MAX_LINE:  # with its newline still to come it is too long
            self._rx = bytearray()
            if not self._skipping:
                self._skipping = True
                self.emit("ERR", (("why", "too-long"),))

    def handle(self, line):
        """Answer one command line (bytes, without newline). See PROTOCOL.md, host to device.

        A trailing ``\\r`` is ignored and bytes outside 0x20..0x7E in front of the line (noise
        after a reset) are skipped; a line with any byte >= 0x80 left gets ``ERR why=not-ascii``,
        one with a control byte ``ERR why=bad-line``.
        """
        if line.endswith(b"\r"):
            line = line[:-1]
        start = 0
        while start < len(line) and not 0x20 <= line[start] <= 0x7E:
            start += 1
        line = line[start:]
        for b in line:
            if b >= 0x80:
                self.emit("ERR", (("why", "not-ascii"),))
                return
        for b in line:
            if b < 0x20 or b == 0x7F:
                self.emit("ERR", (("why", "bad-line"),))
                return
        text = line.decode().strip()
        if not text:
            return
        if "*" in text:
            try:
                seq, verb, _ = protocol.decode(text)
            except ValueError as exc:
                self.emit("ERR", (("why", "checksum" if "checksum" in str(exc) else "bad-line"),))
                return
        else:  # a person typing at a terminal: a bare command word
            seq, verb = 0, text.upper()
        if verb == "HELLO":
            self.banner()
            self.status()
            self.snapshot()
        elif verb == "STATUS":
            self.status()
            self.heartbeat(self.clock())
        elif verb == "PADS":
            self.list_pads()
        elif verb == "SNAPSHOT":
            self.snapshot()
        else:
            fields = (("why", "unknown-command"),)
            self.emit("ERR", fields + ((("re", seq),) if seq else ()))


def _word(text):
    """``text`` reduced to protocol value characters (a chip name may have spaces)."""
    out = "".join(ch if ch in protocol._VALUE_CHARS else "-" for ch in str(text))
    return out[:32] or "-"


def _why(exc):
    return _word(exc.args[0] if exc.args else type(exc).__name__)
