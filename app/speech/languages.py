"""English names of languages from their BCP 47 tags, for sentences such as "Your browser has
no Spanish voice", and a short sample sentence per language for trying a voice."""

from __future__ import annotations

# Primary subtags of the languages people most often study or speak, with the names a
# sentence uses. A tag not listed is shown as itself.
NAMES: dict[str, str] = {
    "af": "Afrikaans",
    "ar": "Arabic",
    "bg": "Bulgarian",
    "bn": "Bengali",
    "ca": "Catalan",
    "cs": "Czech",
    "cy": "Welsh",
    "da": "Danish",
    "de": "German",
    "el": "Greek",
    "en": "English",
    "eo": "Esperanto",
    "es": "Spanish",
    "et": "Estonian",
    "eu": "Basque",
    "fa": "Persian",
    "fi": "Finnish",
    "fr": "French",
    "ga": "Irish",
    "he": "Hebrew",
    "hi": "Hindi",
    "hr": "Croatian",
    "hu": "Hungarian",
    "id": "Indonesian",
    "is": "Icelandic",
    "it": "Italian",
    "ja": "Japanese",
    "ko": "Korean",
    "la": "Latin",
    "lt": "Lithuanian",
    "lv": "Latvian",
    "ms": "Malay",
    "nl": "Dutch",
    "no": "Norwegian",
    "pl": "Polish",
    "pt": "Portuguese",
    "ro": "Romanian",
    "ru": "Russian",
    "sk": "Slovak",
    "sl": "Slovenian",
    "sr": "Serbian",
    "sv": "Swedish",
    "sw": "Swahili",
    "ta": "Tamil",
    "th": "Thai",
    "tl": "Tagalog",
    "tr": "Turkish",
    "uk": "Ukrainian",
    "ur": "Urdu",
    "vi": "Vietnamese",
    "zh": "Chinese",
}

SAMPLES: dict[str, str] = {
    "en": "Hello! This is how I sound when I read your words.",
    "es": "¡Hola! Así sueno cuando leo tus palabras.",
    "fr": "Bonjour ! Voici ma voix quand je lis tes mots.",
    "de": "Hallo! So klinge ich, wenn ich deine Wörter lese.",
    "it": "Ciao! Ecco come suono quando leggo le tue parole.",
    "pt": "Olá! É assim que eu soo quando leio as tuas palavras.",
    "nl": "Hallo! Zo klink ik als ik je woorden voorlees.",
    "ja": "こんにちは。あなたの言葉をこの声で読みます。",
    "zh": "你好！我会用这个声音读你的词语。",
    "ru": "Привет! Так звучит мой голос, когда я читаю твои слова.",
}


def language_name(primary: str) -> str | None:
    """The English name of a language given its primary subtag ("es"), if known."""
    return NAMES.get(primary)


def sample_sentence(primary: str) -> str:
    """A sentence to try a voice with, in its language where one is written here."""
    return SAMPLES.get(primary, SAMPLES["en"])
