"""Which of the browser's voices speaks a language: chosen by the BCP 47 tag, never by
"the default voice".

Browsers list voices with loose tags ("es_ES", "en-GB-x-rp", "cmn", "es-419", or none), and on
Linux speech-dispatcher lists thousands whose default is Afrikaans: a voice is only ever
taken for a language it speaks. Best first: the user's preferred voice for that language, a
voice with exactly the wanted tag, then one of the same language in the wanted region, the
language's usual regions (es-ES, es-MX for "es"), no region, any other region; among equals a
voice on this device before a network one, then the browser's default.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from app.domain import check_lang
from app.speech.languages import language_name

# Old or macrolanguage subtags that browsers still use for a language with another tag.
ALIASES = {"cmn": "zh", "nb": "no", "iw": "he", "in": "id", "ji": "yi", "fil": "tl"}
USUAL_REGIONS: dict[str, tuple[str, ...]] = {
    "ar": ("sa", "eg"),
    "de": ("de", "at", "ch"),
    "en": ("us", "gb"),
    "es": ("es", "mx"),
    "fr": ("fr", "ca"),
    "it": ("it",),
    "ja": ("jp",),
    "ko": ("kr",),
    "nl": ("nl", "be"),
    "pt": ("br", "pt"),
    "ru": ("ru",),
    "sv": ("se",),
    "zh": ("cn", "tw", "hk"),
}

# Countries of UN region 419 (Latin America): an es-419 voice is the nearest for es-MX.
LATIN_AMERICA = frozenset(
    {
        *("ar", "bo", "br", "cl", "co", "cr", "cu", "do", "ec", "gt"),
        *("hn", "mx", "ni", "pa", "pe", "pr", "py", "sv", "uy", "ve"),
    }
)


@dataclass(frozen=True, slots=True)
class Voice:
    """One voice as the browser lists it (`SpeechSynthesisVoice`), as plain data."""

    name: str
    lang: str
    local_service: bool = True
    default: bool = False
    voice_uri: str = ""


def normal_tag(tag: str) -> str:
    """A tag compared loosely: trimmed, lower case, `_` read as `-`."""
    return tag.strip().replace("_", "-").lower()


def primary(tag: str) -> str:
    """The language subtag of `tag` ("es" for "es_MX"), old aliases read as today's."""
    first = normal_tag(tag).split("-")[0]
    return ALIASES.get(first, first)


def region(tag: str) -> str:
    """The region subtag ("mx", "419"), or "" when the tag names none."""
    for part in normal_tag(tag).split("-")[1:]:
        if len(part) == 1:  # an extension or private use ("x-...") follows: no region there
            break
        if (len(part) == 2 and part.isalpha()) or (len(part) == 3 and part.isdigit()):
            return part
    return ""


def display_tag(tag: str) -> str:
    """A tag in its usual spelling ("es-MX" for "es_mx") when it has a usual shape."""
    try:
        return check_lang(tag.replace("_", "-")) or tag.strip()
    except ValueError:
        return tag.strip()


def _rank(voice: Voice, wanted: str) -> tuple[bool, int, bool, bool]:
    usual = USUAL_REGIONS.get(primary(wanted), ())
    where, wanted_region = region(voice.lang), region(wanted)
    if where and (where == wanted_region or (where == "419" and wanted_region in LATIN_AMERICA)):
        place = 0
    elif where in usual:
        place = 1 + usual.index(where)
    else:
        place = 1 + len(usual) + (1 if where else 0)
    return (normal_tag(voice.lang) != wanted, place, not voice.local_service, not voice.default)


def voices_for(voices: Iterable[Voice], lang: str) -> list[Voice]:
    """The voices that speak the language of `lang`, best first."""
    wanted = normal_tag(lang)
    if not primary(wanted):
        return []
    same = [v for v in voices if primary(v.lang) == primary(wanted)]
    return sorted(same, key=lambda v: _rank(v, wanted))  # sorted is stable: ties keep order


def choose_voice(voices: Sequence[Voice], lang: str, preferred: str = "") -> Voice | None:
    """The voice to speak `lang` with: `preferred` (a voice name) if it speaks that language,
    else the best of those that do; None when none does."""
    fitting = voices_for(voices, lang)
    chosen = next((v for v in fitting if preferred and v.name == preferred), None)
    return chosen or next(iter(fitting), None)


def languages(voices: Iterable[Voice]) -> list[str]:
    """The distinct language tags of `voices`, in their usual spelling, sorted."""
    return sorted({display_tag(v.lang) for v in voices if primary(v.lang)}, key=str.lower)


def no_voice_message(lang: str, *, on_device_only: bool = False) -> str:
    """Why nothing is said in `lang`; the provider is offered unless the user forbade it."""
    name = language_name(primary(lang))
    missing = f"no {name} voice" if name else f'no voice for the language "{lang.strip()}"'
    then = or_provider(on_device_only=on_device_only)
    return f"Your browser has {missing}. Add one in your system's speech settings{then}"


def or_provider(*, on_device_only: bool) -> str:
    """How a sentence about speech the browser cannot give ends: with the provider offered,
    unless the user forbade it."""
    if on_device_only:
        return (
            "; \u201cOn this device only\u201d (Voice settings) keeps your AI provider from "
            "speaking."
        )
    return ", or let your AI provider speak (AI settings)."


def word_lang(word: str, folder: str, speech: str) -> str:
    """The language a word is spoken in: its own tag, else its folder's default, else the
    user's speech language."""
    return next((tag for tag in (word, folder, speech) if tag.strip()), "")
