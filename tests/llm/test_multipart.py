"""The multipart/form-data encoder behind provider transcription."""

from __future__ import annotations

import email.parser
import email.policy
from email.message import EmailMessage

import pytest

from app.llm.multipart import FilePart, form_data

AUDIO = bytes(range(256)) * 4  # every byte value, CR and LF included


def parsed(content_type: str, body: bytes) -> EmailMessage:
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    assert isinstance(message, EmailMessage)
    return message


def test_fields_and_a_file_read_back_as_they_were_sent() -> None:
    content_type, body = form_data(
        {"model": "gpt-4o-mini-transcribe", "prompt": "aorta, Herz, 心臓\r\nnext line"},
        [FilePart("file", "speech.webm", "audio/webm", AUDIO)],
    )
    assert content_type.startswith("multipart/form-data; boundary=")
    parts = list(parsed(content_type, body).iter_parts())
    assert [p.get_param("name", header="content-disposition") for p in parts] == [
        "model",
        "prompt",
        "file",
    ]
    assert parts[0].get_payload(decode=True) == b"gpt-4o-mini-transcribe"
    assert parts[1].get_payload(decode=True) == "aorta, Herz, 心臓\r\nnext line".encode()
    assert parts[2].get_filename() == "speech.webm"
    assert parts[2].get_content_type() == "audio/webm"
    assert parts[2].get_payload(decode=True) == AUDIO


def test_the_body_has_the_exact_shape_servers_expect() -> None:
    _, body = form_data(
        {"model": "m"}, [FilePart("file", "a.wav", "audio/wav", b"RIFF")], boundary="XyZ"
    )
    assert body == (
        b"--XyZ\r\n"
        b'Content-Disposition: form-data; name="model"\r\n\r\n'
        b"m\r\n"
        b"--XyZ\r\n"
        b'Content-Disposition: form-data; name="file"; filename="a.wav"\r\n'
        b"Content-Type: audio/wav\r\n\r\n"
        b"RIFF\r\n"
        b"--XyZ--\r\n"
    )


def test_quotes_and_line_breaks_in_names_cannot_break_out_of_the_header() -> None:
    _, body = form_data({'a"\r\nX-Evil: 1': "v"}, [], boundary="b")
    assert b'name="a%22%0D%0AX-Evil: 1"' in body
    assert b"\r\nX-Evil" not in body


def test_a_boundary_never_appears_inside_what_it_separates() -> None:
    content_type, body = form_data({}, [FilePart("file", "f", "audio/wav", AUDIO)])
    boundary = content_type.split("boundary=")[1]
    assert AUDIO.count(boundary.encode()) == 0
    assert body.count(boundary.encode()) == 2


def test_a_chosen_boundary_found_in_the_content_is_refused() -> None:
    with pytest.raises(ValueError, match="boundary"):
        form_data({"prompt": "--abc--"}, [], boundary="abc")
