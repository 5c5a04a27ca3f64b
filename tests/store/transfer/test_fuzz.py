"""Any bytes under any name either import or are refused with InvalidInput: no other exception,
however the file was mangled (random bytes, or a valid export with bytes changed or cut)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.domain import InvalidInput
from tests.anki_decks import sample_deck
from tests.store.transfer.workspaces import parse, sample_store

NAMES = st.sampled_from(["x.json", "x.csv", "x.tsv", "x.txt", "x.apkg", "x.sqlite", "x.bin"])
VALID = {
    "x.json": sample_store().export("json"),
    "x.sqlite": sample_store().export("sqlite"),
    "x.csv": sample_store().export("csv"),
    "x.apkg": sample_deck(),
}


def _survives(name: str, data: bytes) -> None:
    try:
        parse(name, data)
    except InvalidInput as exc:
        assert exc.message.strip()


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
