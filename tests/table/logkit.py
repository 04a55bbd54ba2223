"""Opening an event log from another process, as a second table or ``log export`` would: a second
open inside the test's own process is refused for its own reason (see ``log._refuse_a_second_writer_here``)."""

from __future__ import annotations

import subprocess
import sys


def open_elsewhere(path, readonly: bool = False) -> str:
    """Open the event log ``path`` in another process, as a second table or ``log export`` would:
    ``"opened"``, or the :class:`LogError` it met."""
    code = ("import sys\nfrom arena_table.table.log import EventLog, LogError\n"
            "try:\n    EventLog(sys.argv[1], readonly=sys.argv[2] == '1').close()\n    print('opened')\n"
            "except LogError as exc:\n    print(exc)\n")
    done = subprocess.run([sys.executable, "-c", code, str(path), "1" if readonly else "0"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()
