"""Chat Completions answers as OpenAI sends them (shapes checked against the `openai` types)."""

from __future__ import annotations

from typing import Any

_ENVELOPE = {
    "id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
    "created": 1741569952,
    "model": "gpt-4.1-mini-2025-04-14",
    "system_fingerprint": "fp_6ec83003ad",
    "service_tier": "default",
}

USAGE = {
    "prompt_tokens": 120,
    "completion_tokens": 30,
    "total_tokens": 150,
    "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
    "completion_tokens_details": {
        "reasoning_tokens": 0,
        "audio_tokens": 0,
        "accepted_prediction_tokens": 0,
        "rejected_prediction_tokens": 0,
    },
}


def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        **_ENVELOPE,
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
        "usage": None,
    }


def usage_chunk() -> dict[str, Any]:
    return {**_ENVELOPE, "object": "chat.completion.chunk", "choices": [], "usage": USAGE}


TEXT_STREAM = [
    chunk({"role": "assistant", "content": "", "refusal": None}),
    chunk({"content": "An aorta is "}),
    chunk({"content": "the main artery 🫀."}),
    chunk({}, "stop"),
    usage_chunk(),
]

TOOL_STREAM = [
    chunk(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "index": 0,
                    "id": "call_DdmO9pD3xa9XTPNJ32zg2hcA",
                    "type": "function",
                    "function": {"name": "ADD_WORDS", "arguments": ""},
                }
            ],
            "refusal": None,
        }
    ),
    chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"folder": "Card'}}]}),
    chunk(
        {
            "tool_calls": [
                {
                    "index": 1,
                    "id": "call_2",
                    "type": "function",
                    "function": {"name": "GET_FOLDER_STRUCTURE", "arguments": ""},
                }
            ]
        }
    ),
    chunk(
        {"tool_calls": [{"index": 0, "function": {"arguments": 'iology", "words": ["aorta"]}'}}]}
    ),
    chunk({"tool_calls": [{"index": 1, "function": {"arguments": "{}"}}]}),
    chunk({}, "tool_calls"),
    usage_chunk(),
]


def completion(message: dict[str, Any], finish: str) -> dict[str, Any]:
    return {
        **_ENVELOPE,
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
        "usage": USAGE,
    }


TEXT_COMPLETION = completion(
    {"role": "assistant", "content": "Hello!", "refusal": None, "annotations": []}, "stop"
)

TOOL_COMPLETION = completion(
    {
        "role": "assistant",
        "content": None,
        "refusal": None,
        "annotations": [],
        "tool_calls": [
            {
                "id": "call_x1",
                "type": "function",
                "function": {"name": "ADD_WORDS", "arguments": '{"folder":"A","words":["b"]}'},
            },
            {
                "id": "call_x2",
                "type": "function",
                "function": {"name": "ADD_WORDS", "arguments": '{"folder": "A", "words": [oops'},
            },
        ],
    },
    "tool_calls",
)

BAD_KEY = {
    "error": {
        "message": "Incorrect API key provided: sk-test-***********************************6789. "
        "You can find your API key at https://platform.openai.com/account/api-keys.",
        "type": "invalid_request_error",
        "param": None,
        "code": "invalid_api_key",
    }
}

NO_QUOTA = {
    "error": {
        "message": "You exceeded your current quota, please check your plan and billing details.",
        "type": "insufficient_quota",
        "param": None,
        "code": "insufficient_quota",
    }
}

RATE_LIMITED = {
    "error": {
        "message": "Rate limit reached for gpt-4.1-mini on requests per min (RPM): Limit 3.",
        "type": "requests",
        "param": None,
        "code": "rate_limit_exceeded",
    }
}

MODELS = {
    "object": "list",
    "data": [
        {"id": "gpt-4.1-mini", "object": "model", "created": 1, "owned_by": "system"},
        {"id": "text-embedding-3-small", "object": "model", "created": 1, "owned_by": "system"},
        {"id": "gpt-4o", "object": "model", "created": 1, "owned_by": "system"},
        {"id": "whisper-1", "object": "model", "created": 1, "owned_by": "system"},
    ],
}
