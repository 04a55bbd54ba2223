"""The convention hub: tables publish to an MQTT broker (Mosquitto), the hub follows them all.

``topics`` names the broker's topics and reads ``mqtt://`` addresses (shared with the table's
publisher, ``arena_table.table.publish``); ``feed`` is the subscriber that keeps each table's last
view, presence and event sequence. The hub imports ``rules`` and ``webui``, never ``table``.
"""
