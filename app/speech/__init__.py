"""Spoken output, pure: which of the browser's voices speaks a language, the user's voice
settings, who speaks when the browser cannot (the provider, else nobody), what the page has
learnt of the browser's speech engine, how long each utterance is waited for, and the
sentences said when speech cannot happen. The browser side that drives `speechSynthesis` is
app/browser/speaker.py."""
