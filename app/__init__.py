"""Lexical: a local-first vocabulary studio that runs in the browser on PyScript."""
