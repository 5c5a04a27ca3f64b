"""Voice without the browser: text made for the ear, sentence chunking while an answer
streams, spoken yes/no and choices, the listening state machine and the agents' voice persona.

The browser layer (app/browser/) adapts Web Speech and Web Audio and feeds their events in; every
decision with states or rules lives here so it runs, and is tested, under plain CPython.
"""
