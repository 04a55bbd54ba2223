"""Pico firmware entry point: owns the hardware, hands it to scanner.Scanner.

Edit PADS / PN532_UART below to match the wiring in firmware/README.md.
"""

import os
import select
import sys
import time

from machine import SPI, UART, Pin

from mfrc522 import MFRC522
from pn532 import PN532
from scanner import Scanner

PADS = (17, 20, 21, 22)
"""Chip-select GPIO of each MFRC522 pad, pad 0 first; () when only a PN532 is fitted."""
PN532_UART = None
"""``(uart_id, tx_gpio, rx_gpio)`` of a PN532 in HSU mode, e.g. ``(0, 0, 1)``; it becomes the last pad."""
POLL_MS = 20


def build_readers():
    readers = []
    if PADS:
        spi = SPI(0, baudrate=4_000_000, polarity=0, phase=0, sck=Pin(18), mosi=Pin(19), miso=Pin(16))
        for gp in PADS:
            readers.append(MFRC522(spi, Pin(gp, Pin.OUT, value=1), where="cs:GP%d" % gp, sleep_ms=time.sleep_ms))
    if PN532_UART:
        uid, tx, rx = PN532_UART
        uart = UART(uid, baudrate=115200, tx=Pin(tx), rx=Pin(rx), timeout=0)
        readers.append(PN532(uart, where="uart%d" % uid, sleep_ms=time.sleep_ms))
    return readers


def run():
    readers = build_readers()
    backend = "mfrc522" if PADS else "pn532"
    scanner = Scanner(readers, sys.stdout.write, time.ticks_ms, backend=backend,
                      boot_id="%04X" % int.from_bytes(os.urandom(2), "big"))
    scanner.boot()
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    while True:
        start = time.ticks_ms()
        scanner.step()
        while poll.poll(0):
            scanner.receive(sys.stdin.buffer.read(1))
        spare = POLL_MS - time.ticks_diff(time.ticks_ms(), start)
        if spare > 0:
            time.sleep_ms(spare)


run()
