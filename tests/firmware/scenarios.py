"""Firmware scenarios that run unchanged under CPython and under MicroPython.

Each ``scenario_*`` function takes ``fw``, an object whose attributes are the
firmware modules (``protocol``, ``uid``, ``debounce``, ``scanner``, ``sim``,
``pn532``, ``mfrc522``) plus ``golden`` (the text of firmware/golden_frames.txt),
and raises AssertionError on failure. test_firmware.py runs them under CPython,
run_micropython.mjs under the MicroPython WebAssembly port. Only the language
subset both share is used here (no pytest, no f-string conversions, no typing).
"""


class FakeClock:
    """Milliseconds that advance only when told; wraps like MicroPython's ticks_ms."""

    def __init__(self, start=0):
        self.now = start

    def __call__(self):
        return self.now

    def advance(self, ms):
        self.now = (self.now + ms) % (1 << 30)


class Rig:
    """A Scanner over ``n`` simulated pads, a fake clock, and the lines it wrote (decoded)."""

    def __init__(self, fw, n=4, miss_limit=3, start=0):
        self.fw = fw
        self.clock = FakeClock(start)
        self.readers = [fw.sim.SimReader("pad%d" % i) for i in range(n)]
        self.raw = []
        self.scanner = fw.scanner.Scanner(self.readers, self.raw.append, self.clock, backend="sim",
                                          boot_id="BEEF", miss_limit=miss_limit)
        self.seen = 0

    def run(self, ms, every=20):
        """Step the scanner every ``every`` ms for ``ms`` ms."""
        for _ in range(ms // every):
            self.clock.advance(every)
            self.scanner.step()

    def take(self, skip_hb=True):
        """The lines written since the last call, as ``(verb, {key: value})``."""
        out = []
        for line in self.raw[self.seen:]:
            seq, verb, fields = self.fw.protocol.decode(line)
            if skip_hb and verb == "HB":
                continue
            out.append((verb, dict(fields)))
        self.seen = len(self.raw)
        return out

    def seqs(self):
        return [self.fw.protocol.decode(line)[0] for line in self.raw]


def _eq(got, want):
    assert got == want, "got %r, want %r" % (got, want)


def _raises(fn, *args):
    try:
        fn(*args)
    except ValueError as exc:
        return str(exc)
    raise AssertionError("%r%r did not raise ValueError" % (fn, args))


# --- protocol ---------------------------------------------------------------------------

def scenario_crc_check_value(fw):
    _eq(fw.protocol.crc16(b"123456789"), 0x29B1)  # CRC-16/CCITT-FALSE check value


def scenario_golden_frames(fw):
    n_ok = n_bad = 0
    for raw in fw.golden.split("\n"):
        if not raw or raw.startswith("#"):
            continue
        tag, _, rest = raw.partition(" ")
        if tag == "ok":
            seq, verb, fields = fw.protocol.decode(rest)
            _eq(fw.protocol.encode(seq, verb, fields), rest + "\n")
            n_ok += 1
        else:
            reason, _, line = rest.partition(" ")
            msg = _raises(fw.protocol.decode, line)
            assert reason in msg, "%r rejected for %r, want %r" % (line, msg, reason)
            n_bad += 1
    _eq((n_ok, n_bad), (16, 9))


def scenario_encode_refuses_bad_values(fw):
    _raises(fw.protocol.encode, 1, "PLACED", (("uid", "04 A1"),))
    _raises(fw.protocol.encode, 0, "HB", ())
    _raises(fw.protocol.encode, 1, "PLACED", (("uid", "A=B"),))
    _raises(fw.protocol.encode, 1, "X", (("k", "v" * 120),))


# --- UIDs ---------------------------------------------------------------------------------

def scenario_uid_text(fw):
    _eq(fw.uid.uid_hex(b"\x04\xa1\xb2\xc3"), "04A1B2C3")
    _eq(fw.uid.uid_hex(bytes([4, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6])), "04A1B2C3D4E5F6")
    _raises(fw.uid.uid_hex, b"\x04\xa1\xb2\xc3\xd4")
    _eq(fw.uid.uid_bytes("04A1B2C3"), b"\x04\xa1\xb2\xc3")


def scenario_uid_cascade(fw):
    u = fw.uid
    # 7-byte UID 04 A1 B2 C3 D4 E5 F6: level 1 = CT 04 A1 B2 BCC, level 2 = C3 D4 E5 F6 BCC
    l1 = bytes([0x88, 0x04, 0xA1, 0xB2, 0x88 ^ 0x04 ^ 0xA1 ^ 0xB2])
    l2 = bytes([0xC3, 0xD4, 0xE5, 0xF6, 0xC3 ^ 0xD4 ^ 0xE5 ^ 0xF6])
    _eq(u.from_cascade([l1, l2]), bytes([0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]))
    single = bytes([0x04, 0xA1, 0xB2, 0xC3, 0x04 ^ 0xA1 ^ 0xB2 ^ 0xC3])
    _eq(u.from_cascade([single]), b"\x04\xa1\xb2\xc3")
    assert "BCC" in _raises(u.from_cascade, [bytes([0x04, 0xA1, 0xB2, 0xC3, 0x00])])
    assert "cascade tag" in _raises(u.from_cascade, [l1])  # a fragment is no UID
    _eq(u.crc_a(b"\x00\x00"), b"\xa0\x1e")  # ISO/IEC 14443-3 Annex B example
    _eq(u.crc_a(b"\x12\x34"), b"\x26\xcf")


# --- debounce -----------------------------------------------------------------------------------

def scenario_debounce_counts_misses(fw):
    d = fw.debounce.PadDebounce(miss_limit=3)
    _eq(d.update("04A1B2C3"), [("placed", "04A1B2C3")])
    _eq(d.update("04A1B2C3"), [])
    _eq(d.update(None), [])
    _eq(d.update(None), [])
    _eq(d.update("04A1B2C3"), [])  # two misses then back: a flicker, no event
    _eq([d.update(None) for _ in range(3)], [[], [], [("removed", "04A1B2C3")]])
    _eq(d.update("11223344"), [("placed", "11223344")])
    _eq(d.update("55667788"), [("removed", "11223344"), ("placed", "55667788")])


# --- scanner ---------------------------------------------------------------------------------------

def scenario_boot_reports_banner_and_reader_health(fw):
    rig = Rig(fw)
    rig.readers[2].fail("no-chip")
    rig.scanner.boot()
    _eq(rig.take(), [
        ("HELLO", {"fw": fw.scanner.FIRMWARE_VERSION, "proto": "1", "pads": "4", "backend": "sim", "boot": "BEEF"}),
        ("READER_OK", {"pad": "0", "chip": "sim"}),
        ("READER_OK", {"pad": "1", "chip": "sim"}),
        ("READER_FAIL", {"pad": "2", "why": "no-chip"}),
        ("READER_OK", {"pad": "3", "chip": "sim"}),
        ("SNAPSHOT", {"tags": "0"}),
    ])
    _eq(rig.seqs(), [1, 2, 3, 4, 5, 6])


def scenario_tags_on_the_pads_at_boot_are_a_snapshot(fw):
    rig = Rig(fw, n=3)
    rig.readers[0].place("04A1B2C3")
    rig.readers[2].place("04A1B2C3D4E5F6")
    rig.scanner.boot()
    _eq([v for v, f in rig.take()], ["HELLO", "READER_OK", "READER_OK", "READER_OK", "PRESENT", "PRESENT",
                                     "SNAPSHOT"])
    rig.run(1000)
    _eq(rig.take(), [])  # no PLACED for tags that were already there
    rig.readers[0].remove()
    rig.run(60)
    _eq(rig.take(), [("REMOVED", {"pad": "0", "uid": "04A1B2C3"})])


def scenario_resting_tag_is_one_placed(fw):
    rig = Rig(fw)
    rig.scanner.boot()
    rig.take()
    rig.readers[1].place("04A1B2C3D4E5F6")
    rig.run(10000)  # 10 s on the fake clock, 500 polls of every pad
    lines = rig.take(skip_hb=False)
    _eq([v for v, f in lines if v != "HB"], ["PLACED"])
    _eq(lines[0], ("PLACED", {"pad": "1", "uid": "04A1B2C3D4E5F6"}))
    hbs = [f for v, f in lines if v == "HB"]
    _eq(len(hbs), 10)
    _eq(hbs[-1], {"up": "10", "tags": "1"})


def scenario_flicker_within_debounce_is_silent(fw):
    rig = Rig(fw, miss_limit=3)
    rig.scanner.boot()
    rig.take()
    pad = rig.readers[0]
    pad.place("04A1B2C3")
    rig.run(20)
    _eq(rig.take(), [("PLACED", {"pad": "0", "uid": "04A1B2C3"})])
    pad.remove()
    rig.run(40)  # two empty polls (< 3)
    pad.place("04A1B2C3")
    rig.run(200)
    pad.drop(2)
    rig.run(200)
    _eq(rig.take(), [])
    pad.remove()
    rig.run(60)
    _eq(rig.take(), [("REMOVED", {"pad": "0", "uid": "04A1B2C3"})])


def scenario_swap_on_one_pad(fw):
    rig = Rig(fw)
    rig.scanner.boot()
    rig.take()
    rig.readers[3].place("04A1B2C3")
    rig.run(20)
    rig.readers[3].place("0A0B0C0D")
    rig.run(20)
    _eq(rig.take(), [("PLACED", {"pad": "3", "uid": "04A1B2C3"}),
                     ("REMOVED", {"pad": "3", "uid": "04A1B2C3"}),
                     ("PLACED", {"pad": "3", "uid": "0A0B0C0D"})])


def scenario_hello_answers_banner_status_snapshot(fw):
    rig = Rig(fw, n=2)
    rig.scanner.boot()
    rig.readers[1].place("04A1B2C3")
    rig.run(20)
    rig.take()
    cmd = fw.protocol.encode(7, "HELLO").encode()
    rig.scanner.receive(cmd[:3])  # a command split across reads
    _eq(rig.take(), [])
    rig.scanner.receive(cmd[3:])
    _eq(rig.take(), [
        ("HELLO", {"fw": fw.scanner.FIRMWARE_VERSION, "proto": "1", "pads": "2", "backend": "sim", "boot": "BEEF"}),
        ("READER_OK", {"pad": "0", "chip": "sim"}),
        ("READER_OK", {"pad": "1", "chip": "sim"}),
        ("PRESENT", {"pad": "1", "uid": "04A1B2C3"}),
        ("SNAPSHOT", {"tags": "1"}),
    ])


def scenario_commands_and_errors(fw):
    rig = Rig(fw, n=2)
    rig.scanner.boot()
    rig.take()
    rig.scanner.receive(b"pads\r\n")  # a person at a terminal
    _eq(rig.take(), [("PAD", {"pad": "0", "reader": "sim", "where": "pad0"}),
                     ("PAD", {"pad": "1", "reader": "sim", "where": "pad1"}),
                     ("PADS", {"n": "2"})])
    rig.scanner.receive(b"3 STATUS*0000\n")
    _eq(rig.take(), [("ERR", {"why": "checksum"})])
    rig.scanner.receive(fw.protocol.encode(9, "FLY").encode())
    _eq(rig.take(), [("ERR", {"why": "unknown-command", "re": "9"})])
    rig.scanner.receive(fw.protocol.encode(10, "STATUS").encode())
    _eq([v for v, f in rig.take(skip_hb=False)], ["READER_OK", "READER_OK", "HB"])
    rig.scanner.receive(b"x" * 200)
    _eq(rig.take(), [("ERR", {"why": "too-long"})])


def scenario_reader_fails_and_recovers(fw):
    rig = Rig(fw, n=2)
    rig.scanner.boot()
    rig.take()
    rig.readers[1].fail("spi-timeout")
    rig.run(20)
    _eq(rig.take(), [("READER_FAIL", {"pad": "1", "why": "spi-timeout"})])
    rig.run(3000)
    _eq(rig.take(), [])  # retries every 2 s, still failing: no repeated lines
    rig.readers[1].fail(None)
    rig.readers[1].place("04A1B2C3")
    rig.run(2000)
    _eq(rig.take(), [("READER_OK", {"pad": "1", "chip": "sim"}), ("PLACED", {"pad": "1", "uid": "04A1B2C3"})])


def scenario_sequence_wraps_and_clock_wraps(fw):
    rig = Rig(fw, n=1, start=(1 << 30) - 500)  # ticks_ms wraps during the run
    rig.scanner.boot()
    rig.scanner.seq = 65534
    rig.run(1000)  # one heartbeat although ticks_ms wrapped from 2**30-1 to 0
    rig.readers[0].place("04A1B2C3")
    rig.run(20)
    _eq([fw.protocol.decode(line)[1:] for line in rig.raw[-2:]],
        [("HB", [("up", "1"), ("tags", "0")]), ("PLACED", [("pad", "0"), ("uid", "04A1B2C3")])])
    _eq(rig.seqs()[-2:], [65535, 1])


# --- drivers' pure parts ----------------------------------------------------------------------------

def scenario_pn532_frames(fw):
    p = fw.pn532
    _eq(p.frame(0x02), bytes([0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00]))
    # GetFirmwareVersion answer of a PN532 v1.6 (UM0701 7.2.2)
    answer = bytes([0x00, 0x00, 0xFF, 0x06, 0xFA, 0xD5, 0x03, 0x32, 0x01, 0x06, 0x07, 0xE8, 0x00])
    _eq(p.parse_frame(answer, 0x02), bytes([0x32, 0x01, 0x06, 0x07]))
    assert "checksum" in _raises(p.parse_frame, answer[:11] + b"\xe9\x00", 0x02)
    _eq(p.frame(0x14, b"\x01\x14\x01")[5:8], bytes([0xD4, 0x14, 0x01]))
    data = bytes([0x01, 0x01, 0x00, 0x44, 0x00, 0x07, 0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6])
    _eq(p.target_uid(data), bytes([0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]))
    _eq(p.target_uid(b"\x00"), None)


class _FakeRc522Bus:
    """Answers register reads of an MFRC522 from a table; records writes."""

    def __init__(self, version):
        self.regs = {0x37: version}
        self.writes = []
        self._pending = None

    def value(self, v=None):  # the CS pin
        return 1

    def write(self, data):
        if data[0] & 0x80:
            self._pending = (data[0] >> 1) & 0x3F
        else:
            reg = (data[0] >> 1) & 0x3F
            self.regs[reg] = data[1]
            self.writes.append((reg, data[1]))

    def read(self, n):
        return bytes([self.regs.get(self._pending, 0)])


def scenario_mfrc522_init(fw):
    bus = _FakeRc522Bus(0x92)
    reader = fw.mfrc522.MFRC522(bus, bus, where="cs:GP17")
    _eq(reader.init(), "mfrc522-v2")
    assert (0x01, 0x0F) in bus.writes  # soft reset first
    _eq(bus.regs[0x14] & 0x03, 0x03)  # antenna on
    absent = _FakeRc522Bus(0x00)
    try:
        fw.mfrc522.MFRC522(absent, absent).init()
    except OSError as exc:
        _eq(exc.args[0], "no-chip")
    else:
        raise AssertionError("an absent chip was accepted")


class _FakeRc522Card:
    """An MFRC522 with a type A card in its field: answers WUPA, anticollision, select, HLTA.

    Models the registers the driver touches (FIFO, ComIrq, FIFOLevel, BitFraming, Command)
    and an ISO/IEC 14443-3 card of the given UID; a select frame with a wrong CRC_A gets no answer.
    """

    def __init__(self, fw, uid):
        self.fw = fw
        self.uid = uid
        self.regs = {0x37: 0x92}
        self.fifo_in = []
        self.fifo_out = []
        self.irq = 0
        self.halted = False
        self.sent = []
        self._pending = None

    def value(self, v=None):
        return 1

    def _levels(self):
        u = self.uid
        if len(u) == 4:
            return [u]
        if len(u) == 7:
            return [bytes([0x88]) + u[0:3], u[3:7]]
        return [bytes([0x88]) + u[0:3], bytes([0x88]) + u[3:6], u[6:10]]

    def _answer(self, frame, bits):
        crc = self.fw.uid.crc_a
        if bits == 7 and frame == b"\x52":
            self.halted = False
            return b"\x44\x00"
        if self.halted:
            return None
        if frame[0] == 0x50:
            self.halted = True
            return None
        level = {0x93: 0, 0x95: 1, 0x97: 2}.get(frame[0])
        levels = self._levels()
        if level is None or level >= len(levels):
            return None
        part = levels[level]
        full = part + bytes([self.fw.uid.bcc(part)])
        if frame[1] == 0x20:
            return full
        if frame[1] == 0x70 and frame[2:7] == full and frame[7:9] == crc(frame[:7]):
            sak = bytes([0x04 if level < len(levels) - 1 else 0x08])
            return sak + crc(sak)
        return None

    def write(self, data):
        if data[0] & 0x80:
            self._pending = (data[0] >> 1) & 0x3F
            return
        reg, val = (data[0] >> 1) & 0x3F, data[1]
        self.regs[reg] = val
        if reg == 0x09:
            self.fifo_in.append(val)
        elif reg == 0x0A and val & 0x80:
            self.fifo_in = []
        elif reg == 0x04:
            self.irq = 0
        elif reg == 0x0D and val & 0x80 and self.regs.get(0x01) == 0x0C:
            frame = bytes(self.fifo_in)
            self.sent.append(frame)
            answer = self._answer(frame, val & 0x07)
            self.fifo_in = []
            self.fifo_out = list(answer) if answer else []
            self.irq = 0x30 if answer else 0x01

    def read(self, n):
        reg = self._pending
        if reg == 0x04:
            value = self.irq
        elif reg == 0x0A:
            value = len(self.fifo_out)
        elif reg == 0x09:
            value = self.fifo_out.pop(0)
        elif reg == 0x06:
            value = 0
        else:
            value = self.regs.get(reg, 0)
        return bytes([value])


def scenario_mfrc522_reads_every_uid_size_on_every_poll(fw):
    for text in ("04A1B2C3", "04A1B2C3D4E5F6", "04A1B2C3D4E5F6071829"):
        card = _FakeRc522Card(fw, fw.uid.uid_bytes(text))
        reader = fw.mfrc522.MFRC522(card, card)
        reader.init()
        for _ in range(3):  # a resting card answers every poll (WUPA wakes it from HALT)
            _eq(fw.uid.uid_hex(reader.poll()), text)
        _eq(card.sent[0], b"\x52")
        _eq(card.sent[-1][:2], b"\x50\x00")  # each poll ends with HLTA
    empty = _FakeRc522Card(fw, b"\x04\xa1\xb2\xc3")
    empty.halted = True
    reader = fw.mfrc522.MFRC522(empty, empty)
    reader.init()
    empty._answer = lambda frame, bits: None  # no card in the field
    _eq(reader.poll(), None)


# --- regressions: PN532 empty field, error replies, uptime -------------------------------------

def _pn532_answer(body):
    """A PN532-to-host normal information frame around ``body`` (UM0701-02 6.2.1.1), built here
    independently of the driver's ``frame()`` so the fake is an oracle, not a mirror."""
    n = len(body)
    return bytes([0x00, 0x00, 0xFF, n, (-n) & 0xFF]) + bytes(body) + bytes([(-sum(body)) & 0xFF, 0x00])


class _FakePn532Uart:
    """A PN532 in HSU mode behind a ``machine.UART``-like object (``any``/``read``/``write``).

    Models the NXP PN532 User Manual UM0701-02: asleep until a frame is preceded by the HSU
    wake-up 0x55 (6.3.2.3); every well-formed command is ACKed (6.2.1.3); GetFirmwareVersion
    answers IC 0x32, v1.6, support 0x07 (7.2.2); InListPassiveTarget is only served after
    SAMConfiguration (7.2.10); RFConfiguration CfgItem 0x05 sets MxRtyATR, MxRtyPSL,
    MxRtyPassiveActivation (7.3.1). InListPassiveTarget (7.3.5) with a card answers NbTg=1 and its
    NFCID1; with no card it answers NbTg=0 after MxRtyPassiveActivation retries, except with the
    power-up default 0xFF ("try eternally"): then only the ACK ever comes.
    ``commands`` records ``(command code, parameter bytes)`` of every frame received.
    """

    def __init__(self, uid=None):
        self.uid = uid
        self.awake = False
        self.sam = False
        self.passive_retries = 0xFF  # UM0701-02 7.3.1: default of MxRtyPassiveActivation
        self.commands = []
        self._out = b""

    def any(self):
        return len(self._out)

    def read(self, n=None):
        if not self._out:
            return None
        data, self._out = self._out, b""
        return data

    def write(self, data):
        data = bytes(data)
        if data[:1] == b"\x55":
            self.awake = True
        start = data.find(b"\x00\x00\xff")
        if not self.awake or start < 0:
            return
        n = data[start + 3]
        body = data[start + 5:start + 5 + n]
        assert (n + data[start + 4]) & 0xFF == 0 and (sum(body) + data[start + 5 + n]) & 0xFF == 0, "bad frame"
        assert body[0] == 0xD4, "not a host frame"
        cmd, params = body[1], bytes(body[2:])
        self.commands.append((cmd, params))
        self._out += b"\x00\x00\xff\x00\xff\x00"  # ACK
        answer = None
        if cmd == 0x02:
            answer = [0x32, 0x01, 0x06, 0x07]
        elif cmd == 0x14:
            self.sam = True
            answer = []
        elif cmd == 0x32 and params[0] == 0x05:
            self.passive_retries = params[3]
            answer = []
        elif cmd == 0x4A and self.sam:
            if self.uid:
                sens = [0x44, 0x00] if len(self.uid) > 4 else [0x04, 0x00]
                answer = [0x01, 0x01] + sens + [0x00, len(self.uid)] + list(self.uid)
            elif self.passive_retries != 0xFF:
                answer = [0x00]
        if answer is not None:
            self._out += _pn532_answer(bytes([0xD5, cmd + 1] + answer))


def scenario_pn532_init_sets_finite_passive_activation_retries(fw):
    uart = _FakePn532Uart()
    reader = fw.pn532.PN532(uart, where="uart0")
    _eq(reader.init(), "pn532-v1.6")
    _eq(uart.commands, [(0x02, b""), (0x14, bytes([0x01, 0x14, 0x01])),
                        (0x32, bytes([0x05, 0xFF, 0x01, 0x01]))])  # RFConfiguration MaxRetries
    _eq(reader.poll(), None)  # empty field: NbTg=0, no card, no error
    _eq(uart.commands[-1], (0x4A, bytes([0x01, 0x00])))
    uart.uid = bytes([0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6])
    _eq(reader.poll(), uart.uid)
    uart.uid = None
    _eq(reader.poll(), None)
    # the fake's model of the defect: with the default 0xFF the chip only ACKs an empty field
    stuck = _FakePn532Uart()
    stuck.awake = stuck.sam = True
    try:
        fw.pn532.PN532(stuck).poll()
    except OSError as exc:
        _eq(exc.args[0], "no-answer")
    else:
        raise AssertionError("the modelled default-retry PN532 answered an empty field")


def scenario_pn532_empty_pad_is_no_card_not_reader_fail(fw):
    uart = _FakePn532Uart()
    clock = FakeClock()
    raw = []
    sc = fw.scanner.Scanner([fw.pn532.PN532(uart, where="uart0")], raw.append, clock, backend="pn532",
                            boot_id="BEEF")
    sc.boot()
    for _ in range(300):  # 6 s of 20 ms polls on an empty pad
        clock.advance(20)
        sc.step()
    uart.uid = bytes([0x04, 0xA1, 0xB2, 0xC3])
    clock.advance(20)
    sc.step()
    uart.uid = None
    for _ in range(3):
        clock.advance(20)
        sc.step()
    lines = [fw.protocol.decode(line)[1:] for line in raw]
    _eq([(v, dict(f)) for v, f in lines if v not in ("HELLO", "HB")], [
        ("READER_OK", {"pad": "0", "chip": "pn532-v1.6"}),
        ("SNAPSHOT", {"tags": "0"}),
        ("PLACED", {"pad": "0", "uid": "04A1B2C3"}),
        ("REMOVED", {"pad": "0", "uid": "04A1B2C3"}),
    ])
    _eq(len([v for v, f in lines if v == "HB"]), 6)


def scenario_crc_must_be_upper_case_hex(fw):
    _eq(fw.protocol.decode("1 HELLO*7DF0"), (1, "HELLO", []))
    for crc in ("7df0", "7Df0", " DF0", "+DF0", "0x7D"):
        assert "checksum" in _raises(fw.protocol.decode, "1 HELLO*" + crc), crc
    rig = Rig(fw, n=1)
    rig.scanner.boot()
    rig.take()
    rig.scanner.receive(b"1 HELLO*7df0\n")
    _eq(rig.take(), [("ERR", {"why": "checksum"})])


def scenario_non_ascii_line_is_err_not_ascii(fw):
    rig = Rig(fw, n=1)
    rig.scanner.boot()
    rig.take()
    rig.scanner.receive(b"h\xc3\xa9ll\xc3\xb3\n")  # "h\u00e9ll\u00f3" in UTF-8
    _eq(rig.take(), [("ERR", {"why": "not-ascii"})])
    rig.scanner.receive(b"h\xe9ll\xf3\n")  # the same in Latin-1
    _eq(rig.take(), [("ERR", {"why": "not-ascii"})])
    line = fw.protocol.encode(4, "STATUS").encode()
    rig.scanner.receive(line[:2] + b"\xc2\xa0" + line[2:])  # a no-break space inside a line
    _eq(rig.take(), [("ERR", {"why": "not-ascii"})])
    rig.scanner.receive(b"\xff\xfe\x00status\r\n")  # noise in front of a line is skipped
    _eq([v for v, f in rig.take()], ["READER_OK"])
    rig.scanner.receive(b"sta\x00tus\n")  # ASCII, but a control byte inside: not a printable line
    _eq(rig.take(), [("ERR", {"why": "bad-line"})])


def _line_of(fw, size):
    """A valid ``STATUS`` host line of exactly ``size`` bytes, newline included."""
    pad = size - len(fw.protocol.encode(5, "STATUS", (("x", "a"),)))
    return ("5 STATUS x=a" + "a" * pad + "*%04X\n" % fw.protocol.crc16(("5 STATUS x=a" + "a" * pad).encode())).encode()


def scenario_line_limit_is_120_bytes_with_newline(fw):
    rig = Rig(fw, n=1)
    rig.scanner.boot()
    rig.take()
    ok, long = _line_of(fw, 120), _line_of(fw, 121)
    _eq((len(ok), len(long)), (120, 121))
    for chunks in ([ok], [ok[i:i + 1] for i in range(len(ok))]):
        for c in chunks:
            rig.scanner.receive(c)
        _eq([v for v, f in rig.take()], ["READER_OK"])  # STATUS answered (fields it does not know: ignored)
    for chunks in ([long], [long[i:i + 1] for i in range(len(long))]):
        for c in chunks:
            rig.scanner.receive(c)
        _eq(rig.take(), [("ERR", {"why": "too-long"})])


def scenario_too_long_line_gets_exactly_one_err(fw):
    rig = Rig(fw, n=1)
    rig.scanner.boot()
    rig.take()
    junk = b"x" * 300 + b"\n"
    status = fw.protocol.encode(6, "STATUS").encode()
    rig.scanner.receive(junk + status)  # one chunk
    _eq([v for v, f in rig.take()], ["ERR", "READER_OK"])
    for i in range(len(junk)):  # byte by byte: the tail after the first 120 bytes is no new line
        rig.scanner.receive(junk[i:i + 1])
    rig.scanner.receive(status)
    _eq(rig.take(), [("ERR", {"why": "too-long"}), ("READER_OK", {"pad": "0", "chip": "sim"})])
    rig.scanner.receive(b"y" * 130)
    rig.scanner.receive(b"y" * 130)  # still the same line: no second ERR
    rig.scanner.receive(b"\n" + status)
    _eq([v for v, f in rig.take()], ["ERR", "READER_OK"])


def _uptime_over(fw, days):
    hour = 3600 * 1000
    rig = Rig(fw, n=1, start=(1 << 30) - 500)  # ticks_ms wraps within the first second, then every 12.4 days
    rig.scanner.boot()
    rig.run(days * 24 * hour, every=hour)
    ups = [int(dict(f)["up"]) for v, f in rig.take(skip_hb=False) if v == "HB"]
    _eq(len(ups), days * 24)
    wrong = [(i + 1, up) for i, up in enumerate(ups) if up != 3600 * (i + 1)]
    _eq(wrong[:1], [])  # (hour, reported up) of the first wrong heartbeat
    _eq(ups[-1], days * 86400)


def scenario_uptime_after_7_days(fw):
    _uptime_over(fw, 7)  # past 2**29 ms (6.2 days), where ticks_diff from boot turns negative


def scenario_uptime_after_30_days(fw):
    _uptime_over(fw, 30)  # past two wraps of the 2**30 ms counter


def all_scenarios():
    """``(name, function)`` of every scenario, in file order."""
    names = sorted(k for k in globals() if k.startswith("scenario_"))
    return [(k, globals()[k]) for k in names]


def run_all(fw):
    """Run every scenario; returns ``[(name, error_or_None), ...]`` (used by the MicroPython runner)."""
    out = []
    for name, fn in all_scenarios():
        try:
            fn(fw)
            out.append((name, None))
        except Exception as exc:  # report, keep going
            out.append((name, "%s: %s" % (type(exc).__name__, exc)))
    return out
