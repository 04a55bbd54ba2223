"""Every benchmark of the project: scripts that print figures, never timed unit tests.

``arena-table bench dice|tokens|web`` run :mod:`.dice`, :mod:`.tokens` and :mod:`.web` (their flags
are in :mod:`arena_table.cli.bench`); the others run as ``python -m arena_table.bench.NAME``
(``dice_stages``, ``dice_sizes``, ``dice_camera_faults``, ``dice_wide_view``, ``idle_cpu``,
``service_memory``, ``demigods_view``, ``theosis_view``, ``euthia_view``, ``counters``). Speed figures
are given beside :func:`.dice.reference_ms`, the machine's yardstick.
"""
