"""``arena-table pin``: a one-time login code for the control page, for the owner at the Pi.

Wrong PINs slow down the address that sends them (``docs/security.md``); the owner, with a shell on
the Pi, can always get in: ``arena-table pin`` prints a code that logs in once, within ten minutes,
in place of the PIN, even from an address that has to wait. It finds the data folder as ``doctor``
does (``--config``, else ``/etc/arena-table/config.toml`` where installed; ``--db``, ``--data-dir``).
"""

from __future__ import annotations

import argparse
import sys

from .common import DEFAULT_DB


def cmd_pin(args: argparse.Namespace) -> int:
    """Make and print a code; 1 when the folder holds no table (no ``pin.txt``) or cannot be written."""
    from arena_table.table.login_codes import CODE_TTL_S, new_code
    from arena_table.table.secrets_store import PIN_FILE

    from .doctor import setup_from

    setup = setup_from(args)
    folder = setup.data_dir.resolve()
    if not (folder / PIN_FILE).is_file():
        print(f"error: {folder} holds no table's PIN ({PIN_FILE}): give pin the --config, --db or --data-dir "
              f"that run is given (the data folder is {setup.data_dir_from})", file=sys.stderr)
        return 1
    try:
        code = new_code(folder)
    except OSError as exc:  # SecretFileError too
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"arena-table pin: one-time login code {code}")
    print(f"  type it in the control page's PIN field: it logs in once, within {CODE_TTL_S / 60:.0f} minutes, "
          f"even where wrong PINs made the page wait; a new code replaces it (data folder {folder})")
    return 0


def register(sub) -> None:
    p = sub.add_parser("pin", help="print a one-time login code for the control page (the owner's way in)")
    p.add_argument("--config", help="the configuration file (default: /etc/arena-table/config.toml where it exists)")
    p.add_argument("--db", default=str(DEFAULT_DB),
                   help=f"the event log (default: the config file's data.db, else {DEFAULT_DB})")
    p.add_argument("--data-dir", help="the table's data folder, as given to run (default: the folder of --db)")
    p.set_defaults(func=cmd_pin)
