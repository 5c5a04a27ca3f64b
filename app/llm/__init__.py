"""Talking to language models: provider-neutral messages, the `ModelClient` protocol, typed
provider errors and the HTTP transport seam. One module per wire format lives beside this.

Nothing here imports the browser: the browser's fetch sits behind `transport.Transport`, so the
same client code runs under CPython in tests.
"""
