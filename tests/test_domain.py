"""Validation of command inputs and the user-facing error messages."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError, model_validator

from app.domain import COLOURS, FolderId, InvalidInput, _bad_chars
from app.inputs import (
    FolderPatch,
    NewFolder,
    NewNote,
    NewWord,
    WordPatch,
    parse_input,
    user_message,
)

F = FolderId(1)


@pytest.mark.parametrize(
    "name",
    ["Cardiology", "  padded  ", "日本語", "עברית", "Café", "e\u0301", "🧠 Brain", "a" * 200],
)
def test_names_accept_unicode(name: str) -> None:
    assert NewFolder(name=name).name == name.strip()


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("", "must not be empty"),
        ("   ", "must not be empty"),
        ("a" * 201, "at most 200"),
        ("tab\there", "one line"),
        ("new\nline", "one line"),
        ("nul\x00", "one line"),
        ("lone \ud800 surrogate", "one line"),
    ],
)
def test_names_reject_bad_values(name: str, fragment: str) -> None:
    with pytest.raises(ValidationError) as info:
        NewFolder(name=name)
    message = user_message(info.value)
    assert message.startswith("Name ")
    assert fragment in message


def test_meanings_are_stripped_empty_dropped_and_bounded() -> None:
    word = NewWord(folder_id=F, term="x", meanings=[" a ", "", "  ", "b"])
    assert word.meanings == ["a", "b"]
    with pytest.raises(ValidationError, match="at most 50"):
        NewWord(folder_id=F, term="x", meanings=["m"] * 51)
    with pytest.raises(ValidationError, match="2,000"):
        NewWord(folder_id=F, term="x", meanings=["m" * 2001])


def test_notes_and_body_allow_newlines_but_are_bounded() -> None:
    assert NewNote(folder_id=F, title="t", body="line 1\n\tline 2").body == "line 1\n\tline 2"
    with pytest.raises(ValidationError, match="50,000"):
        NewNote(folder_id=F, title="t", body="x" * 50_001)
    with pytest.raises(ValidationError, match="control"):
        NewWord(folder_id=F, term="x", notes="bell\x07")


@pytest.mark.parametrize("emoji", ["", "🧬", "👩‍🔬", "🇯🇵", "❤️", "🧬" * 16])
def test_emoji_accepted(emoji: str) -> None:
    assert NewFolder(name="x", emoji=emoji).emoji == emoji


@pytest.mark.parametrize("emoji", ["a", "7", "🧬 🧬", "🧬" * 17, "\x00"])
def test_emoji_rejected(emoji: str) -> None:
    with pytest.raises(ValidationError) as info:
        NewFolder(name="x", emoji=emoji)
    assert user_message(info.value).startswith("Emoji must")


@pytest.mark.parametrize(
    ("tag", "normal"),
    [
        ("", ""),
        ("EN", "en"),
        ("es-mx", "es-MX"),
        ("zh-hant-tw", "zh-Hant-TW"),
        ("sr-latn", "sr-Latn"),
        ("es-419", "es-419"),
    ],
)
def test_lang_is_normalised(tag: str, normal: str) -> None:
    assert NewWord(folder_id=F, term="x", lang=tag).lang == normal


@pytest.mark.parametrize("tag", ["english", "e", "en_US", "en-", "zh-Hant-TW-x", "<script>"])
def test_lang_rejects_other_shapes(tag: str) -> None:
    with pytest.raises(ValidationError, match="language tag"):
        NewWord(folder_id=F, term="x", lang=tag)


def test_colour_must_be_known() -> None:
    assert "teal" in COLOURS
    assert len(COLOURS) == 10
    with pytest.raises(ValidationError):
        NewFolder(name="x", color="magenta")  # type: ignore[arg-type]


def test_patch_reports_only_set_fields() -> None:
    assert FolderPatch(name=" New ").changes() == {"name": "New"}
    assert WordPatch(meanings=[]).changes() == {"meanings": []}
    assert WordPatch().changes() == {}


def test_parse_input_raises_invalid_input_with_a_sentence() -> None:
    with pytest.raises(InvalidInput) as info:
        parse_input(NewWord, {"folder_id": 1, "term": " "})
    assert info.value.message == "Term must not be empty."
    assert parse_input(NewWord, {"folder_id": 1, "term": "ok"}).term == "ok"


def test_user_message_joins_several_errors() -> None:
    with pytest.raises(ValidationError) as info:
        NewWord.model_validate({"term": ""})
    message = user_message(info.value)
    assert "Folder id" in message
    assert "Term must not be empty" in message
    assert message.endswith(".")


def test_a_whole_form_error_is_its_own_sentence_without_a_field_prefix() -> None:
    class Pair(BaseModel):
        low: int
        high: int

        @model_validator(mode="after")
        def _ordered(self) -> Pair:
            if self.low > self.high:
                raise ValueError("Put the smaller number first.")
            return self

    with pytest.raises(ValidationError) as info:
        Pair(low=2, high=1)
    assert user_message(info.value) == "Put the smaller number first."


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=300))
def test_any_text_either_validates_or_gives_a_message(text: str) -> None:
    try:
        NewWord(folder_id=F, term=text, meanings=[text], notes=text)
    except ValidationError as exc:
        refusal: str | None = user_message(exc)
    else:
        refusal = None
    assert refusal is None or refusal.strip()


def test_messages_name_fields_as_the_forms_label_them() -> None:
    with pytest.raises(ValidationError) as info:
        NewWord(folder_id=F, term="x", lang="not a tag!")
    assert user_message(info.value).startswith("Language must be a language tag")


def test_control_characters_are_exactly_unicode_categories_cc_and_cs() -> None:
    """The fast regex check agrees with unicodedata on every code point."""
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        control = unicodedata.category(char) in ("Cc", "Cs")
        assert _bad_chars(char) is control, hex(code)
        assert _bad_chars(char, lines=True) is (control and char not in "\t\n\r"), hex(code)
