"""An open folder's words: the add form, filter and sort, the page of rows (each with its
actions, or its edit form) and the buttons to page through them."""

from __future__ import annotations

from app.domain import Folder, Word
from app.store.word_list import WordPage
from app.text.nodes import El, Node, h
from app.ui.reuse import Reused
from app.ui.state import ViewState
from app.ui.widgets import action, block, colour_select, form_error, small_button
from app.ui.word_tools_view import no_match, shown, word_tools


def words_block(folder: Folder, lang: str, page: WordPage, total: int, state: ViewState) -> El:
    rows = [
        word_form(word, folder.id)
        if state.editing_word == word.id
        else _word(word, highlighted=state.route.word_id == word.id)
        for word in page.words
    ]
    query = state.word_query
    if rows:
        listing = h("ul", {"class": "words", "aria-label": "Words"}, rows)
    elif query.needle:
        listing = h(
            "p", {"class": "empty"}, no_match(query), " ", action("Clear filter", "clear-filter")
        )
    else:
        listing = h("p", {"class": "empty"}, "No words yet. Add one above or paste a list.")
    end = page.start + len(page.words)
    return block(
        "words-title",
        f"Words ({total:,})",
        small_button("Bulk paste…", "bulk-paste", folder.id),
        word_form(None, folder.id, lang),
        word_tools(query, page, total) if total else None,
        _more(shown(page), "Show earlier", "show-earlier") if rows and page.start else None,
        listing,
        _more(shown(page), "Show more", "show-more") if end < page.matching else None,
    )


def _more(text: str, label: str, name: str) -> El:
    return h(
        "div", {"class": "more"}, h("span", {"class": "meta-line"}, text, " "), action(label, name)
    )


_ROWS: Reused[tuple[object, ...]] = Reused()


def _word(word: Word, *, highlighted: bool) -> El:
    key = (word.id, word.term, tuple(word.meanings), word.notes, word.color, word.lang, highlighted)
    return _ROWS.get(key, lambda: _word_row(word, highlighted=highlighted))


def _word_row(word: Word, *, highlighted: bool) -> El:
    return h(
        "li",
        {
            "class": "word",
            "id": f"word-{word.id}",
            "data-word-id": word.id,
            "data-color": word.color,
            "data-highlight": "true" if highlighted else None,
            "draggable": "true",
        },
        h(
            "div",
            {"class": "word-main"},
            h(
                "span",
                {"class": "word-term", "lang": word.lang or None},
                word.term,
            ),
            h("span", {"class": "word-lang"}, word.lang) if word.lang else None,
            h("ol", {"class": "word-meanings"}, (h("li", None, m) for m in word.meanings))
            if word.meanings
            else None,
            h("div", {"class": "word-notes"}, word.notes) if word.notes else None,
        ),
        h(
            "div",
            {"class": "word-actions"},
            pronounce_button(word),
            action("Edit", "edit-word", word.id, **{"aria-label": f"Edit {word.term}"}),
            action("Move…", "move-word", word.id, **{"aria-label": f"Move {word.term}"}),
            action(
                "Delete",
                "delete-word",
                word.id,
                **{"class": "danger", "aria-label": f"Delete {word.term}"},
            ),
        ),
    )


def pronounce_button(word: Word) -> El:
    """Says the term aloud in its language (the browser's speaker handles it). Its speaker
    icon is drawn by the stylesheet: an emoji was an empty box where no emoji font is."""
    label = {"class": "pronounce", "aria-label": f"Pronounce {word.term}", "title": "Pronounce (P)"}
    return action("", "pronounce", word.id, **label)


def word_form(word: Word | None, folder_id: int, default_lang: str = "") -> El:
    """Edit `word`, or add one (None), which takes the folder's `default_lang` if it gives none."""
    prefix = f"word-{word.id}" if word else "word-new"
    main_fields: list[Node] = [
        h("label", {"for": f"{prefix}-term"}, "Term"),
        h(
            "input",
            {
                "id": f"{prefix}-term",
                "name": "term",
                "required": True,
                "autocomplete": "off",
                "value": word.term if word else "",
            },
        ),
        h("label", {"for": f"{prefix}-meanings"}, "Meanings (one per line)"),
        h(
            "textarea",
            {"id": f"{prefix}-meanings", "name": "meanings", "rows": 2 if word else 1},
            "\n".join(word.meanings) if word else "",
        ),
    ]
    more_fields: list[Node] = [
        h("label", {"for": f"{prefix}-notes"}, "Notes"),
        h(
            "textarea",
            {"id": f"{prefix}-notes", "name": "notes", "rows": 2},
            word.notes if word else "",
        ),
        h("label", {"for": f"{prefix}-lang"}, "Language"),
        h(
            "input",
            {
                "id": f"{prefix}-lang",
                "name": "lang",
                "placeholder": f"Folder default: {default_lang}"
                if default_lang and not word
                else "e.g. en, es-MX",
                "value": word.lang if word else "",
            },
        ),
        h("label", {"for": f"{prefix}-color"}, "Colour"),
        colour_select("color", word.color if word else "none", f"{prefix}-color"),
    ]
    buttons: list[Node] = [
        h("button", {"type": "submit", "class": "primary"}, "Save word" if word else "Add word")
    ]
    if word:
        buttons.insert(0, action("Cancel", "cancel-word"))
    form = h(
        "form",
        {
            "class": "word-main" if word else "add-word",
            "data-action": "save-word",
            "data-id": word.id if word else None,
            "data-folder": folder_id,
            "data-clears": None if word else "",  # comes back empty: emptied when sent
            "aria-label": f"Edit {word.term}" if word else "Add a word",
        },
        h("div", {"class": "form-grid"}, main_fields),
        # A new word needs only a term and meanings; the rest folds away to keep the list close.
        h("div", {"class": "form-grid"}, more_fields)
        if word
        else h(
            "details",
            {"class": "more-fields"},
            h("summary", None, "Notes, language and colour"),
            h("div", {"class": "form-grid"}, more_fields),
        ),
        form_error(),
        h("div", {"class": "form-actions"}, buttons),
    )
    if word is None:
        return form
    return h("li", {"class": "word", "data-word-id": word.id}, form)
