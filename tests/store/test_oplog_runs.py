"""Log entries keep runs of like changes as columns (app/store/oplog.py): any changeset comes
back exactly, entries written before runs still read, and a run of the wrong shape is corrupt
even with a right checksum."""

from __future__ import annotations

import hashlib
import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.store.changes import TABLES, Change, Changeset
from app.store.oplog import CorruptEntryError, decode_entry, encode_entry

_values = st.one_of(
    st.none(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
)
_names = st.lists(st.sampled_from(["id", "name", "due", "stability", "ü", "a b"]), unique=True)


@st.composite
def _changes(draw: st.DrawFn) -> list[Change]:
    """Changes in runs that share a table, an operation and columns, and runs that do not."""
    changes: list[Change] = []
    for _ in range(draw(st.integers(0, 4))):
        table = draw(st.sampled_from(TABLES))
        op = draw(st.sampled_from(["insert", "update", "delete"]))
        old_names, new_names = draw(_names), draw(_names)
        for _ in range(draw(st.integers(1, 5))):

            def row(names: list[str]) -> dict[str, object]:
                return {name: draw(_values) for name in names}

            old = None if op == "insert" else row(old_names)
            new = None if op == "delete" else row(new_names)
            changes.append(Change(table, op, old, new))  # type: ignore[arg-type]
    return changes


@given(_changes(), st.text(max_size=10))
def test_any_changeset_comes_back_exactly(changes: list[Change], label: str) -> None:
    changeset = Changeset(label=label, changes=changes)
    seq, decoded = decode_entry(encode_entry(5, changeset))
    assert seq == 5
    assert decoded == changeset
    for ours, theirs in zip(decoded.changes, changes, strict=True):
        for got, was in ((ours.old, theirs.old), (ours.new, theirs.new)):
            assert (got is None) == (was is None)
            if got is not None and was is not None:
                assert list(got) == list(was)  # the columns in their order
                for a, b in zip(got.values(), was.values(), strict=True):
                    assert type(a) is type(b)
                    if isinstance(a, float):
                        assert math.copysign(1, a) == math.copysign(1, b)  # -0.0 stays -0.0


def test_a_run_of_like_changes_names_its_columns_once() -> None:
    rows = [
        Change("card", "update", {"id": i, "due": i, "stability": 1.5}, {"id": i, "due": i + 9})
        for i in range(1_000)
    ]
    text = encode_entry(1, Changeset("Reschedule", rows))
    assert text.count("stability") == 1
    assert len(text) < 40_000  # against about 70,000 with a key per value


def _signed(seq: int, body: object) -> str:
    """An entry whose checksum is right, whatever its body: as if written by hand."""
    text = json.dumps(body)
    checksum = hashlib.sha256(f"{seq}:{text}".encode()).hexdigest()
    return json.dumps({"seq": seq, "sum": checksum, "body": text})


def test_an_entry_written_before_runs_still_reads() -> None:
    change = {"table": "folder", "op": "insert", "old": None, "new": {"id": 1, "name": "A"}}
    _, changeset = decode_entry(_signed(2, {"label": "Add", "changes": [change]}))
    assert changeset.changes == [Change("folder", "insert", None, {"id": 1, "name": "A"})]


RUN = {"table": "card", "op": "update", "columns": [["id", "due"], ["id", "due"]]}


@pytest.mark.parametrize(
    "run",
    [
        {**RUN, "rows": [[[1, 2]], [[1, 3]]]},  # no such key: rows are "old" and "new"
        {**RUN, "old": [[1, 2]], "new": [[1, 3], [2, 3]]},  # a new row with no old one
        {**RUN, "old": [[1, 2, 3]], "new": [[1, 3]]},  # more values than columns
        {**RUN, "old": [[1, True]], "new": [[1, 3]]},  # SQLite has no booleans
        {**RUN, "old": [[1, [2]]], "new": [[1, 3]]},
        {**RUN, "old": [{"id": 1}], "new": [[1, 3]]},
        {**RUN, "columns": [["id", "id"], ["id", "due"]], "old": [[1, 2]], "new": [[1, 3]]},
        {**RUN, "columns": [["id", 2], ["id", "due"]], "old": [[1, 2]], "new": [[1, 3]]},
        {**RUN, "columns": "id", "old": [[1, 2]], "new": [[1, 3]]},
        {**RUN, "table": "sqlite_schema", "old": [[1, 2]], "new": [[1, 3]]},
        {**RUN, "old": None, "new": None},
    ],
)
def test_a_run_of_the_wrong_shape_is_corrupt_even_with_a_right_checksum(run: object) -> None:
    with pytest.raises(CorruptEntryError, match="unknown shape"):
        decode_entry(_signed(3, {"label": "x", "changes": [run]}))
