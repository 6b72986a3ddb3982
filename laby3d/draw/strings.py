"""Every sentence a pupil or teacher reads in a document, in English and French.

One table: a key, then the text per language, with ``{named}`` fields filled by :func:`text`.
French follows French typography (a space before ``:``).

>>> text("name", "fr"), text("exit", "en")
('Nom :', 'Exit')
>>> text("page", "fr", page=2, pages=5)
'page 2/5'
"""

from __future__ import annotations

from typing import Literal, get_args

from laby3d.errors import InternalError, ParameterError

Language = Literal["en", "fr"]
LANGUAGES: tuple[str, ...] = get_args(Language)

STRINGS: dict[str, dict[str, str]] = {
    "name": {"en": "Name:", "fr": "Nom :"},
    "class": {"en": "Class:", "fr": "Classe :"},
    "date": {"en": "Date:", "fr": "Date :"},
    "instruction": {
        "en": "Draw the path from the entrance to the exit without crossing a wall.",
        "fr": "Trace le chemin de l’entrée à la sortie sans traverser de mur.",
    },
    "entrance": {"en": "Entrance", "fr": "Entrée"},
    "exit": {"en": "Exit", "fr": "Sortie"},
    "key_title": {"en": "Answer key", "fr": "Corrigé"},
    "page": {"en": "page {page}/{pages}", "fr": "page {page}/{pages}"},
    "maze_print": {
        "en": "{algorithm} · {rows}×{cols} · seed {seed}",
        "fr": "{algorithm} · {rows}×{cols} · graine {seed}",
    },
    "lesson_title": {
        "en": "{algorithm}: a {rows}×{cols} maze, step by step",
        "fr": "{algorithm} : un labyrinthe {rows}×{cols}, étape par étape",
    },
    "lesson_counts": {
        "en": "step {opened}/{total} · zones: {zones} · walls standing: {walls}/{all_walls}",
        "fr": "étape {opened}/{total} · zones : {zones} · murs debout : {walls}/{all_walls}",
    },
    "lesson_rejected": {"en": " · walls rejected: {rejected}", "fr": " · murs refusés : {rejected}"},
    "lesson_legend": {
        "en": "colour: zone (touching zones differ) · black: walls between zones · grey: walls inside a zone",
        "fr": "couleur : zone (voisines différentes) · noir : murs entre deux zones · gris : murs dans une zone",
    },
    "lesson_legend_opened": {"en": "orange: wall just opened", "fr": "orange : mur qui vient d’être ouvert"},
    "lesson_legend_rejected": {
        "en": "orange: wall just opened · red: walls rejected (both cells already in one zone)",
        "fr": "orange : mur ouvert · rouge : murs refusés (les deux cases déjà dans une zone)",
    },
}


def check_language(lang: object) -> str:
    """``lang`` itself when it is one of :data:`LANGUAGES`; a :class:`ParameterError` otherwise."""
    if lang not in LANGUAGES:
        raise ParameterError(f"must be one of {', '.join(LANGUAGES)}, got {lang!r}", field="lang")
    return str(lang)


def text(key: str, lang: str, **values: object) -> str:
    """The sentence ``key`` in ``lang``, its ``{fields}`` filled from ``values``."""
    check_language(lang)
    try:
        template = STRINGS[key][lang]
    except KeyError:
        raise InternalError(f"no text {key!r} in {lang!r}") from None
    return template.format(**values)
