"""Where phones reach the table: this machine's LAN address, and the page address the QR code shows.

A server told to listen on every interface (``0.0.0.0``, ``::``) is opened on the Pi itself as
``http://127.0.0.1:8000/``, but a phone scanning the TV's QR code needs the Pi's address on the
LAN. :func:`lan_address` finds it without sending anything; :func:`page_url` puts it in place of
a loopback or unspecified host, unless a public URL is configured (``web.public_url``), which it
always shows as given.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Callable

PROBE_ADDRESS = ("10.254.254.254", 9)
"""Where :func:`lan_address` "connects" a UDP socket to learn the outgoing interface's address: a
private address nobody answers on. Connecting a UDP socket only picks a route; no packet is sent."""


def client_address(remote: str | None) -> str:
    """The client address the per-address limits count against: ``request.remote_addr`` (the
    peer of the TCP connection; see ``docs/security.md`` for proxies), an IPv4 address mapped into
    IPv6 (a dual-stack server on ``::``) given as IPv4, ``""`` when there is none.

    >>> client_address("::ffff:192.0.2.7"), client_address("2001:DB8::1"), client_address(None)
    ('192.0.2.7', '2001:db8::1', '')
    """
    if not remote:
        return ""
    try:
        ip = ipaddress.ip_address(remote.strip())
    except ValueError:
        return remote.strip()
    mapped = getattr(ip, "ipv4_mapped", None)
    return str(mapped or ip)


def is_usable_lan(address: str) -> bool:
    """Whether ``address`` is an IPv4 address another device on the network could open: not
    loopback, unspecified, link-local (169.254/16, made when DHCP failed) or multicast.

    >>> [is_usable_lan(a) for a in ("192.168.1.20", "127.0.1.1", "0.0.0.0", "169.254.3.4", "fe80::1", "x")]
    [True, False, False, False, False, False]
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return (ip.version == 4 and not (ip.is_loopback or ip.is_unspecified or ip.is_link_local
                                     or ip.is_multicast))


def _routed_address() -> str | None:
    """The source address the kernel would use towards :data:`PROBE_ADDRESS` (the default route's
    interface), or ``None`` when there is no such route."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE_ADDRESS)
            return probe.getsockname()[0]
    except OSError:
        return None


def _interface_addresses() -> list[str]:
    """The IPv4 addresses of this machine's interfaces, by interface name (psutil); ``[]`` without psutil."""
    try:
        import psutil
    except ImportError:
        return []
    return [a.address for _, addrs in sorted(psutil.net_if_addrs().items()) for a in addrs
            if a.family == socket.AF_INET]


def _hostname_addresses() -> list[str]:
    """The IPv4 addresses this machine's host name resolves to (``/etc/hosts``, DNS, mDNS)."""
    try:
        return socket.gethostbyname_ex(socket.gethostname())[2]
    except (OSError, UnicodeError):
        return []


def lan_address() -> str | None:
    """This machine's IPv4 address on the LAN, or ``None`` when it has none (no network).

    Tried in order, the first usable one (:func:`is_usable_lan`) wins: the address of the interface
    the default route leaves by (a UDP socket connected to :data:`PROBE_ADDRESS`, nothing sent), an
    interface's address (psutil; a Pi on a network without a default route), the addresses the host
    name resolves to.
    """
    for candidates in (lambda: [_routed_address() or ""], _interface_addresses, _hostname_addresses):
        for address in candidates():
            if is_usable_lan(address):
                return address
    return None


def _is_local_host(host: str) -> bool:
    """``localhost``, a loopback address or an unspecified one (``0.0.0.0``: Linux opens it as this machine)."""
    if host.lower() in ("localhost", ""):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host.lower().endswith(".localhost")
    return ip.is_loopback or ip.is_unspecified


EVERY_INTERFACE = ("", "0.0.0.0", "::")
"""``web.host`` values that listen on every interface, so other devices reach the server."""


def page_url(host_url: str, listen_host: str, public_url: str | None = None,
             find_lan: Callable[[], str | None] = lan_address) -> str:
    """The spectator page's address to show under the QR code.

    Args:
        host_url: the address the request came to (``request.host_url``: ``http://HOST[:PORT]/``).
        listen_host: the address the server listens on (``web.host``).
        public_url: the configured public address (``web.public_url``); when given it is the answer.
        find_lan: returns this machine's LAN address or ``None`` (default: :func:`lan_address`).

    Returns:
        ``public_url``; else, for a request to a loopback or unspecified host (``127.0.0.1``,
        ``localhost``, ``0.0.0.0``: the TV on the Pi itself) of a server that listens on every
        interface, ``http://LAN:PORT/``; else ``host_url``: the address the device already used, or
        that of a server on one address (on a loopback one no other device reaches it anyway).

    >>> lan = lambda: "192.168.1.20"
    >>> page_url("http://127.0.0.1:8000/", "0.0.0.0", find_lan=lan)
    'http://192.168.1.20:8000/'
    >>> page_url("http://0.0.0.0:8000/", "::", find_lan=lan), page_url("http://[::1]/", "", find_lan=lan)
    ('http://192.168.1.20:8000/', 'http://192.168.1.20/')
    >>> page_url("http://10.0.0.3:8000/", "0.0.0.0", find_lan=lan)
    'http://10.0.0.3:8000/'
    >>> page_url("http://127.0.0.1:8000/", "0.0.0.0", "https://arena.example.org/t1/", find_lan=lan)
    'https://arena.example.org/t1/'
    >>> page_url("http://127.0.0.1:8000/", "127.0.0.1", find_lan=lan)
    'http://127.0.0.1:8000/'
    """
    if public_url:
        return public_url
    scheme, _, rest = host_url.partition("://")
    netloc = rest.split("/", 1)[0]
    if netloc.startswith("["):  # [::1]:8000
        host, _, after = netloc[1:].partition("]")
        port = after[1:] if after.startswith(":") else ""
    else:
        host, _, port = netloc.rpartition(":") if ":" in netloc else (netloc, "", "")
    if listen_host not in EVERY_INTERFACE or not _is_local_host(host):
        return host_url
    address = find_lan()
    if not address:
        return host_url
    return f"{scheme}://{address}{':' + port if port else ''}/"
