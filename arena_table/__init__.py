"""arena-table: a Raspberry Pi that keeps a board game's bookkeeping."""
