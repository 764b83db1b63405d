"""The webhook address guard (service.play.webhook_addresses, check_url): every IPv6 form that embeds
an IPv4 is judged by what it embeds, whatever this Python's own tables say (3.11 calls the 6to4
2002:7f00:1::1 global); every address a name resolves to is judged; a name no DNS could hold is
refused before any resolver is asked."""

from __future__ import annotations

import sys
from ipaddress import IPv4Address, IPv6Address, IPv6Network

import pytest

from service.play import webhooks as hooks
from service.play.webhook_addresses import embedded_ipv4, refusal

PUBLIC = "93.184.215.14"
# What may hide inside an IPv6 address, and the word the refusal gives for it.
EMBEDDED = {
    "127.0.0.1": "loopback",
    "10.0.0.1": "private",
    "192.168.1.20": "private",
    "169.254.169.254": "link-local",  # the cloud metadata service
}


def _said(why: object) -> str | None:
    """The refusal's English (a message, rendered in the reader's language when it is answered)."""
    return None if why is None else str(why)


def _v4(address: str) -> int:
    return int(IPv4Address(address))


# Each form, built from the IPv4 it carries as its RFC puts it (not as the guard reads it).
FORMS = {
    "ipv4-mapped": lambda v4: IPv6Address((0xFFFF << 32) | _v4(v4)),
    "nat64": lambda v4: IPv6Address((0x64FF9B << 96) | _v4(v4)),
    "6to4": lambda v4: IPv6Address((0x2002 << 112) | (_v4(v4) << 80) | 1),
    # Teredo: server in bits 32-63, client in the last 32 bits XOR 0xffffffff (here the
    # forbidden one is the client; the server is public).
    "teredo-client": lambda v4: IPv6Address(
        (0x20010000 << 96) | (_v4(PUBLIC) << 64) | (0x8000 << 48) | (_v4(v4) ^ 0xFFFFFFFF)
    ),
    "teredo-server": lambda v4: IPv6Address(
        (0x20010000 << 96) | (_v4(v4) << 64) | (_v4(PUBLIC) ^ 0xFFFFFFFF)
    ),
    "ipv4-compatible": lambda v4: IPv6Address(_v4(v4)),
}
# A public IPv4 inside: allowed where the form is the same destination reached another way,
# refused where the form is a deprecated relay or tunnel (webhook_addresses' docstring says why).
PUBLIC_INSIDE_ALLOWED = {
    "ipv4-mapped": True,
    "nat64": True,
    "6to4": False,
    "teredo-client": False,
    "teredo-server": False,
    "ipv4-compatible": False,
}


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("inner", EMBEDDED)
def test_a_form_embedding_a_forbidden_ipv4_is_refused_naming_it(form, inner):
    address = str(FORMS[form](inner))
    assert embedded_ipv4(IPv6Address(address))[-1 if form == "teredo-client" else 0] == IPv4Address(inner)
    why = _said(refusal(address))
    assert why == f"which embeds {inner}, not a public address ({EMBEDDED[inner]})", (address, why)


@pytest.mark.parametrize("form", FORMS)
def test_a_public_ipv4_inside_is_allowed_only_by_forms_that_reach_it_directly(form):
    address = str(FORMS[form](PUBLIC))
    assert PUBLIC in {str(v4) for v4 in embedded_ipv4(IPv6Address(address))}
    why = _said(refusal(address))
    if PUBLIC_INSIDE_ALLOWED[form]:
        assert why is None, (address, why)
    else:
        assert why is not None and "refused whatever it embeds" in why, (address, why)


@pytest.mark.parametrize(
    ("address", "inner"),
    [
        ("2002:7f00:1::1", "127.0.0.1"),
        ("2002:a9fe:a9fe::1", "169.254.169.254"),
        ("2002:a00:1::1", "10.0.0.1"),
    ],
)
def test_the_6to4_doors_of_issue_53_are_shut(address, inner):
    if sys.version_info[:2] == (3, 11):
        assert IPv6Address(address).is_global, "3.11's own table let it pass"
    assert _said(refusal(address)) == f"which embeds {inner}, not a public address ({EMBEDDED[inner]})"
    with pytest.raises(hooks.WebhookRefused, match=f"resolves to {address}, which embeds {inner}"):
        hooks.check_url("https://hooks.example/h", resolver=lambda host, port: [address])


def test_teredo_is_read_as_its_rfc_says():
    # RFC 4380's example: server 65.54.227.120, client 192.0.2.45 (obfuscated 3fff:fdd2).
    teredo = IPv6Address("2001:0:4136:e378:8000:63bf:3fff:fdd2")
    assert embedded_ipv4(teredo) == [IPv4Address("65.54.227.120"), IPv4Address("192.0.2.45")]
    assert list(teredo.teredo) == embedded_ipv4(teredo)  # Python's reading agrees


@pytest.mark.parametrize("inner", [*EMBEDDED, PUBLIC])
@pytest.mark.parametrize("at", [0, 16, 24, 40, 48])  # wherever a prefix of /48 to /96 puts it
def test_the_local_use_nat64_prefix_is_refused_whole(inner, at):
    address = str(IPv6Address((0x0064FF9B0001 << 80) | (_v4(inner) << at)))
    assert IPv6Address(address) in IPv6Network("64:ff9b:1::/48")
    assert _said(refusal(address)) == (
        "a local-use NAT64 address (64:ff9b:1::/48, RFC 8215), refused whatever it embeds"
    )


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "loopback"),
        ("0.0.0.0", "unspecified"),
        ("100.64.0.1", "not global"),  # carrier-grade NAT
        ("224.0.0.1", "multicast"),
        ("::1", "loopback"),
        ("::", "unspecified"),
        ("fe80::1%eth0", "link-local"),
        ("fec0::1", "site-local"),  # 3.11 calls it global
        ("fd00::1", "private"),
        ("ff02::1", "multicast"),
        ("2001:db8::1", "private"),
    ],
)
def test_native_addresses_that_are_not_public_are_refused(address, kind):
    assert _said(refusal(address)) == f"not a public address ({kind})"


@pytest.mark.parametrize("address", [PUBLIC, "2606:4700:4700::1111", "2a00:1450:4001:81c::200e"])
def test_public_addresses_are_allowed(address):
    assert refusal(address) is None


# ---- the resolution path ------------------------------------------------------------------------
@pytest.mark.parametrize("other", ["10.0.0.1", "2002:a9fe:a9fe::1", "::ffff:127.0.0.1", "fe80::1"])
def test_every_address_a_name_resolves_to_is_judged(other):
    """One public and one private answer: refused, since the connection could go to either."""
    for answer in ([PUBLIC, other], [other, PUBLIC]):
        with pytest.raises(hooks.WebhookRefused, match=f"resolves to {other.split('%')[0]}"):
            hooks.check_url("https://hooks.example/h", resolver=lambda host, port, answer=answer: answer)


def test_the_target_is_an_address_that_was_checked():
    answer = [PUBLIC, "64:ff9b::5db8:d70e"]  # DNS64: the same receiver, both public
    target = hooks.check_url("https://hooks.example/h", resolver=lambda host, port: answer)
    assert target.address in answer and target.host == "hooks.example"


def test_the_real_resolver_answers_every_address_of_a_name():
    addresses = hooks.resolve("localhost", 443)
    assert "127.0.0.1" in addresses
    with pytest.raises(hooks.WebhookRefused, match="not a public address"):
        hooks.check_url("https://localhost/h")


@pytest.mark.parametrize(
    "host",
    [
        "a" * 64 + ".example.com",  # a label over 63 characters
        "a..example.com",  # an empty label
        ".example.com",
        ".".join(["a" * 50] * 6),  # over 253 characters in all
        "exa mple.com",
        "a\x00b.example.com",
        "-a.example.com",
        "%61.example.com",
    ],
)
def test_a_name_no_dns_could_hold_is_refused_before_any_resolver(host):
    asked = []
    with pytest.raises(hooks.WebhookRefused, match="is not a DNS name"):
        hooks.check_url(f"https://{host}/h", resolver=lambda name, port: asked.append(name) or [PUBLIC])
    assert asked == [], "the resolver was asked"


@pytest.mark.parametrize(
    ("host", "asked"),
    [
        ("hooks.example", "hooks.example"),
        ("hooks.example.", "hooks.example."),
        ("b\u00fccher.example", "xn--bcher-kva.example"),  # IDNA: the resolver gets the ASCII name
        ("a_b.example", "a_b.example"),
        ("a" * 63 + ".example", "a" * 63 + ".example"),
        ("93.184.215.14", "93.184.215.14"),
        ("[2606:4700:4700::1111]", "2606:4700:4700::1111"),
    ],
)
def test_a_dns_name_or_an_address_is_resolved_as_asked(host, asked):
    names = []
    target = hooks.check_url(f"https://{host}/h", resolver=lambda name, port: names.append(name) or [PUBLIC])
    assert names == [asked] and target.host == asked
