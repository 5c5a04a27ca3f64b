"""Talking to language models: provider-neutral messages, the `ModelClient` protocol, typed
provider errors and the HTTP transport seam. One module per wire format lives beside this.

Nothing here imports the browser: the browser's fetch sits behind `transport.Transport`, so the
same client code runs under CPython in tests.

Map: `messages` (turns, `ModelClient`), `transport`, `errors`, `cancel` (Stop), `sse`, `wire`
and `failures` (shared by the clients), `openai` and `gemini` (+ `gemini_schema`), `retry`,
`spending`, and `settings` (`ProviderSettings`, `make_client`, `test_key`). Provider voice:
`transcribe` and `synthesize` (sharing `audio`: cap, retries, usage), `multipart` and `wav`.
See docs/decisions/008-model-providers.md.
"""
