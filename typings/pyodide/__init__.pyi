"""Pyodide's Python package; Lexical uses only its `ffi` module."""
