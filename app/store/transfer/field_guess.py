"""A first guess at what each field of a word list or deck is, from its name and its values.

Names are matched tolerantly (case, accents, spaces and punctuation ignored) against common
column names in several languages. Values decide the rest: a field of ids or numbers
("B1-CH01:1", "17") is never the term, an empty field is left out, and
long text goes to the notes (a field that only held sound files is empty here, since
media are not imported). The term is a field named like one, else the first short text
field; meanings are fields named like them or after a language ("English", "Deutsch"), else
the next text field; whatever else has text goes to the notes, labelled with its name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import islice
from typing import Literal, cast

from app.store.transfer.records import FieldTable, Role, TableMapping
from app.text.fold import fold

SAMPLE = 200  # records looked at per field
LONG_TEXT = 60  # average characters above which a field reads as notes, not a term

# Names in several languages, compared after `normal_name`. Besides the roles, a name may say
# the field is a reading or transcription (notes, never the term) or a language: a field named
# "English" holds words of it, the asked word when it comes first, else a meaning.
Kind = Literal[
    "term", "meanings", "notes", "folder", "lang", "color", "skip", "reading", "language"
]
_NAMES: dict[str, Kind] = {}


def _add(kind: Kind, names: str) -> None:
    for name in names.split(","):
        _NAMES[normal_name(name)] = kind


def normal_name(name: str) -> str:
    """`name` folded (case, accents, width) with everything but letters and digits removed."""
    return "".join(c for c in fold(name) if c.isalnum())


_add(
    "term",
    "term,terms,word,words,front,expression,vocab,vocabulary,headword,lemma,entry,kanji,hanzi,"
    "character,characters,simplified,traditional,wort,worter,begriff,vokabel,stichwort,mot,"
    "terme,vocable,palabra,termino,vocablo,parola,palavra,woord,slowo,slovo,"
    "слово,термин,单词,词,词语,汉字,字,単語,漢字,語,단어,واژه,کلمه,كلمة",
)
_add(
    "meanings",
    "meaning,meanings,definition,definitions,translation,translations,back,answer,gloss,"
    "bedeutung,bedeutungen,ubersetzung,sens,signification,traduction,definition,significado,"
    "traduccion,definicion,significato,traduzione,traducao,betekenis,vertaling,znaczenie,"
    "tlumaczenie,значение,перевод,意思,释义,意义,翻译,意味,訳,뜻,의미,معنی,ترجمه,معنى",
)
_add(
    "notes",
    "notes,note,extra,example,examples,sentence,sentences,comment,comments,remarks,context,"
    "usage,tags,tag,hint,mnemonic,beispiel,beispiele,satz,satze,anmerkung,exemple,exemples,"
    "phrase,ejemplo,ejemplos,nota,notas,esempio,voorbeeld,пример,примеры,例句,例子,例文,예문,مثال",
)
_add("folder", "folder,folderpath,path,deck,subdeck,ordner,dossier,carpeta,cartella")
_add("lang", "lang,language,languagetag,sprache,langue,idioma,lingua,язык")
_add("color", "color,colour,farbe,couleur")
_add(
    "skip",
    "id,guid,uuid,number,no,nr,num,index,rank,audio,sound,soundfile,image,picture,media,"
    "frequency,freq,nummer,numero,номер",
)
_add(
    "reading",
    "pinyin,reading,readings,romaji,romanization,kana,furigana,hiragana,katakana,ipa,"
    "pronunciation,transcription,transliteration,zhuyin,bopomofo,jyutping,aussprache,"
    "lesung,prononciation,pronunciacion,произношение,拼音,読み,발음",
)
_add(
    "language",
    "english,german,deutsch,french,francais,spanish,espanol,italian,italiano,portuguese,"
    "portugues,dutch,nederlands,polish,polski,russian,chinese,mandarin,japanese,korean,"
    "arabic,persian,farsi,turkish,swedish,norwegian,danish,finnish,greek,czech,hungarian,"
    "romanian,ukrainian,hebrew,hindi,vietnamese,thai,indonesian,englisch,franzosisch,"
    "spanisch,italienisch,russisch,chinesisch,japanisch,persisch,anglais,allemand,"
    "espagnol,ingles,aleman,frances,inglese,tedesco,английский,немецкий,русский,英语,"
    "德语,中文,英語,ドイツ語,日本語,영어,انگلیسی,آلمانی,فارسی",
)

# The column names a word list may use, as the import dialog says them.
UNDERSTOOD_NAMES = (
    "term (or word, front), meanings (or meaning, translation, back), notes (or example), "
    "folder (or deck), lang (or language) and color, in English or several other languages"
)
_ID = re.compile(r"^[^\s\d]*\d\S*$")  # a word with a digit in it (at its first digit)


def name_kind(name: str) -> Kind | None:
    """What a field's name says it holds, if it is a name Lexical knows."""
    return _NAMES.get(normal_name(name))


def is_header(cells: Sequence[str]) -> bool:
    """Whether a CSV file's first row reads as column names: every cell a short label, at
    least one a name Lexical knows, and no two the same."""
    named = [c.strip() for c in cells if c.strip()]
    if len(named) < 2 or len({c.casefold() for c in named}) < len(named):
        return False
    labels = all(len(c) <= 40 and len(c.split()) <= 3 and not _ID.match(c) for c in named)
    return labels and any(name_kind(c) is not None for c in named)


class _Field:
    """What the sampled values of one field look like."""

    def __init__(self, values: list[str]) -> None:
        filled = [v.strip() for v in values if v.strip()]
        self.empty = not filled
        self.ids = bool(filled) and sum(_looks_like_id(v) for v in filled) >= 0.9 * len(filled)
        self.long = bool(filled) and sum(len(v) for v in filled) / len(filled) > LONG_TEXT
        # A term column has mostly different values; "N", "V", "Adj" columns do not.
        self.varied = len(set(filled)) >= 0.5 * len(filled)

    @property
    def usable(self) -> bool:
        return not (self.empty or self.ids)

    @property
    def could_be_term(self) -> bool:
        return self.usable and self.varied and not self.long


def _looks_like_id(value: str) -> bool:
    if not _ID.match(value):
        return False
    return sum(not c.isalpha() for c in value) >= 0.4 * len(value)


_KIND_ROLES: dict[Kind, Role] = {"reading": "notes", "language": "meanings"}


def guess(table: FieldTable, header: bool | None = None) -> TableMapping:
    """The mapping to preselect for `table`; `header` says whether its first row holds column
    names (None: decide from the row itself)."""
    if header is None:
        header = table.header is not None and is_header(table.header)
    names = table.names(header)
    rows = table.rows(header)
    fields = [_Field([r.values[i] for r in islice(rows, SAMPLE)]) for i in range(len(names))]
    kinds = [name_kind(n) if header or table.header is None else None for n in names]
    # A name says what a field is; unnamed fields are left out when empty or ids or numbers.
    roles: list[Role] = [
        _role(kind) if kind is not None else "skip" if not info.usable else "notes"
        for info, kind in zip(fields, kinds, strict=True)
    ]
    term = _pick_term(kinds, fields)
    roles = ["notes" if role == "term" else role for role in roles]
    if term is not None:
        roles[term] = "term"
    if "meanings" not in roles:
        spare = [i for i, role in enumerate(roles) if role == "notes" and kinds[i] is None]
        later = [i for i in spare if term is None or i > term]
        short = [i for i in later if not fields[i].long]
        if short or later:
            roles[(short or later)[0]] = "meanings"
    return TableMapping(tuple(roles), header)


def _role(kind: Kind) -> Role:
    return _KIND_ROLES.get(kind) or cast(Role, kind)


def _pick_term(kinds: list[Kind | None], fields: list[_Field]) -> int | None:
    """A field named like a term; else the first field named after a language (decks put the
    asked word first); else the first short field of varied values with no known name, never
    one of ids or numbers."""
    for wanted in ("term", "language", None):
        for index, (kind, info) in enumerate(zip(kinds, fields, strict=True)):
            if kind == wanted and (wanted == "term" or info.could_be_term):
                return index
    return None
