"""Gemini answers as the REST API sends them (checked against `google.genai` types)."""

from __future__ import annotations

from typing import Any

SIGNATURE = "EiQBjz1rX0Fo0Rj2eJ0cc2lnbmF0dXJlLW9mLWEtdGhvdWdodC0wMDAx"
USAGE = {
    "promptTokenCount": 210,
    "candidatesTokenCount": 25,
    "totalTokenCount": 275,
    "thoughtsTokenCount": 40,
    "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 210}],
}


def answer(
    parts: list[dict[str, Any]], finish: str | None = "STOP", **extra: Any
) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"parts": parts, "role": "model"}, "index": 0}
    if finish:
        candidate["finishReason"] = finish
    return {
        "candidates": [candidate],
        "modelVersion": "gemini-3-pro-preview",
        "responseId": "mXFTaN6vJ4uJ1dkPkcW2sAQ",
        **extra,
    }


CALLS = answer(
    [
        {"text": "Let me check the folder first.", "thought": True},
        {
            "functionCall": {
                "name": "ADD_WORDS",
                "args": {"folder": "Cardiology", "words": ["aorta"]},
            },
            "thoughtSignature": SIGNATURE,
        },
        {"functionCall": {"name": "GET_FOLDER_STRUCTURE", "args": {}}},
    ],
    usageMetadata=USAGE,
)

TEXT_STREAM = [
    answer([{"text": "An aorta"}], None),
    answer([{"text": " is the main artery"}], None),
    answer([{"text": " 🫀."}], "STOP", usageMetadata=USAGE),
    # Gemini 3 may send the signature last, on an empty text part.
    answer([{"text": "", "thoughtSignature": SIGNATURE}], "STOP", usageMetadata=USAGE),
]

BLOCKED = {
    "promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},
    "usageMetadata": {"promptTokenCount": 9, "totalTokenCount": 9},
    "modelVersion": "gemini-2.5-flash",
}


def error(code: int, status: str, message: str, *details: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message, "status": status}
    if details:
        body["details"] = list(details)
    return {"error": body}


BAD_KEY = error(
    400,
    "INVALID_ARGUMENT",
    "API key not valid. Please pass a valid API key.",
    {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "reason": "API_KEY_INVALID",
        "domain": "googleapis.com",
        "metadata": {"service": "generativelanguage.googleapis.com"},
    },
)


def quota(quota_id: str, delay: str) -> dict[str, Any]:
    return error(
        429,
        "RESOURCE_EXHAUSTED",
        "You exceeded your current quota, please check your plan and billing details.",
        {
            "@type": "type.googleapis.com/google.rpc.QuotaFailure",
            "violations": [
                {
                    "quotaMetric": "generativelanguage.googleapis.com/"
                    "generate_content_free_tier_requests",
                    "quotaId": quota_id,
                    "quotaDimensions": {"location": "global", "model": "gemini-2.5-pro"},
                    "quotaValue": "50",
                }
            ],
        },
        {
            "@type": "type.googleapis.com/google.rpc.Help",
            "links": [{"description": "Learn more", "url": "https://ai.google.dev/gemini-api"}],
        },
        {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay},
    )


PER_DAY = quota("GenerateRequestsPerDayPerProjectPerModel-FreeTier", "39s")
PER_MINUTE = quota("GenerateRequestsPerMinutePerProjectPerModel-FreeTier", "7s")
FORBIDDEN = error(403, "PERMISSION_DENIED", "Permission denied: Consumer has been suspended.")
OVERLOADED = error(503, "UNAVAILABLE", "The model is overloaded. Please try again later.")
NOT_FOUND = error(404, "NOT_FOUND", "models/gemini-9 is not found for API version v1beta.")

MODELS_PAGE_1 = {
    "models": [
        {
            "name": "models/gemini-2.5-flash",
            "displayName": "Gemini 2.5 Flash",
            "supportedGenerationMethods": ["generateContent", "countTokens"],
        },
        {"name": "models/text-embedding-004", "supportedGenerationMethods": ["embedContent"]},
    ],
    "nextPageToken": "Chdtb2RlbHMvZ2VtaW5pLTIuNS1mbGFzaA==",
}
MODELS_PAGE_2 = {
    "models": [
        {
            "name": "models/gemini-2.5-pro",
            "supportedGenerationMethods": ["generateContent", "countTokens"],
        }
    ]
}
