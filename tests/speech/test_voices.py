"""Choosing a voice by language from lists like real browsers give (loose tags, an Afrikaans
default, network voices), and the sentence when no voice fits."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.speech.voices import (
    Voice,
    choose_voice,
    languages,
    no_voice_message,
    primary,
    region,
    voices_for,
    word_lang,
)

# Shaped like Chromium with speech-dispatcher (espeak-ng) on Linux plus a few network voices:
# the default is Afrikaans, tags use both separators and odd forms.
VOICES = [
    Voice("Afrikaans", "af", default=True),
    Voice("English (America)", "en-US"),
    Voice("English (Great Britain)", "en_GB"),
    Voice("English (Scotland)", "en-GB-x-gbcwmd"),
    Voice("Spanish (Latin America)", "es-419"),
    Voice("Google español", "es-ES", local_service=False),
    Voice("Spanish (Spain)", "es_ES"),
    Voice("Spanish", "es"),
    Voice("Google español de Estados Unidos", "es-US", local_service=False),
    Voice("German", "de"),
    Voice("Chinese (Mandarin)", "cmn"),
    Voice("Portuguese (Portugal)", "pt-PT"),
    Voice("Portuguese (Brazil)", "pt-BR"),
    Voice("Nameless", ""),
    Voice("Klingon", "tlh"),
]


def names(voices: list[Voice]) -> list[str]:
    return [v.name for v in voices]


def chosen(lang: str, preferred: str = "") -> str | None:
    voice = choose_voice(VOICES, lang, preferred)
    return voice.name if voice else None


def test_an_exact_tag_wins_whatever_its_spelling() -> None:
    assert chosen("en-GB") == "English (Great Britain)"
    assert chosen("EN_us") == "English (America)"
    assert chosen("es-419") == "Spanish (Latin America)"


def test_a_bare_language_takes_its_usual_region_and_a_local_voice_first() -> None:
    # No es-IE voice: es-ES is the usual region, and of its two voices the one on this
    # device comes before the network one.
    assert chosen("es-IE") == "Spanish (Spain)"
    assert chosen("pt") == "Portuguese (Brazil)"
    assert chosen("en") == "English (America)"


def test_exact_match_beats_the_usual_region() -> None:
    assert chosen("es") == "Spanish"


def test_the_wanted_region_beats_the_usual_one() -> None:
    assert chosen("es-US") == "Google español de Estados Unidos"
    assert chosen("pt-pt") == "Portuguese (Portugal)"
    assert chosen("en-GB-oxendict") == "English (Great Britain)"
    # Latin America (419) holds Mexico: nearer than the usual es-ES.
    assert chosen("es-MX") == "Spanish (Latin America)"


def test_aliases_and_scripts_still_find_the_language() -> None:
    assert chosen("zh") == "Chinese (Mandarin)"
    assert chosen("zh-Hant-TW") == "Chinese (Mandarin)"


def test_a_preferred_voice_is_used_only_for_its_own_language() -> None:
    assert chosen("es", "Spanish (Latin America)") == "Spanish (Latin America)"
    assert chosen("de", "Spanish (Latin America)") == "German"
    assert chosen("de", "No such voice") == "German"


def test_no_voice_for_the_language_is_none_never_the_default_voice() -> None:
    assert chosen("ja") is None
    assert chosen("fr", "Afrikaans") is None
    assert chosen("") is None
    assert choose_voice([], "en") is None


def test_voices_for_lists_one_language_best_first() -> None:
    assert names(voices_for(VOICES, "pt")) == ["Portuguese (Brazil)", "Portuguese (Portugal)"]
    assert names(voices_for(VOICES, "es"))[:2] == ["Spanish", "Spanish (Spain)"]
    assert voices_for(VOICES, "") == []


def test_languages_are_distinct_in_their_usual_spelling() -> None:
    tags = languages(VOICES)
    assert tags.count("en-GB") == 1
    assert "es-ES" in tags
    assert "es_ES" not in tags
    assert "" not in tags
    assert "en-GB-x-gbcwmd" in tags  # kept as it is: the browser knows it by that


def test_subtags() -> None:
    assert primary("es_MX") == "es"
    assert primary("CMN") == "zh"
    assert primary("nb-NO") == "no"
    assert region("es-419") == "419"
    assert region("zh-Hant-TW") == "tw"
    assert region("en-x-us") == ""
    assert region("de") == ""


def test_the_missing_voice_sentence_names_the_language_and_what_to_do() -> None:
    assert no_voice_message("es-MX") == (
        "Your browser has no Spanish voice. Add one in your system's speech settings, "
        "or let your AI provider speak (AI settings)."
    )
    assert 'no voice for the language "tlh-x"' in no_voice_message(" tlh-x ")


def test_a_word_is_spoken_in_its_own_then_its_folders_then_the_users_language() -> None:
    assert word_lang("es", "de", "en") == "es"
    assert word_lang("", "de", "en") == "de"
    assert word_lang("", " ", "en-GB") == "en-GB"


@given(st.lists(st.builds(Voice, st.text(max_size=8), st.text(max_size=12))), st.text(max_size=12))
def test_a_chosen_voice_always_speaks_the_wanted_language(voices: list[Voice], lang: str) -> None:
    voice = choose_voice(voices, lang)
    if voice is not None:
        assert primary(voice.lang) == primary(lang)
    else:
        assert not primary(lang) or all(primary(v.lang) != primary(lang) for v in voices)
