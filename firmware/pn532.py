"""PN532 over its high-speed UART (HSU): frames, wake-up, SAM configuration, polling.

No ``machine`` import: ``main.py`` hands in a ``machine.UART`` (115200 8N1).
Frame layout, ACK and commands from the NXP PN532 User Manual UM0701-02:
section 6.2.1.1 (normal information frame), 6.2.1.3 (ACK), 6.3.2.3 (HSU wake-up:
the chip sleeps until it sees 0x55 followed by enough idle bytes), 7.2.10
SAMConfiguration (must be sent once after power-up or the PN532 answers no
InListPassiveTarget), 7.3.1 RFConfiguration (CfgItem 0x05 MaxRetries),
7.3.5 InListPassiveTarget.
"""

PREAMBLE = b"\x00\x00\xff"
ACK = b"\x00\x00\xff\x00\xff\x00"
WAKEUP = b"\x55\x55\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
HOST_TO_PN532, PN532_TO_HOST = 0xD4, 0xD5
GET_FIRMWARE_VERSION, SAM_CONFIGURATION, IN_LIST_PASSIVE_TARGET = 0x02, 0x14, 0x4A
RF_CONFIGURATION, CFG_MAX_RETRIES = 0x32, 0x05
MAX_RETRIES = b"\xff\x01\x01"
"""RFConfiguration CfgItem 0x05 data: MxRtyATR, MxRtyPSL, MxRtyPassiveActivation.

Source: NXP PN532 User Manual UM0701-02 Rev. 02, 7.3.1 RFConfiguration (p. 101-102); its wording
on the three bytes is quoted in dotnet/iot src/devices/Pn532/RfConfiguration/MaxRetriesMode.cs.

MxRtyATR 0xFF and MxRtyPSL 0x01 are the manual's defaults (ATR and PSL/PPS play no part in a
106 kbps type A UID read; in passive mode the chip overrules MxRtyATR with 0x02 anyway).
MxRtyPassiveActivation is the number of *retries* InListPassiveTarget makes to activate a
target; 0x00 = one try, 0xFF = "try eternally", and 0xFF is the power-up default. With 0xFF an
empty field gets the ACK and then no answer at all, so every empty poll would time out as a
reader failure. 0x01 (two tries) makes the chip give up and answer NbTg=0 ("no card"); the pad's
debounce (3 empty polls) absorbs a tag missed on both tries. Keep it small: the driver waits at most
``timeout_ms`` (100 ms) per command and the scanner polls every pad every 20 ms. (The time a try
takes was not measured here on hardware.)
"""


def frame(command, data=b""):
    """Normal information frame carrying ``command`` and ``data`` (UM0701 6.2.1.1).

    >>> frame(0x02) == bytes([0, 0, 0xFF, 2, 0xFE, 0xD4, 2, 0x2A, 0])
    True
    """
    body = bytes((HOST_TO_PN532, command)) + bytes(data)
    length = len(body)
    dcs = (-sum(body)) & 0xFF
    return PREAMBLE + bytes((length, (-length) & 0xFF)) + body + bytes((dcs, 0x00))


def parse_frame(buf, command):
    """Data of the PN532's answer to ``command`` found in ``buf``.

    Raises ValueError on a bad length/data checksum, a wrong TFI or response code,
    or an error frame.
    """
    start = buf.find(PREAMBLE)
    if start < 0 or len(buf) < start + 5:
        raise ValueError("no frame")
    length, lcs = buf[start + 3], buf[start + 4]
    if (length + lcs) & 0xFF:
        raise ValueError("length checksum")
    body = buf[start + 5:start + 5 + length]
    if len(body) != length or len(buf) < start + 6 + length:
        raise ValueError("short frame")
    if (sum(body) + buf[start + 5 + length]) & 0xFF:
        raise ValueError("data checksum")
    if length == 1 and body[0] == 0x7F:
        raise ValueError("error frame")
    if body[0] != PN532_TO_HOST or body[1] != command + 1:
        raise ValueError("unexpected response")
    return bytes(body[2:])


def target_uid(data):
    """UID from InListPassiveTarget data (UM0701 7.3.5, 106 kbps type A), or None for no target."""
    if not data or data[0] == 0:
        return None
    # NbTg, Tg, SENS_RES(2), SEL_RES, NFCIDLength, NFCID1...
    n = data[5]
    return bytes(data[6:6 + n])


class PN532:
    """One PN532 on ``uart``; ``sleep_ms`` is ``time.sleep_ms`` (handed in, no time import needed)."""

    name = "pn532"

    def __init__(self, uart, where="uart", sleep_ms=None, timeout_ms=100):
        self.uart = uart
        self.where = where
        self._sleep_ms = sleep_ms or (lambda ms: None)
        self.timeout_ms = timeout_ms

    def _call(self, command, data=b"", wake=False):
        while self.uart.any():
            self.uart.read()
        self.uart.write((WAKEUP if wake else b"") + frame(command, data))
        buf = b""
        for _ in range(self.timeout_ms // 5):
            self._sleep_ms(5)
            chunk = self.uart.read()
            if chunk:
                buf += chunk
            if buf.startswith(ACK) and len(buf) > len(ACK) + 6:
                try:
                    return parse_frame(buf[len(ACK):], command)
                except ValueError as exc:
                    if str(exc) != "short frame":
                        raise OSError(str(exc))
        raise OSError("no-answer")

    def init(self):
        """Wake the chip, read its firmware version, configure the SAM (normal mode) and the
        passive activation retries (MAX_RETRIES), so that an empty field is answered."""
        ver = self._call(GET_FIRMWARE_VERSION, wake=True)
        if len(ver) < 4 or ver[0] != 0x32:
            raise OSError("not-pn532")
        # SAMConfiguration: normal mode, timeout 20 x 50 ms, P70_IRQ used
        self._call(SAM_CONFIGURATION, b"\x01\x14\x01")
        self._call(RF_CONFIGURATION, bytes((CFG_MAX_RETRIES,)) + MAX_RETRIES)
        return "pn532-v%d.%d" % (ver[1], ver[2])

    def poll(self):
        """UID bytes of one type A target in the field, or None for an empty field (NbTg=0).

        Raises OSError only when the chip does not answer; needs ``init()`` first (MAX_RETRIES).
        """
        data = self._call(IN_LIST_PASSIVE_TARGET, b"\x01\x00")
        return target_uid(data)
