"""A realistic, deterministic workload for `make bench`: nested folders of words in many scripts.

Built with the app's own `Store` (same schema, migrations, validation and commands), so the
database the browser boots from is exactly one the app could have written itself. Everything is
drawn from one seeded random generator: the same size gives the same workload on every run.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from app.domain import COLOURS, FolderId, WordId
from app.inputs import NewFolder, NewNote, WordPatch
from app.store import Store
from app.store.bulk import parse_bulk
from app.store.changes import install_capture
from app.study.model import DAY_MS, DEFAULT_DAY_START_HOUR, CardState
from app.study.options import StudyOptions

MAX_DEPTH = 4
INBOX = "Inbox"
BIG = "Pharmacology"

# Syllables per script: terms in Latin with diacritics, Cyrillic, Greek, Japanese and Arabic.
_SYLLABLE_TEXT = {
    "la": "ka lo mi ra te su no vi de pa ré ço ña ül ös tz ch qu bi zo fe gu ly an er in or",
    "ru": "ка ро ди ол ги мя ну ше тр ва ль ск по ре зи",
    "el": "κα ρδ ιο λο γί α μη τρ ευ ση πο νο",
    "ja": "心 臓 学 語 医 薬 かな カタ しん ぞう きょう がく",
    "ar": "قل ب كت اب طب دو اء",
}
_SYLLABLES = {script: text.split() for script, text in _SYLLABLE_TEXT.items()}
_SCRIPT_WEIGHTS = {"la": 70, "ru": 10, "el": 7, "ja": 8, "ar": 5}
_LANG_TAGS = {"la": ["en", "es", "de", "fr", "pt-BR"], "ru": ["ru"], "el": ["el"], "ja": ["ja"]}
# Words that meanings, notes and folder names are made of (so searches for them hit many).
_GLOSS_TEXT = (
    "heart valve blood vessel cell membrane protein enzyme kidney liver lung muscle nerve bone "
    "tissue organ acid salt water light energy force motion speed wave sound colour shape "
    "number angle line circle square triangle market price trade money bank loan tax law court "
    "judge crime right duty vote state city river mountain forest desert island ocean weather "
    "storm cloud rain snow wind season plant seed root leaf flower fruit tree animal bird fish "
    "insect dog horse word sentence grammar verb noun meaning sign symbol story poem song dance "
    "art paint music drum string small large quick slow bright dark warm cold old new early "
    "late strong weak soft hard inner outer upper lower to make to break to carry to grow"
)
_GLOSS = _GLOSS_TEXT.split()
_TOPIC_TEXT = (
    "Biology Cardiology Anatomy Chemistry Physics Geometry Economics Law History Geography "
    "Weather Botany Zoology Linguistics Music Art Cooking Travel Medicine Kardiologie "
    "Кардиология Ελληνικά 日本語 Español Français Português Idioms Verbs Nouns Slang Exams"
)
_TOPICS = _TOPIC_TEXT.split()
_EMOJI = ["", "", "", "📚", "🧬", "❤️", "⚗️", "🌍", "🎵", "🇯🇵", "🐦", "⚖️"]


@dataclass(frozen=True)
class Size:
    """How big a workload to build; `big_folder` words go into one folder, `bulk` are pasted."""

    words: int
    folders: int
    big_folder: int
    bulk: int
    queries: int
    due: int = 0  # cards due today, of the words x 2 directions studied so far
    reviews: int = 0  # rows of review history behind those cards
    seed: int = 7

    @classmethod
    def scaled(cls, words: int, folders: int) -> Size:
        return cls(
            words=words,
            folders=folders,
            big_folder=min(5_000, words // 20),
            # At least enough to log over SNAPSHOT_BYTES (about 240 bytes a word), so a
            # snapshot follows even in the smoke run.
            bulk=min(10_000, max(5_000, words // 10)),
            queries=40 if words >= 10_000 else 8,
            due=words // 10,
            reviews=words * 10,
        )


@dataclass
class Workload:
    """The built store plus what the scenarios need to find their way around it."""

    store: Store
    size: Size
    big_folder: FolderId
    inbox: FolderId
    edit_folder: FolderId
    widest_folder: FolderId  # the folder with the most subfolders (for expand/collapse)
    queries: list[str] = field(default_factory=list)
    bulk_text: str = ""


def _term(rng: random.Random) -> tuple[str, str]:
    """A term and its script; lengths vary from one syllable to long compounds and phrases."""
    script = rng.choices(list(_SCRIPT_WEIGHTS), weights=list(_SCRIPT_WEIGHTS.values()))[0]
    syllables = _SYLLABLES[script]

    def word() -> str:
        return "".join(rng.choice(syllables) for _ in range(rng.choice((1, 2, 2, 3, 3, 4, 6))))

    words = [word() for _ in range(rng.choice((1, 1, 1, 1, 1, 1, 2, 3)))]
    if script == "la" and rng.random() < 0.03:
        words = ["".join(word() for _ in range(8))]  # a long German-style compound
    term = " ".join(words)
    return (term.capitalize() if rng.random() < 0.2 else term), script


def _meanings(rng: random.Random) -> list[str]:
    return [
        " ".join(rng.choice(_GLOSS) for _ in range(rng.randint(1, 7)))
        for _ in range(rng.choice((1, 1, 2, 2, 3, 4)))
    ]


def _folders(store: Store, rng: random.Random, count: int) -> list[tuple[FolderId, int]]:
    """`count` folders at most MAX_DEPTH deep, as (id, depth); the first two are Inbox and BIG."""
    made: list[tuple[FolderId, int]] = []
    names: dict[FolderId | None, set[str]] = {}

    def create(name: str, parent: FolderId | None, depth: int) -> None:
        taken = names.setdefault(parent, set())
        unique = name if name.casefold() not in taken else f"{name} {len(taken) + 1}"
        taken.add(unique.casefold())
        emoji, colour = rng.choice(_EMOJI), rng.choice(COLOURS)
        new = NewFolder(name=unique, parent_id=parent, emoji=emoji, color=colour)
        made.append((store.create_folder(new).id, depth))

    create(INBOX, None, 1)
    for _ in range(max(1, count // 150)):
        create(rng.choice(_TOPICS), None, 1)
    create(BIG, made[1][0], 2)
    made[1], made[-1] = made[-1], made[1]
    while len(made) < count:
        parent, depth = rng.choice(made[2:] or made)
        if depth < MAX_DEPTH:
            create(f"{rng.choice(_TOPICS)} {rng.choice(_GLOSS)}", parent, depth + 1)
    return made


def _fill(store: Store, rng: random.Random, folder: FolderId, count: int) -> None:
    """Add `count` words to `folder` through the bulk path, then give some notes and tags."""
    taken: set[str] = set()
    lines: list[str] = []
    scripts: list[str] = []
    while len(lines) < count:
        term, script = _term(rng)
        if term.casefold() not in taken:
            taken.add(term.casefold())
            lines.append(f"{term}\t{'; '.join(_meanings(rng))}")
            scripts.append(script)
    rows = parse_bulk("\n".join(lines)).rows
    store.bulk_add(folder, rows)
    words = store.words(folder, 0, count)
    by_term = dict(zip((line.split("\t")[0] for line in lines), scripts, strict=True))
    for word in words:
        if rng.random() < 0.1:
            script = by_term[word.term]
            _annotate(store, rng, word.id, script)


def _annotate(store: Store, rng: random.Random, word: WordId, script: str) -> None:
    note = " ".join(rng.choice(_GLOSS) for _ in range(rng.randint(5, 40)))
    lang = rng.choice(_LANG_TAGS.get(script, [""]))
    store.update_word(word, WordPatch(notes=note.capitalize() + ".", lang=lang))


def _split(rng: random.Random, total: int, parts: int) -> list[int]:
    """`total` words over `parts` folders, unevenly (a few big folders, many small ones)."""
    weights = [rng.paretovariate(1.5) for _ in range(parts)]
    scale = total / sum(weights)
    counts = [int(w * scale) for w in weights]
    for i in range(total - sum(counts)):
        counts[i % parts] += 1
    return counts


def _queries(rng: random.Random, store: Store, count: int) -> list[str]:
    """What people type: term prefixes, meaning words, two-word and unicode queries, misses."""
    sample = [
        w
        for f in store.folders()[:: max(1, len(store.folders()) // 50)]
        for w in store.words(f.id, 0, 20)
    ]
    picks = rng.sample(sample, min(len(sample), count))
    queries = []
    for i, word in enumerate(picks):
        kind = i % 5
        if kind == 0 and len(word.meanings[0].split()) > 1:
            queries.append(" ".join(word.meanings[0].split()[:2]))
        elif kind == 1:
            queries.append(rng.choice(_GLOSS))
        elif kind == 4 and i % 10 == 4:
            queries.append(f"qx{rng.randint(100, 999)}zz")  # matches nothing
        else:
            queries.append(word.term.split()[0][:10])
    return queries


def _bulk_text(rng: random.Random, count: int) -> str:
    taken: set[str] = set()
    lines = []
    while len(lines) < count:
        term, _ = _term(rng)
        if term.casefold() not in taken:
            taken.add(term.casefold())
            lines.append(f"{term} - {'; '.join(_meanings(rng))}")
    return "\n".join(lines)


def _study_history(store: Store, rng: random.Random, size: Size) -> None:
    """Every word studied both ways (two cards each), `size.due` of them due today, and
    `size.reviews` rows of history spread over the past year. Written straight to the tables:
    a million grades through the scheduler would take minutes and add nothing to measure."""
    store.study.set_options(None, StudyOptions(directions="both"))
    db, now = store.study.db, int(time.time() * 1000)
    words = [r[0] for r in db.all("SELECT id FROM word WHERE meanings != '[]'")]
    cards = [(w, d) for w in words for d in ("forward", "reverse")]
    due = set(rng.sample(range(len(cards)), min(size.due, len(cards))))
    per_card = [size.reviews // len(cards)] * len(cards)
    for i in range(size.reviews - sum(per_card)):
        per_card[i] += 1
    # The capture triggers would copy every row as JSON for undo; a seeded history needs none.
    for table in ("card", "review"):
        db.execute(f"DROP TRIGGER temp.capture_{table}_insert")
    with db.transaction():
        rows = []
        for i, (word, direction) in enumerate(cards):
            stability = rng.lognormvariate(2.5, 1.2)
            next_due = (
                now - rng.randint(0, 5 * DAY_MS)
                if i in due
                else now + rng.randint(2 * DAY_MS, 200 * DAY_MS)
            )
            last = next_due - int(stability * DAY_MS)
            difficulty, lapses = rng.uniform(1, 10), rng.randint(0, 3)
            rows.append(
                (i + 1, word, direction, stability, difficulty, next_due, last, per_card[i], lapses)
            )
        db.executemany(
            "INSERT INTO card (id, word_id, folder_id, direction, state, stability, difficulty, "
            f"due, last_review, reps, lapses, created_at, updated_at) SELECT ?1, ?2, "
            f"(SELECT folder_id FROM word WHERE id = ?2), ?3, {CardState.REVIEW}, ?4, ?5, ?6, "
            "?7, ?8, ?9, ?7, ?7",
            rows,
        )
        db.executemany(
            "INSERT INTO review (card_id, rating, reviewed_at, duration_ms, mode, state_before, "
            "stability_before, difficulty_before, due_before, last_review_before, study_day) "
            "VALUES (?1, ?2, ?3, ?4, 'flashcard', ?5, ?6, ?7, ?8, ?9, (?3 - ?10) / ?11)",
            _reviews(rng, per_card, now),
        )
    install_capture(db)


def _reviews(
    rng: random.Random, per_card: list[int], now: int
) -> Iterator[tuple[int | float, ...]]:
    """Each card's reviews in time order over the past year: the first saw it new."""
    for card, count in enumerate(per_card, start=1):
        times = sorted(now - rng.randint(DAY_MS, 365 * DAY_MS) for _ in range(count))
        for n, at in enumerate(times):
            rating = rng.choices((1, 2, 3, 4), weights=(12, 15, 63, 10))[0]
            before = CardState.REVIEW if n else CardState.NEW
            duration = rng.randint(1_500, 20_000)
            # Study days in UTC with the default day start, as the schema 7 migration counts.
            start = DEFAULT_DAY_START_HOUR * 3_600_000
            yield (
                card,
                rating,
                at,
                duration,
                before,
                3.0 * n,
                5.0,
                at,
                at - DAY_MS * n,
                start,
                DAY_MS,
            )


def build(size: Size) -> Workload:
    rng = random.Random(size.seed)
    store = Store.open()
    folders = _folders(store, rng, size.folders)
    inbox, big = folders[0][0], folders[1][0]
    rest = [f for f, _ in folders[2:]]
    _fill(store, rng, big, size.big_folder)
    for folder, count in zip(
        rest, _split(rng, size.words - size.big_folder, len(rest)), strict=True
    ):
        if count:
            _fill(store, rng, folder, count)
    for folder in rest[::10]:
        body = f"# {rng.choice(_TOPICS)}\n\n" + " ".join(rng.choice(_GLOSS) for _ in range(80))
        store.add_note(NewNote(folder_id=folder, title=rng.choice(_GLOSS).title(), body=body))
    _study_history(store, rng, size)
    tree = store.folder_tree()
    widest = max(tree, key=lambda r: len(store.children(r.folder.id))).folder.id
    # Edits happen in an ordinary folder: one of about 50 words.
    edit = min((r for r in tree if r.folder.id != big), key=lambda r: abs(r.word_count - 50))
    return Workload(
        store=store,
        size=size,
        big_folder=big,
        inbox=inbox,
        edit_folder=edit.folder.id,
        widest_folder=widest,
        queries=_queries(rng, store, size.queries),
        bulk_text=_bulk_text(rng, size.bulk),
    )
