"""Anki packages made with genanki: decks to folders, notes to words, and every way a package
can be wrong (newer format, not a zip, traversal names, bombs, truncation)."""

from __future__ import annotations

import io
import re
import struct
import zipfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain import InvalidInput
from app.store.transfer import anki, html_text
from app.store.transfer.html_text import html_to_text
from tests.anki_decks import make_apkg, newer_format_package, rename_member, sample_deck
from tests.bounded import finishes
from tests.store.helpers import dump, make_store
from tests.store.transfer.workspaces import assert_refused, parse, preview, sample_store


def _paths(parsed: object) -> dict[int, str]:
    folders = parsed.workspace.folders  # type: ignore[attr-defined]
    names = {f.id: f for f in folders}

    def path(folder_id: int) -> str:
        f = names[folder_id]
        return f.name if f.parent_id is None else f"{path(f.parent_id)}/{f.name}"

    return {f.id: path(f.id) for f in folders}


@pytest.mark.parametrize("member", ["collection.anki2", "collection.anki21"])
def test_decks_become_folders_and_notes_become_words(member: str) -> None:
    data = rename_member(sample_deck(), "collection.anki2", member)
    parsed = parse("biology.apkg", data)
    paths = _paths(parsed)
    words = {w.term: (paths[w.folder_id], w.meanings, w.notes) for w in parsed.workspace.words}
    assert words == {
        "mitosis": (
            "Biology/Cells",
            ["cell division", "into two cells"],
            "Example: e.g. skin\n\nTags: bio",
        ),
        "ribosome": ("Biology/Cells", ["makes proteins & more"], ""),
        "osmosis": ("Biology", ["water moving in"], ""),
        "el perro": ("Spanish", ["the dog"], "Tags: es pets"),
    }
    assert parsed.remarks == ["1 media file ignored."]
    assert parsed.item_label == "Note"
    assert parsed.modes == ("merge",)


def test_importing_a_deck_twice_adds_nothing_the_second_time() -> None:
    store = make_store()
    parsed = parse("deck.apkg", sample_deck())
    store.import_parsed(parsed, "merge")
    assert {f.name for f in store.folders()} == {"Biology", "Cells", "Spanish"}
    before = dump(store)
    again = preview(store, parsed)
    assert not again.changes_anything
    assert again.duplicate_words == 4
    store.import_parsed(parsed, "merge")
    assert dump(store) == before


def test_notes_that_cannot_be_words_are_skipped_with_their_number() -> None:
    data = make_apkg(
        {
            "Deck": [
                (["ok", "fine", ""], []),
                (["", "no front", ""], []),
                (["x" * 300, "too long", ""], []),
                (["many", "<br>".join(f"m{i}" for i in range(60)), ""], []),
            ]
        }
    )
    parsed = parse("d.apkg", data)
    assert [(s.line, s.reason.split(" must")[0]) for s in parsed.skipped] == [
        (2, "Term"),
        (3, "Term"),
    ]
    many = next(w for w in parsed.workspace.words if w.term == "many")
    assert many.meanings == []
    assert many.notes.startswith("Meaning: m0\nm1")


@pytest.mark.parametrize(
    ("html", "text"),
    [
        ("a<br>b<br/>c", "a\nb\nc"),
        ("<div>one</div><div>two</div>", "one\ntwo"),
        ("&lt;script&gt; &amp; &eacute;&#233;&nbsp;x", "<script> & éé x"),
        ("<script>alert(1)</script>safe<style>p{}</style>", "safe"),
        ('<img src=x onerror="alert(1)">pic', "pic"),
        ("[sound:hello.mp3]hello", "hello"),
        ("{{c1::Paris::capital}} is in {{c2::France}}", "Paris is in France"),
        ("tab\there\x07bell", "tab here bell"),
        ("<b>unclosed <i>tags", "unclosed tags"),
        ("<!-- a comment -->text", "text"),
    ],
)
def test_html_becomes_plain_text_safely(html: str, text: str) -> None:
    assert html_to_text(html) == text


def test_a_long_field_of_spans_ending_in_a_comment_is_read_at_once() -> None:
    """A public Chinese deck's Reading field (~330 characters of tone spans, then a comment)
    froze the tab: the fast path's pattern backtracked exponentially before the parser got it."""
    spans = "".join(f'<span class="tone{n % 5}">zh&#333;ng</span> ' for n in range(400))
    field = f"{spans}<!-- reading -->"
    assert finishes(html_to_text, field) == " ".join(["zhōng"] * 400)


def test_the_newer_anki_format_gets_a_message_that_says_what_to_do() -> None:
    with pytest.raises(InvalidInput, match=r"newer Anki format.*Support older Anki versions"):
        parse("new.apkg", newer_format_package())
    only_compressed = io.BytesIO()
    with zipfile.ZipFile(only_compressed, "w") as z:
        z.writestr("collection.anki21b", b"\x28\xb5\x2f\xfd")
    with pytest.raises(InvalidInput, match="newer Anki format"):
        parse("new.colpkg", only_compressed.getvalue())


def test_the_update_stub_alone_is_recognised_too() -> None:
    stub = make_apkg({"Default": [(["Please update to the latest Anki version, then…", ""], [])]})
    with pytest.raises(InvalidInput, match="newer Anki format"):
        parse("stub.apkg", stub)


def _zip(**members: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, content in members.items():
            z.writestr(name.replace("__", "/").replace("DOT", "."), content)
    return out.getvalue()


def _lying_size() -> bytes:
    """A package whose collection declares (in both zip headers) fewer bytes than it holds."""
    data = bytearray(sample_deck())
    # (signature, offset of the uncompressed size, offset of the name length, header size)
    for signature, size_at, name_len_at, header in (
        (b"PK\x03\x04", 22, 26, 30),
        (b"PK\x01\x02", 24, 28, 46),
    ):
        at = data.find(signature)
        while at != -1:
            name_len = struct.unpack_from("<H", data, at + name_len_at)[0]
            if data[at + header : at + header + name_len] == b"collection.anki2":
                struct.pack_into("<I", data, at + size_at, 1000)
            at = data.find(signature, at + 4)
    return bytes(data)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"PK\x03\x04 definitely not a zip", "not a readable zip archive"),
        (sample_deck()[:2000], "not a readable zip archive"),
        (b"this is plain text", "not a readable zip archive"),
        (_zip(readme=b"hi"), "has no Anki collection"),
        (_zip(collection__DOTDOT__evil=b"x", collectionDOTanki2=b"x"), "unsafe name"),
        (_zip(**{"__etc__passwd": b"x"}), "unsafe name"),
        (_zip(collectionDOTanki2=b"not sqlite"), "not an SQLite database file"),
        (_zip(collectionDOTanki2=sample_store().snapshot()), "not an Anki collection"),
        (_zip(collectionDOTanki2=bytes(5 << 20)), "expands suspiciously"),
        (_lying_size(), "damaged or truncated"),
    ],
)
def test_bad_packages_are_refused_and_change_nothing(data: bytes, message: str) -> None:
    assert_refused("deck.apkg", data, message)


def test_a_collection_bigger_than_the_limit_is_not_unpacked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(anki, "MAX_COLLECTION_BYTES", 10_000)
    with pytest.raises(InvalidInput, match="unpacks to 0 MB; Lexical reads at most 0 MB"):
        parse("deck.apkg", sample_deck())


def test_too_many_entries_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.store.transfer.zips.MAX_ZIP_ENTRIES", 2)
    with pytest.raises(InvalidInput, match="too many"):
        parse("deck.apkg", sample_deck())


_PIECES = st.sampled_from(
    ["word", " ", "\n", "家", "<br>", "<BR/>", "<br />", "</br>", "<b>", "</b>", "<div>",
     "</div>", "<div/>", '<span class="x">', "</span>", "<p>", "</ p>", "<li>", "<hr>",
     '<font color="red" size="2">', "<i >", "&amp;", "&lt;", "&#31;", "&#x41;", "&nbsp;",
     "&bogus;", "&amp", "&", "<", ">", "<script>", "</script>", "<title>", "x</title>",
     "<!-- c -->", '<a href="x>y">', "<a href='x'>", "\x1f", "&#0;", "<TITLE>", "<Pre>",
     "<pres>", "</PRE >", "<h1>", "</h6>", "<titles>", "<bra>", "<STYLE/>", "<p/>"]
)  # fmt: skip


@given(st.lists(_PIECES, max_size=12).map("".join))
def test_plain_formatting_reads_the_same_without_the_parser(html: str) -> None:
    if html_text._SIMPLE.fullmatch(html):
        assert html_text._simple_text(html) == html_text._parsed_text(html)


# html_to_text as it was before its fast paths were made faster (issue 25, item 16), kept to
# show they give the same text: the fast path's pattern took a character an alternative, sounds
# and clozes were both replaced whenever either was there, and each line had its own scan.
_ONE_CHARACTER_SIMPLE = re.compile(
    rf"(?:[^<&]|{html_text._TAG}|{html_text._ENTITY})*", re.IGNORECASE
)


def _text_as_before(html: str) -> str:
    if not html_text._SPECIAL.search(html):
        return " ".join(html.split())
    if "[sound:" in html or "{{c" in html:
        html = html_text._CLOZE.sub(r"\1", html_text._SOUND.sub("", html))
    if "<" in html or "&" in html:
        simple = _ONE_CHARACTER_SIMPLE.fullmatch(html)
        html = html_text._simple_text(html) if simple else html_text._parsed_text(html)
    if not html_text._BREAK.search(html):
        return " ".join(html_text._CONTROL.sub(" ", html).split())
    lines = (" ".join(html_text._CONTROL.sub(" ", line).split()) for line in html.splitlines())
    return "\n".join(line for line in lines if line)


_ANKI_AND_LINES = st.sampled_from(
    ["[sound:a.mp3]", "[sound:", "[", "]", "{{c1::", "{{c12::x::hint}}", "::", ":", "}}", "{",
     "{{c", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\u2028",
     "\u2029", "\t", "\x00", "\x7f", "\x9f", "\ud800", "\xa0", "\u3000", "É", "واژه", "日本"]
)  # fmt: skip


@settings(max_examples=500)
@given(st.lists(st.one_of(_PIECES, _ANKI_AND_LINES, st.text(max_size=4)), max_size=16).map("".join))
def test_html_reads_as_it_did_before_the_fast_paths_were_made_faster(html: str) -> None:
    assert html_to_text(html) == _text_as_before(html)
