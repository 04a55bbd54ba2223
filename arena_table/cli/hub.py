"""``arena-table hub``: the convention hub (``hub init`` writes the broker's files)."""

from __future__ import annotations

import argparse
import sqlite3
import subprocess
import sys
from pathlib import Path

from .common import at_least
from .run import port_number


def _port_or_none(text: str) -> int:
    """argparse type: a TCP port 1..65535, or 0 for none."""
    return 0 if text.strip() == "0" else port_number(text)


def cmd_init(args: argparse.Namespace) -> int:
    from arena_table.hub.broker_setup import table_ids, write_hub_files

    try:
        ids = table_ids(args.tables, [n.strip() for n in args.names.split(",")] if args.names else None)
        if args.ws_port == args.port:
            raise ValueError(f"--ws-port {args.ws_port} is the MQTT port too; give another (0: no websockets)")
        creds = write_hub_files(Path(args.dir), ids, port=args.port, bind=args.bind, ws_port=args.ws_port or None)
    except (ValueError, FileNotFoundError, FileExistsError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except subprocess.CalledProcessError as exc:
        print(f"error: mosquitto_passwd failed: {exc.stderr.decode(errors='replace').strip()}", file=sys.stderr)
        return 1
    folder = Path(args.dir).absolute()
    host = args.bind or "HUB-ADDRESS"
    print(f"hub init: {folder / 'mosquitto.conf'}, passwd and acl for {len(ids)} tables; start the broker with")
    print(f"  mosquitto -c {folder / 'mosquitto.conf'}")
    if args.ws_port:
        print(f"Spectator pages may subscribe over MQTT over WebSockets: ws://{host}:{args.ws_port}/ (read only)")
    print("Each table's credentials (shown once; only their hashes are kept):")
    for c in creds:
        if c.table_id is None:
            print(f"  hub      user {c.user}  password {c.password}   "
                  f"arena-table hub --broker mqtt://{c.user}:{c.password}@{host}:{args.port}")
        else:
            print(f"  {c.table_id:<8} user {c.user}  password {c.password}   arena-table run --publish "
                  f"mqtt://{c.user}:{c.password}@{host}:{args.port} --table-id {c.table_id}")
    return 0


def cmd_wall(args: argparse.Namespace) -> int:
    from arena_table.hub.feed import Feed
    from arena_table.hub.topics import parse_broker
    from arena_table.hub.server import HubServer
    from arena_table.hub.wall import create_wall_app

    if not args.broker:
        print("error: hub: give --broker mqtt://[USER:PASSWORD@]HOST[:PORT] for the wall, or `hub init`",
              file=sys.stderr)
        return 2
    try:
        broker = parse_broker(args.broker)
    except ValueError as exc:
        print(f"error: --broker: {exc}", file=sys.stderr)
        return 2
    from arena_table.hub.page_feed import check_ws_url

    try:
        ws_url = check_ws_url(args.ws_url) if args.ws_url else None
    except ValueError as exc:
        print(f"error: --ws-url: {exc}", file=sys.stderr)
        return 2
    from arena_table.hub.results import Results

    try:
        results = Results(args.results)
    except sqlite3.Error as exc:
        print(f"error: --results {args.results}: {exc}", file=sys.stderr)
        return 2
    feed = Feed(broker, keep_events=False).start()  # the wall needs views; the results take events as they come
    app = create_wall_app(feed, results, max_clients=args.max_clients, page_feed=args.page_feed, ws_url=ws_url)
    try:
        server = HubServer(app, args.host, args.port)
    except (OSError, ValueError) as exc:
        from arena_table.webui.app import shutdown

        shutdown(app)
        feed.close()
        results.close()
        print(f"error: cannot listen on {args.host}:{args.port}: {getattr(exc, 'strerror', None) or exc}",
              file=sys.stderr)
        return 1
    print(f"arena-table hub: following {broker}; the wall at http://{args.host}:{server.effective_port}/", flush=True)
    try:
        server.run()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.close()
        feed.close()
        results.close()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from .common import subcommand_group

    hub = subcommand_group(sub, "hub", "the convention hub: a broker's files, the wall of every table")
    hub.required = False  # `hub --broker URL` serves the wall
    parent = sub.choices["hub"]
    parent.add_argument("--broker", metavar="mqtt://HOST[:PORT]", help="the hall's broker (with the hub's user "
                        "and password from `hub init`: mqtt://hub:PASSWORD@HOST)")
    parent.add_argument("--host", default="127.0.0.1", help="address the wall listens on (0.0.0.0: the whole network)")
    parent.add_argument("--port", type=port_number, default=8080, help="the wall's TCP port (default 8080)")
    parent.add_argument("--max-clients", type=at_least(1), default=1000,
                        help="streams served at once, the wall's and the phones' table screens (default 1000)")
    parent.add_argument("--results", default="hub-results.db",
                        help="SQLite file of the finished games, listed at /results (default: ./hub-results.db)")
    from arena_table.hub.page_feed import DEFAULT_FEED, FEEDS

    parent.add_argument("--page-feed", choices=FEEDS, default=DEFAULT_FEED,
                        help="where a table's screen gets its updates: the hub's SSE stream, or the broker over "
                             f"MQTT over WebSockets (default {DEFAULT_FEED}, measured: docs/convention.md)")
    parent.add_argument("--ws-url", metavar="ws://HOST:PORT/", help="the broker's websockets listener for "
                        "--page-feed mqtt (default: the page's own host, port 9001)")
    parent.set_defaults(func=cmd_wall)
    p = hub.add_parser("init", help="write a Mosquitto config, password file and ACL for N tables and print "
                                    "each table's credentials")
    p.add_argument("--tables", type=at_least(1), default=10, help="how many tables (default 10): table-1 ... table-N")
    p.add_argument("--names", help="comma-separated table ids instead of table-1 ... table-N")
    p.add_argument("--dir", default="hub", help="folder for mosquitto.conf, passwd and acl (default: ./hub)")
    p.add_argument("--port", type=port_number, default=1883, help="the broker's TCP port (default 1883)")
    p.add_argument("--ws-port", type=_port_or_none, default=9001, metavar="PORT",
                   help="the broker's MQTT-over-WebSockets port for spectator pages (default 9001; 0: none)")
    p.add_argument("--bind", help="listen on this address only (default: every interface)")
    p.set_defaults(func=cmd_init)
