"""MFRC522 over SPI: wake a tag, read its whole UID, halt it again.

No ``machine`` import: ``main.py`` hands in the SPI bus and the chip-select pin,
so one bus serves up to four readers (one CS each). Register map and commands
from the NXP MFRC522 datasheet rev. 3.9 (sections 8.1.2 SPI, 9 registers, 10
commands); card commands from ISO/IEC 14443-3.

Each poll sends WUPA (not REQA), runs anticollision/select over every cascade
level and ends with HLTA: a selected card ignores the next wake-up, while a
halted one answers WUPA, so a resting tag is read on every poll.
"""

try:
    from .uid import crc_a, from_cascade
except ImportError:
    from uid import crc_a, from_cascade

# Registers (datasheet table 20)
COMMAND, COM_IRQ, DIV_IRQ, ERROR, FIFO_DATA, FIFO_LEVEL = 0x01, 0x04, 0x05, 0x06, 0x09, 0x0A
CONTROL, BIT_FRAMING, COLL, MODE, TX_CONTROL, TX_ASK = 0x0C, 0x0D, 0x0E, 0x11, 0x14, 0x15
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, VERSION = 0x2A, 0x2B, 0x2C, 0x2D, 0x37
# Commands (table 149)
IDLE, TRANSCEIVE, SOFT_RESET = 0x00, 0x0C, 0x0F
# ISO/IEC 14443-3 card commands
WUPA, HLTA, SEL = 0x52, 0x50, (0x93, 0x95, 0x97)

KNOWN_VERSIONS = {0x91: "mfrc522-v1", 0x92: "mfrc522-v2", 0x88: "fm17522", 0x12: "mfrc522-clone"}


class NoTag(Exception):
    """No card answered (timeout) — a miss, not a fault."""


class MFRC522:
    """One reader: ``spi`` is a configured ``machine.SPI`` (mode 0, <= 10 MHz), ``cs`` an output Pin."""

    name = "mfrc522"

    def __init__(self, spi, cs, where="", sleep_ms=None):
        self.spi = spi
        self.cs = cs
        self.where = where or "cs"
        self._sleep_ms = sleep_ms
        self.cs.value(1)

    # -- register access (datasheet 8.1.2.3: address byte 0XXXXXX0 write, 1XXXXXX0 read)
    def _write(self, reg, value):
        self.cs.value(0)
        self.spi.write(bytes(((reg << 1) & 0x7E, value)))
        self.cs.value(1)

    def _read(self, reg):
        self.cs.value(0)
        self.spi.write(bytes((((reg << 1) & 0x7E) | 0x80,)))
        value = self.spi.read(1)[0]
        self.cs.value(1)
        return value

    def _set(self, reg, mask):
        self._write(reg, self._read(reg) | mask)

    def _clear(self, reg, mask):
        self._write(reg, self._read(reg) & ~mask)

    # -- reader interface (see scanner.py) ----------------------------------------------------
    def init(self):
        """Soft reset, 25 ms receive timeout, 100% ASK, CRC preset 0x6363, antenna on.

        Returns the chip name; raises OSError when VersionReg reads 0x00/0xFF (no chip on this CS).
        """
        self._write(COMMAND, SOFT_RESET)
        if self._sleep_ms:
            self._sleep_ms(50)
        version = self._read(VERSION)
        if version in (0x00, 0xFF):
            raise OSError("no-chip")
        self._write(T_MODE, 0x80)        # timer starts at the end of each transmission
        self._write(T_PRESCALER, 0xA9)   # 13.56 MHz / (2*169+1) ~ 40 kHz -> 25 us a tick
        self._write(T_RELOAD_H, 0x03)
        self._write(T_RELOAD_L, 0xE8)    # 1000 ticks = 25 ms
        self._write(TX_ASK, 0x40)        # force 100% ASK (type A)
        self._write(MODE, 0x3D)          # CRC preset 0x6363 (ISO 14443-3 CRC_A)
        self._set(TX_CONTROL, 0x03)      # antenna drivers TX1, TX2 on
        return KNOWN_VERSIONS.get(version, "0x%02X" % version)

    def poll(self):
        """UID bytes of the tag in the field, or None. Raises OSError on a reader fault."""
        try:
            self._transceive(bytes((WUPA,)), bits=7)
            levels = []
            for sel in SEL:
                level = self._transceive(bytes((sel, 0x20)))
                if len(level) != 5:
                    return None
                frame = bytes((sel, 0x70)) + level
                sak = self._transceive(frame + crc_a(frame))
                levels.append(level)
                if not sak or not sak[0] & 0x04:  # SAK bit 3 clear: UID complete
                    break
            uid = from_cascade(levels)
        except (NoTag, ValueError):
            return None
        try:
            frame = bytes((HLTA, 0x00))
            self._transceive(frame + crc_a(frame))
        except NoTag:
            pass  # a halted card does not answer HLTA: silence is success (ISO 14443-3 6.4.3)
        return uid

    def _transceive(self, data, bits=0):
        self._write(COMMAND, IDLE)
        self._write(COM_IRQ, 0x7F)        # clear interrupt flags
        self._write(FIFO_LEVEL, 0x80)     # flush FIFO
        for b in data:
            self._write(FIFO_DATA, b)
        self._write(BIT_FRAMING, bits)
        self._write(COMMAND, TRANSCEIVE)
        self._set(BIT_FRAMING, 0x80)      # StartSend
        for _ in range(2000):
            irq = self._read(COM_IRQ)
            if irq & 0x30:                # RxIRq or IdleIRq
                break
            if irq & 0x01:                # TimerIRq: nobody answered
                raise NoTag()
        else:
            raise OSError("stuck")
        self._clear(BIT_FRAMING, 0x80)
        err = self._read(ERROR)
        if err & 0x13:                    # BufferOvfl, ParityErr, ProtocolErr
            raise NoTag()
        if err & 0x08:                    # CollErr: two cards on one pad
            raise NoTag()
        n = self._read(FIFO_LEVEL) & 0x7F
        return bytes(self._read(FIFO_DATA) for _ in range(n))
