"""Answer grading: what a demanding learner expects to count as right, nearly right or wrong
(English, Spanish, German, French, Chinese, Arabic and a few more), the diff shown for it, and
properties that must hold for any text at all."""

from __future__ import annotations

import time
import unicodedata

import pytest
import textdistance
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from app.study.grading import (
    DIFF_MAX,
    DISTANCE_CAP,
    CompareOptions,
    Grade,
    Segment,
    _distance,
    candidates,
    grade_answer,
    normalise,
    tolerance,
)

LENIENT = CompareOptions()
STRICT = CompareOptions(accents_optional=False, articles_optional=False)
ACCENTS = CompareOptions(accents_optional=False)  # accents count, articles still optional
ARTICLES = CompareOptions(articles_optional=False)  # articles count, accents still optional


def verdict(typed: str, answers: list[str], options: CompareOptions = LENIENT) -> str:
    return grade_answer(typed, answers, options).verdict


# --- the rules, language by language ----------------------------------------------------------

CASES = [
    # case, whitespace, compatibility forms
    ("Dog", ["dog"], STRICT, "exact"),
    ("  big    DOG ", ["big dog"], STRICT, "exact"),
    ("STRASSE", ["Straße"], STRICT, "exact"),
    ("ｐｅｒｒｏ", ["perro"], STRICT, "exact"),
    ("ﬁnal", ["final"], STRICT, "exact"),
    # surrounding punctuation, inner hyphens, apostrophes and dots
    ("perro.", ["perro"], STRICT, "exact"),
    ("¿qué?", ["qué"], STRICT, "exact"),
    ("¡Hola!", ["hola"], STRICT, "exact"),
    ("«chat»", ["chat"], STRICT, "exact"),
    ("email", ["e-mail"], STRICT, "exact"),
    ("e-mail", ["email"], STRICT, "exact"),
    ("e mail", ["e-mail"], STRICT, "close"),
    ("dont", ["don't"], STRICT, "exact"),
    ("don’t", ["don't"], STRICT, "exact"),
    ("aujourdhui", ["aujourd'hui"], STRICT, "exact"),
    ("USA", ["U.S.A."], STRICT, "exact"),
    ("yes please", ["yes, please"], STRICT, "exact"),
    ("1000", ["1,000"], STRICT, "exact"),
    ("C#", ["C#"], STRICT, "exact"),
    ("C", ["C#"], STRICT, "wrong"),
    ("?", ["?"], STRICT, "exact"),
    ("!", ["?"], STRICT, "wrong"),
    # accents
    ("cafe", ["café"], LENIENT, "exact"),
    ("cafe", ["café"], ACCENTS, "close"),
    ("café", ["cafe\u0301"], STRICT, "exact"),  # composed and decomposed are one text
    ("nino", ["niño"], LENIENT, "exact"),
    ("uber", ["über"], LENIENT, "exact"),
    ("Strasse", ["straße"], LENIENT, "exact"),
    ("aeble", ["æble"], LENIENT, "exact"),
    ("lodz", ["Łódź"], LENIENT, "exact"),
    ("coeur", ["cœur"], LENIENT, "exact"),
    ("sofia", ["σοφία"], LENIENT, "wrong"),  # folding accents does not transliterate
    ("σοφια", ["ΣΟΦΊΑ"], LENIENT, "exact"),
    ("istanbul", ["İstanbul"], LENIENT, "exact"),
    ("ya", ["yā"], LENIENT, "exact"),
    # English articles and the infinitive marker
    ("the dog", ["dog"], LENIENT, "exact"),
    ("dog", ["the dog"], LENIENT, "exact"),
    ("an apple", ["apple"], LENIENT, "exact"),
    ("run", ["to run"], LENIENT, "exact"),
    ("to run", ["(to) run"], STRICT, "exact"),
    ("the dog", ["dog"], ARTICLES, "wrong"),
    ("the", ["the"], LENIENT, "exact"),  # an answer that is only an article keeps it
    ("a", ["the"], LENIENT, "wrong"),
    ("am tired", ["I am tired"], LENIENT, "close"),  # the pronoun "I" is no article
    # Spanish
    ("el perro", ["perro"], LENIENT, "exact"),
    ("perro", ["el perro"], CompareOptions(lang="es-MX"), "exact"),
    ("las casas", ["casas"], LENIENT, "exact"),
    ("una casa", ["la casa"], LENIENT, "exact"),
    ("pero", ["perro"], LENIENT, "close"),
    ("mal", ["mar"], LENIENT, "wrong"),
    ("el perro", ["perro"], CompareOptions(lang="en"), "wrong"),  # English has no "el"
    # French
    ("eau", ["l'eau"], LENIENT, "exact"),
    ("l’eau", ["eau"], LENIENT, "exact"),
    ("l' eau", ["eau"], LENIENT, "exact"),
    ("farine", ["de la farine"], CompareOptions(lang="fr"), "exact"),
    ("les chats", ["chat"], LENIENT, "close"),
    # German
    ("Hund", ["der Hund"], LENIENT, "exact"),
    ("die Katze", ["Katze"], CompareOptions(lang="de"), "exact"),
    ("Schmetterlnig", ["Schmetterling"], LENIENT, "close"),
    ("Schmetterding", ["Schmetterling"], LENIENT, "close"),
    ("Schnabeltier", ["Schmetterling"], LENIENT, "wrong"),
    # Italian, Portuguese, Dutch
    ("gli amici", ["amici"], CompareOptions(lang="it"), "exact"),
    ("o gato", ["gato"], CompareOptions(lang="pt-BR"), "exact"),
    ("'t huis", ["huis"], CompareOptions(lang="nl"), "exact"),
    ("het huis", ["huis"], LENIENT, "exact"),
    # typos scale with length
    ("recieve", ["receive"], LENIENT, "close"),
    ("libary", ["library"], LENIENT, "close"),
    ("cat", ["car"], LENIENT, "wrong"),
    ("hello", ["goodbye"], LENIENT, "wrong"),
    # Chinese and Japanese: no case, no articles, one character is a whole word
    ("猫", ["猫"], LENIENT, "exact"),
    ("龍", ["竜"], LENIENT, "wrong"),
    ("你好", ["你好！"], LENIENT, "exact"),
    ("犬", ["狗、犬"], LENIENT, "exact"),
    ("か", ["が"], LENIENT, "wrong"),  # dakuten makes another letter, it is no accent
    # Arabic and Hebrew: harakat, hamza, niqqud and the joined article are optional
    ("كتب", ["كَتَبَ"], LENIENT, "exact"),
    ("كتب", ["كَتَبَ"], STRICT, "wrong"),
    ("احمد", ["أحمد"], LENIENT, "exact"),
    ("كلب", ["الكلب"], LENIENT, "exact"),
    ("مرحبا؟", ["مرحبا"], LENIENT, "exact"),
    ("\u200fكتاب\u200f", ["كتاب"], STRICT, "exact"),  # bidi marks from an RTL keyboard
    ("كتاب", ["كتب"], LENIENT, "wrong"),
    ("שלום", ["שָׁלוֹם"], LENIENT, "exact"),
    # emoji
    ("🐶", ["🐶"], STRICT, "exact"),
    ("❤", ["❤️"], STRICT, "exact"),  # the variation selector is invisible
    ("🐱", ["🐶"], STRICT, "wrong"),
]


@pytest.mark.parametrize(("typed", "answers", "options", "expected"), CASES)
def test_verdicts(typed: str, answers: list[str], options: CompareOptions, expected: str) -> None:
    assert verdict(typed, answers, options) == expected


@pytest.mark.parametrize(
    ("text", "options", "key"),
    [
        ("  The   Dog! ", LENIENT, "dog"),
        ("Straße", STRICT, "strasse"),
        ("¿Qué?", LENIENT, "que"),
        ("¿Qué?", STRICT, "qué"),
        ("l'eau", LENIENT, "eau"),
        ("l'eau", STRICT, "leau"),
        ("well-being", STRICT, "wellbeing"),
        ("yes,please", STRICT, "yes please"),
        ("(to) run", LENIENT, "run"),
        ("colo(u)r", STRICT, "colour"),
        ("the", LENIENT, "the"),
        ("...", STRICT, "..."),
        ("\u200b \u00ad", STRICT, ""),
        ("el perro", CompareOptions(lang="en"), "el perro"),
        ("el perro", CompareOptions(lang="es-MX"), "perro"),
    ],
)
def test_normalise(text: str, options: CompareOptions, key: str) -> None:
    assert normalise(text, options) == key


# --- several answers and forms ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("meaning", "forms"),
    [
        ("dog; hound", ["dog", "hound", "dog; hound"]),
        ("(to) run", ["run", "to run", "(to) run"]),
        ("house (building)", ["house", "house building", "house (building)"]),
        ("colo(u)r", ["color", "colour", "colo(u)r"]),
        ("a, b / c", ["a", "b", "c", "a, b / c"]),
        (
            "to go (on foot), to walk",
            ["to go", "to go on foot", "to walk", "to go (on foot), to walk"],
        ),
        ("(a; b) c", ["c", "a; b c", "(a; b) c"]),  # no split inside brackets
        ("(informal)", ["informal", "(informal)"]),
        ("1,000", ["1,000"]),
        ("狗、犬", ["狗", "犬", "狗、犬"]),
        ("كلب، جرو", ["كلب", "جرو", "كلب، جرو"]),
        ("  dog  ", ["dog"]),
        ("", []),
        (" ; , ", ["; ,"]),  # nothing but separators: only the whole meaning
    ],
)
def test_candidates(meaning: str, forms: list[str]) -> None:
    assert candidates(meaning) == forms


@pytest.mark.parametrize(
    ("typed", "answers", "matched"),
    [
        ("hound", ["dog; hound"], "hound"),
        ("pooch", ["dog; hound", "(informal) pooch"], "pooch"),
        ("informal pooch", ["dog; hound", "(informal) pooch"], "informal pooch"),
        ("dog, hound", ["dog; hound"], "dog; hound"),
        ("run", ["(to) run"], "run"),
        ("colour", ["colo(u)r"], "colour"),
        ("hund", ["dog", "hound"], "hound"),  # the closest answer wins
        ("hnd", ["dog", "hound"], "hound"),  # also when wrong: its diff is the useful one
        ("dog", ["dog", "dog"], "dog"),
    ],
)
def test_the_best_form_is_matched(typed: str, answers: list[str], matched: str) -> None:
    assert grade_answer(typed, answers).matched == matched


def test_a_close_match_beats_a_nearer_miss_of_a_shorter_answer() -> None:
    # Two typos in both; only the longer answer forgives two.
    grade = grade_answer("abcdefgh", ["abcdef", "abcdefghij"])
    assert (grade.verdict, grade.matched, grade.distance) == ("close", "abcdefghij", 2)


# --- tolerance and ratings --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("length", "allowed"),
    [(0, 0), (1, 0), (3, 0), (4, 1), (7, 1), (8, 2), (13, 2), (14, 3), (40, 3), (10_000, 3)],
)
def test_tolerance_grows_with_length_and_stops(length: int, allowed: int) -> None:
    assert tolerance(length) == allowed


def test_far_off_answers_report_a_capped_distance() -> None:
    assert grade_answer("a" * 50, ["b" * 50]).distance == DISTANCE_CAP
    assert grade_answer("a" * 5, ["b" * 50]).distance == DISTANCE_CAP
    assert grade_answer("abcdefghijkl", ["abcdefghijklmnop"]).distance == 4


def test_tolerance_never_shrinks() -> None:
    allowed = [tolerance(n) for n in range(100)]
    assert allowed == sorted(allowed)


@pytest.mark.parametrize(
    ("typed", "expected", "distance", "rating"),
    [("perro", "exact", 0, 3), ("pero", "close", 1, 2), ("gato", "wrong", 4, 1)],
)
def test_ratings_follow_the_verdict(typed: str, expected: str, distance: int, rating: int) -> None:
    grade = grade_answer(typed, ["perro"])
    assert (grade.verdict, grade.distance, grade.suggested_rating) == (expected, distance, rating)


@pytest.mark.parametrize("typed", ["", "   ", "\t\n", "\u200b", "\u200f \u200e"])
def test_blank_input_is_empty(typed: str) -> None:
    assert grade_answer(typed, ["perro"]) == Grade("empty", None, 5, 1, ())


@pytest.mark.parametrize("answers", [[], [""], ["  ", "\u200b"]])
def test_a_card_without_answers_never_crashes(answers: list[str]) -> None:
    assert grade_answer("perro", answers) == Grade(
        "wrong", None, 5, 1, (Segment("extra", "perro", ""),)
    )
    assert grade_answer(" ", answers) == Grade("empty", None, 0, 1, ())


# --- the diff ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "answer", "options", "diff"),
    [
        ("perro", "perro", LENIENT, [("same", "perro", "perro")]),
        ("CAFE", "café", LENIENT, [("same", "CAFE", "café")]),
        (
            "pero",
            "perro",
            LENIENT,
            [("same", "per", "per"), ("missing", "", "r"), ("same", "o", "o")],
        ),
        (
            "perrro",
            "perro",
            LENIENT,
            [("same", "perr", "perr"), ("extra", "r", ""), ("same", "o", "o")],
        ),
        ("gata", "gato", LENIENT, [("same", "gat", "gat"), ("wrong", "a", "o")]),
        ("cafe", "café", ACCENTS, [("same", "caf", "caf"), ("wrong", "e", "é")]),
        # a letter and its accent stay together, as do an emoji and its modifier
        ("cafe", "cafe\u0301", STRICT, [("same", "caf", "caf"), ("wrong", "e", "e\u0301")]),
        ("👍", "👍🏽", STRICT, [("wrong", "👍", "👍🏽")]),
        ("🇪🇸", "🇫🇷", STRICT, [("wrong", "🇪🇸", "🇫🇷")]),
        ("Hund", "Hunde", LENIENT, [("same", "Hund", "Hund"), ("missing", "", "e")]),
    ],
)
def test_diff_segments(
    typed: str, answer: str, options: CompareOptions, diff: list[tuple[str, str, str]]
) -> None:
    segments = grade_answer(typed, [answer], options).diff
    assert [(s.kind, s.typed, s.expected) for s in segments] == diff


def test_a_wrong_answer_is_diffed_against_the_answer() -> None:
    grade = grade_answer("katze", ["dog"])
    assert grade.verdict == "wrong"
    assert [(s.kind, s.typed, s.expected) for s in grade.diff] == [("wrong", "katze", "dog")]


def assert_diff_rebuilds(grade: Grade, typed: str) -> None:
    assert "".join(s.typed for s in grade.diff) == (typed if grade.verdict != "empty" else "")
    assert "".join(s.expected for s in grade.diff) == (grade.matched or "")
    assert all(s.typed or s.expected for s in grade.diff)
    assert all(a.kind != b.kind for a, b in zip(grade.diff, grade.diff[1:], strict=False))
    assert all(s.typed == "" for s in grade.diff if s.kind == "missing")
    assert all(s.expected == "" for s in grade.diff if s.kind == "extra")


# --- hostile input ----------------------------------------------------------------------------

HOSTILE = [
    ("x" * 100_000, ["perro"]),
    ("perro" * 20_000, ["perro" * 20_000]),
    ("ab" * 50_000, ["ab" * 50_000 + "c"]),
    ("ab" * 1_000, ["ba" * 1_000]),
    ("é" * 100_000, [";".join(["ab"] * 50_000)]),
    ("🐶\u200d" * 30_000, ["🐶"]),
    ("\u0301" * 100_000, ["a\u0301" * 1_000]),
    ("龍" * 2_000, ["竜" * 2_000]),
]


@pytest.mark.parametrize(("typed", "answers"), HOSTILE)
def test_hostile_input_finishes_fast(typed: str, answers: list[str]) -> None:
    start = time.perf_counter()
    grade = grade_answer(typed, answers)
    assert time.perf_counter() - start < 1.0
    assert_diff_rebuilds(grade, typed)


def test_long_texts_are_compared_in_full_and_diffed_in_part() -> None:
    text = "perro " * 20_000
    assert len(text) > DIFF_MAX
    grade = grade_answer(text, [text.upper()])
    assert grade.verdict == "exact"
    assert [(s.kind, s.typed) for s in grade.diff] == [("same", text)]  # head and tail agree
    grade = grade_answer(text, ["perro " * 19_999 + "gato"])
    assert grade.verdict == "wrong"
    assert [s.kind for s in grade.diff] == ["same", "wrong"]  # the tail is not aligned


# --- properties -------------------------------------------------------------------------------

WORDS = [
    "café", "Straße", "el niño", "ÆBLE", "İstanbul", "ﬁn", "ǅemal", "ΣΟΦΊΑ", "l'eau", "the dog",
    "colo(u)r", "dog; hound", "كَتَبَ", "猫", "🐶", "ᾳ", "ŉ", "e-mail", "¿qué?", "Ⅻ",
]  # fmt: skip
texts = st.one_of(
    st.text(max_size=12),
    st.sampled_from(WORDS),
    st.builds(str.__add__, st.sampled_from(WORDS), st.text(max_size=3)),
)


@st.composite
def typed_and_answer(draw: st.DrawFn) -> tuple[str, str]:
    """An answer and a typed text that is often nearly it, so every verdict turns up."""
    answer = draw(texts)
    typed = draw(st.one_of(st.just(answer), texts, st.text(max_size=2)))
    if typed is not answer and answer and draw(st.booleans()):
        at = draw(st.integers(0, len(answer) - 1))
        typed = answer[:at] + typed + answer[at + 1 :]  # one character replaced by a few
    return typed, answer


def strip_accents(text: str) -> str:
    """Remove the Latin/Greek/Cyrillic diacritics, the marks people mean by "accents".

    Not the Greek iota subscript (U+0345): casefolding turns it into a full iota, a letter."""
    decomposed = unicodedata.normalize("NFD", text)
    kept = [c for c in decomposed if not 0x300 <= ord(c) <= 0x36F or c == "\u0345"]
    return unicodedata.normalize("NFC", "".join(kept))


@settings(max_examples=100, deadline=None)
@given(typed_and_answer())
def test_case_never_changes_the_verdict(pair: tuple[str, str]) -> None:
    typed, answer = pair
    for options in (LENIENT, STRICT):
        expected = verdict(typed, [answer], options)
        assert verdict(typed.upper(), [answer], options) == expected
        assert verdict(typed.lower(), [answer], options) == expected


@settings(max_examples=100, deadline=None)
@given(typed_and_answer())
def test_optional_accents_never_change_the_verdict(pair: tuple[str, str]) -> None:
    typed, answer = pair
    for options in (LENIENT, ARTICLES):
        expected = verdict(typed, [answer], options)
        assert verdict(strip_accents(typed), [answer], options) == expected
        assert verdict(strip_accents(typed).upper(), [answer], options) == expected


@settings(max_examples=100, deadline=None)
@given(texts)
def test_any_answer_typed_as_is_is_exact(answer: str) -> None:
    for options in (LENIENT, STRICT, ACCENTS, ARTICLES):
        assume(normalise(answer, options))
        assert verdict(answer, [answer], options) == "exact"


# Characters that split a meaning into several forms: with them the two directions compare
# different things, so symmetry is only asked of texts without them.
SPLITTERS = "()[]{}（）［］｛｝;,/；，、／،؛"
plain = st.text(st.characters(exclude_characters=SPLITTERS, exclude_categories=["Cs"]), max_size=12)


@settings(max_examples=100, deadline=None)
@given(st.one_of(typed_and_answer(), st.tuples(plain, plain)))
def test_distance_is_symmetric(pair: tuple[str, str]) -> None:
    a, b = pair
    assume(not any(c in SPLITTERS for c in a + b))
    for options in (LENIENT, STRICT):
        assume(normalise(a, options) and normalise(b, options))
        assert grade_answer(a, [b], options).distance == grade_answer(b, [a], options).distance


@settings(max_examples=100, deadline=1_000)
@given(st.text(), st.lists(st.text(), max_size=4), st.booleans(), st.booleans())
def test_any_text_grades_without_error(
    typed: str, answers: list[str], accents: bool, articles: bool
) -> None:
    grade = grade_answer(typed, answers, CompareOptions(accents, articles))
    assert grade.verdict in ("exact", "close", "wrong", "empty")
    assert grade.suggested_rating == {"exact": 3, "close": 2}.get(grade.verdict, 1)
    assert grade.distance >= 0
    assert_diff_rebuilds(grade, typed)


# The banded distance against textdistance's full-matrix restricted Damerau-Levenshtein (the
# same optimal string alignment, unbounded): see docs/decisions/018-string-similarity.md.
OSA = textdistance.DamerauLevenshtein(restricted=True, external=False)
# Few letters make many repeats and swaps; 45 of them let the distance pass the cap.
swappy = st.text("abcé猫", max_size=45)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.tuples(swappy, swappy), typed_and_answer()))
def test_distance_agrees_with_a_reference_implementation(pair: tuple[str, str]) -> None:
    a, b = pair
    assert _distance(a, b) == min(OSA(a, b), DISTANCE_CAP)
