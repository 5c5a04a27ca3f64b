"""The keyword router: examples people will type, and properties over any text at all."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.agents.router import Agent, route

ARCHITECT_VERBS = ["create", "add", "delete", "move", "rename", "organise", "import", "tag"]
SCHOLAR_WORDS = ["explain", "define", "etymology", "meaning", "example", "mnemonic", "quiz"]
ANY_TEXT = st.text(max_size=200)


@pytest.mark.parametrize(
    ("text", "agent", "reason"),
    [
        (
            "Create a folder called Cardiology and add 10 heart terms",
            "architect",
            "Architect: 'create', 'folder', 'add'",
        ),
        ("Explain the etymology of tachycardia", "scholar", "Scholar: 'explain', 'etymology'"),
        ("What does 'delete' mean?", "scholar", "Scholar: 'what', 'mean'"),
        ('Add "explain" to my list', "architect", "Architect: 'add'"),
        ("Moving these into Biology, please", "architect", "Architect: 'move'"),
        ("ＣＲＥＡＴＥ a FOLDER!!!", "architect", "Architect: 'create', 'folder'"),
        (
            "Mitochondria: organisé… ÉXPLAIN?",
            "scholar",
            "Scholar: ambiguous ('organise' vs 'explain'), so answering without changing anything",
        ),
        ("", "scholar", "Scholar: no action words, so answering without changing anything"),
        (
            "mitochondria",
            "scholar",
            "Scholar: no action words, so answering without changing anything",
        ),
        ("Give me examples for aorta", "scholar", "Scholar: 'example'"),
        ("Move the words which are about the heart", "architect", "Architect: 'move'"),
        ("What's his address?", "scholar", "Scholar: 'what'"),
        # A keyword counts once, however often it comes back.
        (
            "Add aorta, meaning main artery, and atrium, meaning upper chamber, to my heart folder",
            "architect",
            "Architect: 'add', 'folder'",
        ),
        # Pasted lines are what the request is about; its first line says what to do.
        (
            "Create a folder called Biology with these words:\n"
            + "\n".join(f"cell{i} - the meaning, an example and its origin" for i in range(50)),
            "architect",
            "Architect: 'create', 'folder'",
        ),
        (
            "Explain these:\nmove the folder\ndelete a word\nrename a tag",
            "scholar",
            "Scholar: 'explain'",
        ),
        # A first line without keywords leaves the choice to the whole request.
        ("Cardiology\nadd aorta and atrium", "architect", "Architect: 'add'"),
    ],
)
def test_examples(text: str, agent: Agent, reason: str) -> None:
    result = route(text)
    assert (result.agent, result.reason) == (agent, reason)


@pytest.mark.parametrize(
    ("text", "agent", "reason"),
    [
        (
            "Add the word osmosis to Biology with the meaning water crossing a membrane",
            "architect",
            "Architect: 'add' opens the request (over 'meaning')",
        ),
        (
            "Change the meaning of aorta to main artery",
            "architect",
            "Architect: 'change' opens the request (over 'meaning')",
        ),
        (
            "Please put an example sentence in the notes of aorta",
            "architect",
            "Architect: 'put' opens the request (over 'example')",
        ),
        (
            "Explain how to move a folder",
            "scholar",
            "Scholar: 'explain' opens the request (over 'move', 'folder')",
        ),
        ("Can you tell me what a subfolder is?", "scholar", "Scholar: 'tell', 'what'"),
    ],
)
def test_the_verb_a_request_opens_with_is_what_it_asks(
    text: str, agent: Agent, reason: str
) -> None:
    """Issue 25: "Add the word X … with the meaning …" went to the Scholar as a tie."""
    result = route(text)
    assert (result.agent, result.reason) == (agent, reason)


def test_an_override_says_it_was_the_users_choice() -> None:
    assert route("explain aorta", "architect").reason == "Architect: chosen by you"
    assert route("delete everything", "scholar").agent == "scholar"


@given(
    st.sampled_from(["", "please ", "can you ", "Could you please ", "ok, so "]),
    st.sampled_from(ARCHITECT_VERBS),
    st.lists(st.sampled_from([*SCHOLAR_WORDS, "the", "word", "aorta", "with", "what"]), max_size=8),
)
def test_a_request_that_opens_with_a_write_verb_goes_to_the_architect(
    opener: str, verb: str, rest: list[str]
) -> None:
    assert route(f"{opener}{verb} {' '.join(rest)}").agent == "architect"


@given(
    st.sampled_from(["", "please ", "can you "]),
    st.sampled_from(["explain", "define", "teach", "describe", "translate"]),
    st.lists(st.sampled_from([*ARCHITECT_VERBS, "folder", "the", "how", "to"]), max_size=8),
)
def test_a_request_that_opens_with_a_teaching_verb_goes_to_the_scholar(
    opener: str, verb: str, rest: list[str]
) -> None:
    assert route(f"{opener}{verb} {' '.join(rest)}").agent == "scholar"


@given(ANY_TEXT, st.sampled_from(["architect", "scholar"]))
def test_override_always_wins(text: str, override: Agent) -> None:
    assert route(text, override).agent == override


@given(ANY_TEXT)
def test_total_and_deterministic(text: str) -> None:
    first = route(text)
    assert first == route(text)
    assert first.agent in ("architect", "scholar")
    assert first.reason.startswith(first.agent.capitalize() + ": ")


@given(ANY_TEXT, st.sampled_from(SCHOLAR_WORDS), st.booleans())
def test_adding_a_scholar_word_never_turns_scholar_into_architect(
    text: str, word: str, before: bool
) -> None:
    if route(text).agent == "scholar":
        longer = f"{word} {text}" if before else f"{text} {word}"
        assert route(longer).agent == "scholar"


@given(ANY_TEXT, st.sampled_from(ARCHITECT_VERBS), st.booleans())
def test_adding_a_write_verb_never_turns_architect_into_scholar(
    text: str, word: str, before: bool
) -> None:
    if route(text).agent == "architect":
        longer = f"{word} {text}" if before else f"{text} {word}"
        assert route(longer).agent == "architect"


@given(st.data(), st.integers(1, 4))
def test_ties_go_to_the_scholar(data: st.DataObject, count: int) -> None:
    verbs = data.draw(
        st.lists(st.sampled_from(ARCHITECT_VERBS), min_size=count, max_size=count, unique=True)
    )
    words = data.draw(
        st.lists(st.sampled_from(SCHOLAR_WORDS), min_size=count, max_size=count, unique=True)
    )
    # Opened by what the request is about: a verb first would say what it asks for.
    text = "aorta: " + " ".join(data.draw(st.permutations(verbs + words)))
    result = route(text)
    assert result.scores["architect"] == result.scores["scholar"]
    assert result.agent == "scholar"


@given(st.text(alphabet="0123456789 .,;:!?-_()[]{}@#%&*+=/\\|~^`<>\n\t", max_size=100))
def test_no_keywords_means_scholar(text: str) -> None:
    assert route(text).agent == "scholar"
    assert route(text).scores == {"architect": 0, "scholar": 0}


def _disguise(word: str, data: st.DataObject) -> str:
    """The same word as people and keyboards type it: mixed case, accents, full width."""
    letters = []
    for letter in word:
        typed = letter.upper() if data.draw(st.booleans()) else letter
        if data.draw(st.booleans()):
            typed = chr(ord(typed) + 0xFEE0)  # the full-width form
        if data.draw(st.booleans()):
            typed += "\u0301"  # a combining acute accent
        letters.append(typed)
    return "".join(letters)


@given(st.data(), st.sampled_from(ARCHITECT_VERBS + SCHOLAR_WORDS))
def test_casing_accents_width_and_punctuation_do_not_change_the_choice(
    data: st.DataObject, word: str
) -> None:
    punctuation = data.draw(st.sampled_from(["", "!", "?", "…", ",", "¿", "("]))
    disguised = f"{punctuation}{_disguise(word, data)}{punctuation}"
    assert route(disguised).agent == route(word).agent
    assert route(disguised).scores == route(word).scores
