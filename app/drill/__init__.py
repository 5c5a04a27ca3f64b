"""The hands-free drill without the browser: the spoken command grammar, grading by response
time, the sentences it says and the state machine that joins a study session to listening.

The browser layer feeds the machine events (speech finished, what was heard, ticks, buttons)
and performs the effects it returns (say, listen, ask the Scholar); it never decides.
"""
