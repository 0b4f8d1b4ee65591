"""Who a connection comes from, for the per-client limits of the SMTP listener and of ``judge web``.

A *client* is an IPv4 address, or an IPv6 /64 network: one subscriber is usually given a whole
/64, so counting IPv6 addresses one by one would give one machine billions of places.  An IPv4
address seen through an IPv6 socket (``::ffff:192.0.2.1``) is that IPv4 address.

The *trusted* clients (the ``trusted-clients`` setting) are the judge's own front ends: the MTA
that hands it mail, a web server proxying to ``judge web``.  All their traffic comes from one
address, so they are exempt from the per-client limits, and the SMTP listener keeps places for
them that a flood from elsewhere cannot take.
"""

from __future__ import annotations

from collections.abc import Iterable
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address, ip_network

Network = IPv4Network | IPv6Network


def networks(entries: Iterable[str]) -> tuple[Network, ...]:
    """``entries`` (addresses, or networks such as ``10.0.0.0/8``) as networks.

    Raises ValueError naming an entry that is neither."""
    return tuple(ip_network(entry.strip(), strict=False) for entry in entries)


def address(host: str) -> IPv4Address | IPv6Address:
    """The address of a peer's ``host`` (as a socket gives it), IPv4-mapped IPv6 as IPv4."""
    ip = ip_address(host)
    if isinstance(ip, IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def client(host: str) -> Network:
    """The client that ``host`` belongs to: its IPv4 address, or its IPv6 /64."""
    ip = address(host)
    return ip_network(f"{ip}/{32 if ip.version == 4 else 64}", strict=False)


def is_trusted(host: str, trusted: Iterable[Network]) -> bool:
    """Whether ``host`` is in one of the ``trusted`` networks."""
    ip = address(host)
    return any(ip in network for network in trusted)
