"""The pairing link: made from a pairing, read back from a page's fragment, refused when bad."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain import InvalidInput
from app.sync.pairing import Pairing, new_code
from app.sync.pairing_link import MAX_FRAGMENT, NOT_A_LINK, pairing_link, read_pairing_link

CODE = "abcdefghijklmnopqrstuvwxyz"[:20] + "234567"
PAIRED = Pairing.made("wss://sync.example.org:8443", CODE)


def _fragment(link: str) -> str:
    return "#" + link.split("#", 1)[1]


def test_the_link_is_the_page_with_the_server_and_code_in_its_fragment() -> None:
    link = pairing_link("https://host.example/lexical/", PAIRED)
    assert link == (
        "https://host.example/lexical/#pair=wss%3A%2F%2Fsync.example.org%3A8443&code=" + CODE
    )
    assert read_pairing_link(_fragment(link)) == PAIRED


def test_the_page_s_own_fragment_is_dropped_from_the_link() -> None:
    link = pairing_link("https://host.example/app/index.html#/folder/3", PAIRED)
    assert link.startswith("https://host.example/app/index.html#pair=")
    assert link.count("#") == 1


@given(st.sampled_from(["wss://a.example", "ws://127.0.0.1:8765", "wss://x-y.example:1"]))
def test_every_pairing_reads_back_from_its_link(server: str) -> None:
    pairing = Pairing.made(server, new_code())
    assert read_pairing_link(_fragment(pairing_link("http://localhost:8000/", pairing))) == pairing


@pytest.mark.parametrize("fragment", ["", "#", "#/", "#/folder/12/word/3", "#/stats", "#code=x"])
def test_other_fragments_are_not_pairing_links(fragment: str) -> None:
    assert read_pairing_link(fragment) is None


def test_a_code_typed_in_capitals_or_with_spaces_is_read_as_the_dialog_reads_it() -> None:
    fragment = f"#pair=wss%3A%2F%2Fsync.example.org%3A8443&code=%20{CODE.upper()}%20"
    assert read_pairing_link(fragment) == PAIRED


@pytest.mark.parametrize(
    "fragment",
    [
        "#pair=",
        "#pair=wss%3A%2F%2Fa.example",  # no code
        f"#pair=wss%3A%2F%2Fa.example&code={CODE}&code={CODE}",  # a second code
        f"#pair=wss%3A%2F%2Fa.example&code={CODE}&x=1",
        f"#pair=wss%3A%2F%2Fa.example&&code={CODE}",
        f"#pair=wss%3A%2F%2Fa.example&nocode{CODE}",
        f"#pair=wss%3A%2F%2Fa.example&pair=wss%3A%2F%2Fb.example&code={CODE}",
        f"#pair=%FF%FE&code={CODE}",  # not UTF-8
    ],
)
def test_a_damaged_link_says_so(fragment: str) -> None:
    with pytest.raises(InvalidInput, match="damaged"):
        read_pairing_link(fragment)


@pytest.mark.parametrize(
    ("fragment", "reason"),
    [
        (f"#pair=http%3A%2F%2Fa.example&code={CODE}", "starts with wss://"),
        (f"#pair=javascript%3Aalert(1)&code={CODE}", "starts with wss://"),
        (f"#pair=ws%3A%2F%2Fevil.example&code={CODE}", "ws:// is not encrypted"),
        (f"#pair=wss%3A%2F%2Fa.example%2Fpath&code={CODE}", "no path"),
        (f"#pair=wss%3A%2F%2Fa.example%3A99999&code={CODE}", "not a valid address"),
        ("#pair=wss%3A%2F%2Fa.example&code=short", "26 letters"),
        (f"#pair=wss%3A%2F%2Fa.example&code={CODE[:-1]}1", "26 letters"),  # 1 is not base32
    ],
)
def test_a_link_to_a_server_or_code_the_dialog_refuses_is_refused_with_its_reason(
    fragment: str, reason: str
) -> None:
    with pytest.raises(InvalidInput, match="cannot be used") as raised:
        read_pairing_link(fragment)
    assert reason in str(raised.value)


@pytest.mark.parametrize(
    "fragment",
    [
        # Look-alikes: a Cyrillic "а" in the host, full-width letters in the code.
        f"#pair=wss%3A%2F%2F%D0%B0.example&code={CODE}",
        "#pair=wss%3A%2F%2Fa.example&code=" + "ａ" * 26,
        "#pair=wss%3A%2F%2Fa.example&code=" + "é" * 26,
        f"#pair=wss%3A%2F%2Fa.example%00.evil&code={CODE}",
    ],
)
def test_unicode_in_the_server_or_code_is_refused(fragment: str) -> None:
    with pytest.raises(InvalidInput, match="cannot be used"):
        read_pairing_link(fragment)


def test_a_huge_fragment_is_refused_before_it_is_parsed() -> None:
    huge = "#pair=" + "a=b&" * 1_000_000
    with pytest.raises(InvalidInput, match="damaged"):
        read_pairing_link(huge)
    assert len(f"#pair=wss%3A%2F%2Fa.example&code={CODE}") < MAX_FRAGMENT


@given(st.text(max_size=200))
def test_any_fragment_gives_a_pairing_none_or_a_sentence(tail: str) -> None:
    outcome: object
    try:
        outcome = read_pairing_link("#pair=" + tail)
    except InvalidInput as error:
        outcome = str(error)
    assert (
        isinstance(outcome, Pairing)
        or outcome == NOT_A_LINK
        or str(outcome).startswith("This pairing link cannot")
    )
