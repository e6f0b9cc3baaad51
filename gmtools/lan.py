"""The laptop's address on the table's local network (standard library and ifaddr only: no Django),
read by ``python -m gmtools.serve --lan`` before Django starts."""

from __future__ import annotations

import ipaddress

import ifaddr

# Interfaces of containers and VPNs, never the Wi-Fi that phones are on.
_VIRTUAL = ("docker", "br-", "veth", "virbr", "tun", "tap", "wg", "zt", "lo")


def lan_address(adapters: list[ifaddr.Adapter] | None = None) -> str | None:
    """The IPv4 address phones on the same network can reach this machine at, or None.

    Private addresses (192.168/16, then 10/8, then 172.16/12) of real interfaces come first; no
    packet is sent to find it (the interfaces are read, not probed).
    """
    candidates: list[tuple[int, str]] = []
    for adapter in adapters if adapters is not None else ifaddr.get_adapters():
        name = (adapter.nice_name or adapter.name or "").lower()
        if name.startswith(_VIRTUAL):
            continue
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue  # IPv6 comes as a tuple; phones on a home network use IPv4
            address = ipaddress.IPv4Address(ip.ip)
            if address.is_loopback or address.is_link_local or address.is_unspecified or address.is_multicast:
                continue
            rank = next((i for i, net in enumerate(("192.168.0.0/16", "10.0.0.0/8", "172.16.0.0/12"))
                         if address in ipaddress.IPv4Network(net)), 3)
            candidates.append((rank, ip.ip))
    return min(candidates)[1] if candidates else None
