"""Which addresses a webhook may be delivered to: public ones, an IPv6 judged by the IPv4 it embeds.

Python's ``is_private``/``is_global`` tables differ between versions (3.11 calls the 6to4
``2002:7f00:1::1`` global, though any 6to4 gateway takes it to 127.0.0.1) and know nothing of
what an IPv6 address carries. So the forms that embed an IPv4 are judged here, by that IPv4,
the same on every version; an embedded IPv4 that is not public is named in the refusal
("which embeds 127.0.0.1, not a public address (loopback)"), whatever the form. Then:

- IPv4-mapped ``::ffff:0:0/96`` (the last 32 bits) and NAT64 ``64:ff9b::/96`` (the last 32
  bits, RFC 6052): a public IPv4 inside is allowed. The first *is* that IPv4; the second is how
  an IPv6-only network with DNS64 reaches every IPv4-only receiver.
- 6to4 ``2002::/16`` (bits 16-47): refused whatever it embeds. RFC 7526 deprecated 6to4's
  anycast relays; a receiver with a public IPv4 is reached on that IPv4, and a 6to4 gateway
  near the worker would deliver to whatever is inside.
- Teredo ``2001::/32`` (the server: bits 32-63; the client: the last 32 bits XOR 0xffffffff):
  refused whatever it embeds, as every Python's tables do (2001::/23): a host behind a NAT,
  reached through a relay, is no webhook receiver.
- IPv4-compatible ``::/96`` (the last 32 bits; ``::`` and ``::1`` are themselves): refused
  whatever it embeds, deprecated by RFC 4291 and routed nowhere.
- NAT64 local-use ``64:ff9b:1::/48``: refused whole, its IPv4 not read. RFC 8215 reserves it
  for one network's own translators (never global), and where the IPv4 sits depends on the
  prefix length (/48 to /96) that network chose, which the address does not tell.

Besides: loopback, private, link-local (the metadata service's 169.254.169.254 among them),
site-local ``fec0::/10`` (deprecated, yet routed inside some networks: 3.11 calls it global),
multicast, reserved, unspecified and anything else not global.
"""

from __future__ import annotations

from ipaddress import IPv4Address, IPv6Address, IPv6Network, ip_address

from engines.core import Message, say

_LOW32 = 0xFFFFFFFF
IPV4_MAPPED = IPv6Network("::ffff:0:0/96")
NAT64 = IPv6Network("64:ff9b::/96")
SIXTOFOUR = IPv6Network("2002::/16")
TEREDO = IPv6Network("2001::/32")
IPV4_COMPATIBLE = IPv6Network("::/96")
NAT64_LOCAL = IPv6Network("64:ff9b:1::/48")
# Judged by the IPv4 inside alone: the same destination, reached another way.
TRANSLATED = (IPV4_MAPPED, NAT64)
# Refused whatever they embed (the docstring says why).
# Each named by the message service.address_form.<name>.
REFUSED_FORMS = (
    (SIXTOFOUR, "6to4"),
    (TEREDO, "teredo"),
    (IPV4_COMPATIBLE, "ipv4_compatible"),
    (NAT64_LOCAL, "nat64_local"),
)


def embedded_ipv4(ip: IPv6Address) -> list[IPv4Address]:
    """The IPv4 addresses an IPv6 address carries, by its form (none for a native one)."""
    if ip in IPV4_MAPPED or ip in NAT64 or (ip in IPV4_COMPATIBLE and int(ip) > 1):
        return [IPv4Address(int(ip) & _LOW32)]
    if ip in SIXTOFOUR:
        return [IPv4Address((int(ip) >> 80) & _LOW32)]
    if ip in TEREDO:
        return [IPv4Address((int(ip) >> 64) & _LOW32), IPv4Address((int(ip) & _LOW32) ^ _LOW32)]
    return []


def _not_public(ip: IPv4Address | IPv6Address) -> str | None:
    """What keeps an address, taken as it is, from being public; None if nothing does."""
    for kind, flag in (
        ("unspecified", ip.is_unspecified),
        ("loopback", ip.is_loopback),
        ("link-local", ip.is_link_local),
        ("multicast", ip.is_multicast),
        ("private", ip.is_private),
        ("site-local", isinstance(ip, IPv6Address) and ip.is_site_local),
        ("reserved", ip.is_reserved),
        ("not global", not ip.is_global),
    ):
        if flag:
            return kind
    return None


def refusal(address: str) -> Message | None:
    """Why a webhook may not go to ``address`` (a phrase for the refusal), or None if it may."""
    ip = ip_address(address.split("%", 1)[0])  # a zone (fe80::1%eth0) says nothing of the address
    if isinstance(ip, IPv4Address):
        return _not_public_said(_not_public(ip))
    if ip.is_loopback or ip.is_unspecified:  # ::1 and ::, of ::/96 but not IPv4-compatible
        return _not_public_said(_not_public(ip))
    for inner in embedded_ipv4(ip):
        kind = _not_public(inner)
        if kind is not None:
            return say("service.address.embeds", inner=str(inner), kind=_kind(kind))
    for network, form in REFUSED_FORMS:
        if ip in network:
            return say("service.address.refused_form", form=say(f"service.address_form.{form}"))
    if any(ip in network for network in TRANSLATED):
        return None  # its IPv4 is public (above); the IPv6 tables would say "reserved"
    return _not_public_said(_not_public(ip))


def _kind(kind: str) -> Message:
    return say(f"service.address_kind.{kind.replace('-', '_').replace(' ', '_')}")


def _not_public_said(kind: str | None) -> Message | None:
    return None if kind is None else say("service.address.not_public", kind=_kind(kind))
