"""``python -m arena_table.cli``: the ``arena-table`` command."""

import sys

from arena_table.cli import main

sys.exit(main())
