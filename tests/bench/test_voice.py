"""The voice figures' arithmetic: one turn's page times paired into its two latencies, and the
growth per turn of what a hundred turns leave behind."""

from __future__ import annotations

from collections import Counter

import pytest

from bench.heap_snapshot import sizes, split_growth
from bench.voice import growth, turn_latencies

TURN = {
    "finals": [100.0],
    "requests": [90.0, 104.5, 130.0],  # one before the final transcript belongs to no turn
    "sentences": [101.0, 150.0, 170.0],  # a mark before the request is not this answer's
    "spoken": [120.0, 152.0, 171.0],
}


def test_a_turn_pairs_each_moment_with_the_first_one_after_it() -> None:
    assert turn_latencies(TURN) == (4.5, 2.0)


def test_a_turn_that_never_reached_the_provider_or_the_speaker_says_which() -> None:
    with pytest.raises(ValueError, match="no chat request after the final transcript"):
        turn_latencies({**TURN, "requests": [90.0]})
    with pytest.raises(ValueError, match="no speech after the first streamed sentence"):
        turn_latencies({**TURN, "spoken": [120.0]})
    with pytest.raises(ValueError, match="no final transcript"):
        turn_latencies({**TURN, "finals": []})


def test_growth_is_the_least_squares_slope_per_turn() -> None:
    assert growth([0, 10, 20, 30], [5.0, 6.0, 7.0, 8.0]) == pytest.approx(0.1)
    # Noise around a flat line is no growth; one spike does not make a trend of its own.
    assert growth([0, 10, 20, 30], [5.0, 5.2, 4.8, 5.0]) == pytest.approx(-0.004)
    assert growth([0, 10], [3.0, 3.0]) == 0.0


def test_growth_needs_two_checkpoints() -> None:
    with pytest.raises(ValueError, match="two checkpoints"):
        growth([0], [1.0])


def _snapshot(nodes: list[tuple[str, str, int]]) -> dict[str, object]:
    types = ["hidden", "object", "native", "code"]
    strings = sorted({name for _, name, _ in nodes})
    flat = [
        value
        for node_type, name, size in nodes
        for value in (types.index(node_type), strings.index(name), size, 0)
    ]
    meta = {"node_fields": ["type", "name", "self_size", "edge_count"], "node_types": [types]}
    return {"snapshot": {"meta": meta}, "strings": strings, "nodes": flat}


def test_a_snapshot_is_summed_by_kind() -> None:
    snapshot = _snapshot([("object", "Turn", 40), ("object", "Turn", 24), ("native", "Div", 8)])
    assert sizes(snapshot) == Counter({("object", "Turn"): 64, ("native", "Div"): 8})


def test_growth_is_split_between_the_page_and_what_the_browser_keeps_itself() -> None:
    before = sizes(_snapshot([("object", "Turn", 40), ("native", "MediaStream", 100)]))
    after = sizes(
        _snapshot(
            [
                ("object", "Turn", 40),
                ("object", "Turn", 40),
                ("native", "MediaStream", 300),
                ("native", "LayoutShift", 50),
                ("code", "system / InstructionStream", 70),
            ]
        )
    )
    assert split_growth(before, after) == (40, 320)
