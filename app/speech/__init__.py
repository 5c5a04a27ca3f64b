"""Spoken output, pure: which of the browser's voices speaks a language, the user's voice
settings, and the sentences said when speech cannot happen. The browser side that drives
`speechSynthesis` is app/browser/speaker.py."""
