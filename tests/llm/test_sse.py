"""The SSE parser: events come out whole however the bytes are cut, with the standard's rules."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from app.llm.sse import SseEvent, SseParser


def parse(*chunks: bytes) -> list[SseEvent]:
    parser = SseParser()
    return [event for chunk in chunks for event in parser.feed(chunk)]


def cut(data: bytes, points: list[int]) -> list[bytes]:
    edges = sorted({0, len(data), *(p % (len(data) + 1) for p in points)})
    return [data[a:b] for a, b in itertools.pairwise(edges)]


STREAM = (
    "\ufeff: keep-alive\r\n"
    'data: {"text": "héllo 🌍"}\r\n\r\n'
    "event: usage\nid: 7\ndata: line one\ndata: line two\n\n"
    "data:no-space\r\r"
    "data\n\n"
    "retry: 1000\nunknown: field\n\n"
    "data: [DONE]\n\n"
).encode()

EXPECTED = [
    SseEvent(data='{"text": "héllo 🌍"}'),
    SseEvent(data="line one\nline two", event="usage", id="7"),
    SseEvent(data="no-space", id="7"),
    SseEvent(data="", id="7"),
    SseEvent(data="[DONE]", id="7"),
]


def test_a_whole_stream_gives_every_event_in_order() -> None:
    assert parse(STREAM) == EXPECTED


def test_byte_at_a_time_gives_the_same_events() -> None:
    assert parse(*(STREAM[i : i + 1] for i in range(len(STREAM)))) == EXPECTED


@given(st.lists(st.integers(min_value=0, max_value=len(STREAM)), max_size=40))
def test_any_cut_gives_the_same_events(points: list[int]) -> None:
    assert parse(*cut(STREAM, points)) == EXPECTED


def test_a_cr_at_a_chunk_edge_followed_by_lf_is_one_line_end() -> None:
    assert parse(b"data: a\r", b"\n\r", b"\ndata: b\r\n\r\n") == [
        SseEvent(data="a"),
        SseEvent(data="b"),
    ]


def test_a_lone_cr_ends_a_line_even_when_the_next_chunk_starts_a_field() -> None:
    assert parse(b"data: a\r", b"\r", b"data: b\r\r") == [SseEvent(data="a"), SseEvent(data="b")]


def test_a_utf8_sequence_split_across_chunks_is_decoded_whole() -> None:
    raw = "data: 🌍é\n\n".encode()
    split = raw.index(b"\xf0") + 2
    assert parse(raw[:split], raw[split:]) == [SseEvent(data="🌍é")]


def test_invalid_utf8_is_replaced_not_fatal() -> None:
    assert parse(b"data: a\xffb\n\n") == [SseEvent(data="a\ufffdb")]


def test_an_event_without_its_blank_line_is_never_dispatched() -> None:
    parser = SseParser()
    assert parser.feed(b'data: {"partial": tr') == []
    assert parser.mid_event
    assert parser.feed(b"ue}\n") == []
    assert parser.mid_event
    assert parser.feed(b"\n") == [SseEvent(data='{"partial": true}')]
    assert not parser.mid_event


def test_comments_and_empty_events_dispatch_nothing() -> None:
    parser = SseParser()
    assert parser.feed(b": ping\n\n: ping\n\nevent: x\n\n") == []
    assert not parser.mid_event


def test_an_id_with_nul_is_ignored() -> None:
    assert parse(b"id: a\0b\ndata: x\n\n") == [SseEvent(data="x")]
