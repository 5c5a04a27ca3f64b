"""Any bytes under any name either import or are refused with InvalidInput: no other exception,
however the file was mangled (random bytes, or a valid export with bytes changed or cut). What
reads can also be planned against a workspace: a damaged study history must not fail later."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.domain import InvalidInput
from tests.anki_decks import card_ids, sample_deck, with_revlog
from tests.store.transfer.studied import studied_store
from tests.store.transfer.workspaces import parse, preview, sample_store

NAMES = st.sampled_from(["x.json", "x.csv", "x.tsv", "x.txt", "x.apkg", "x.sqlite", "x.bin"])


def _deck_with_history() -> bytes:
    deck = sample_deck()
    reviews = [
        (1_690_000_000_000 + n, card, 3, 5_000, 0) for n, card in enumerate(card_ids(deck).values())
    ]
    return with_revlog(deck, reviews)


TARGET = studied_store()
VALID = {
    "x.json": studied_store().export("json"),
    "x.sqlite": studied_store().export("sqlite"),
    "x.csv": sample_store().export("csv"),
    "x.apkg": sample_deck(),
    "history.apkg": _deck_with_history(),
}


def _survives(name: str, data: bytes) -> None:
    try:
        parsed = parse(name, data)
    except InvalidInput as exc:
        refusal = exc.message
    else:
        for mode in parsed.modes:
            preview(TARGET, parsed, mode)
        return
    assert refusal.strip()


@settings(max_examples=150, deadline=None)
@given(NAMES, st.binary(max_size=2_000))
def test_random_bytes_are_imported_or_refused_cleanly(name: str, data: bytes) -> None:
    _survives(name, data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(VALID)),
    st.lists(st.tuples(st.integers(0, 10**9), st.integers(0, 255)), max_size=8),
    st.integers(0, 10**9),
)
def test_mangled_exports_are_imported_or_refused_cleanly(
    name: str, flips: list[tuple[int, int]], cut: int
) -> None:
    data = bytearray(VALID[name])
    for at, value in flips:
        data[at % len(data)] = value
    _survives(name, bytes(data[: max(1, cut % (len(data) + 1))]))
