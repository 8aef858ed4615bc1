"""Serving the family's phones from a laptop on the same wifi (`make lan`):
this machine's private addresses, the settings that let phones reach it by
them, and the address with its QR code printed in the terminal."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable

import segno


def _is_lan(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    return ip.version == 4 and ip.is_private and not ip.is_loopback and not ip.is_link_local


def _route_address() -> str | None:
    """The address the machine would send from (no packet is sent: a UDP
    socket's connect only picks the route)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return None


def private_addresses() -> list[str]:
    """This machine's private IPv4 addresses (192.168.x.x, 10.x.x.x,
    172.16-31.x.x), the one the default route uses first."""
    found: list[str] = []
    candidates: list[str | None] = [_route_address()]
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            candidates.append(str(info[4][0]))
    except OSError:
        pass
    for address in candidates:
        if address and _is_lan(address) and address not in found:
            found.append(address)
    return found


def lan_environment(addresses: Iterable[str], port: int, env: dict[str, str]) -> dict[str, str]:
    """ALLOWED_HOSTS and CSRF_TRUSTED_ORIGINS for the settings (read from the
    environment): whatever they held, plus each address (and its origin)."""
    addresses = list(addresses)
    hosts = [h for h in env.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h]
    origins = [o for o in env.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]
    for address in addresses:
        if address not in hosts:
            hosts.append(address)
        origin = f"http://{address}:{port}"
        if origin not in origins:
            origins.append(origin)
    return {"ALLOWED_HOSTS": ",".join(hosts), "CSRF_TRUSTED_ORIGINS": ",".join(origins)}


def lan_url(address: str, port: int) -> str:
    return f"http://{address}:{port}/"


def terminal_qr(url: str) -> str:
    """The URL as a QR code of text blocks, for a phone's camera off the screen."""
    import io

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()
