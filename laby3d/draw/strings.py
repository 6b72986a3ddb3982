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
    "instruction_centre": {
        "en": "Start at the centre and draw the path to the exit without crossing a wall.",
        "fr": "Pars du centre et trace le chemin jusqu’à la sortie sans traverser de mur.",
    },
    "entrance": {"en": "Entrance", "fr": "Entrée"},
    "exit": {"en": "Exit", "fr": "Sortie"},
    "key_title": {"en": "Answer key", "fr": "Corrigé"},
    "page": {"en": "page {page}/{pages}", "fr": "page {page}/{pages}"},
    "maze_print": {
        "en": "{algorithm} · {size} · seed {seed}",
        "fr": "{algorithm} · {size} · graine {seed}",
    },
    "size_square": {"en": "{rows}×{cols}", "fr": "{rows}×{cols}"},
    "size_theta": {"en": "round, {rows} rings", "fr": "rond, {rows} anneaux"},
    "size_hex": {"en": "hexagons, {rows}×{cols}", "fr": "hexagones, {rows}×{cols}"},
    "size_triangle": {"en": "triangles, {rows}×{cols}", "fr": "triangles, {rows}×{cols}"},
    "lesson_title": {
        "en": "{algorithm}: {maze}, step by step",
        "fr": "{algorithm} : {maze}, étape par étape",
    },
    "lesson_maze_square": {"en": "a {rows}×{cols} maze", "fr": "un labyrinthe {rows}×{cols}"},
    "lesson_maze_theta": {"en": "a round maze of {rows} rings", "fr": "un labyrinthe rond de {rows} anneaux"},
    "lesson_maze_hex": {"en": "a {rows}×{cols} maze of hexagons", "fr": "un labyrinthe {rows}×{cols} d’hexagones"},
    "lesson_maze_triangle": {
        "en": "a {rows}×{cols} maze of triangles",
        "fr": "un labyrinthe {rows}×{cols} de triangles",
    },
    "lesson_counts": {
        "en": "step {opened}/{total} · zones: {zones} · walls standing: {walls}/{all_walls}",
        "fr": "étape {opened}/{total} · zones : {zones} · murs debout : {walls}/{all_walls}",
    },
    "lesson_rejected": {"en": " · walls rejected: {rejected}", "fr": " · murs refusés : {rejected}"},
    "lesson_loops": {
        "en": "\nloops closed after the tree: {loops}/{all_loops}",
        "fr": "\nboucles fermées après l’arbre : {loops}/{all_loops}",
    },
    "lesson_legend": {
        "en": "colour: zone (touching zones differ) · black: walls between zones · grey: walls inside a zone",
        "fr": "couleur : zone (voisines différentes) · noir : murs entre deux zones · gris : murs dans une zone",
    },
    "lesson_legend_opened": {"en": "orange: wall just opened", "fr": "orange : mur qui vient d’être ouvert"},
    "lesson_legend_rejected": {
        "en": "orange: wall just opened · red: walls rejected (both cells already in one zone)",
        "fr": "orange : mur ouvert · rouge : murs refusés (les deux cases déjà dans une zone)",
    },
    "handout_title": {"en": "Building a maze by merging zones", "fr": "Construire un labyrinthe par fusion de zones"},
    "handout_rule": {
        "en": "All the walls are closed at the start. Each cell has its own number: row × {cols} + column.\n"
        "1. Take the next wall of the table. It is named from its first cell: (row, column) and E (east)\n"
        "    or S (south); the second cell is the one on the other side.\n"
        "2. Write the numbers the two cells have now.\n"
        "3. Different numbers: open the wall, and every cell that has the second cell's number takes\n"
        "    the first cell's number. The same number: the wall stays closed (refused).\n"
        "When every cell has the same number, the maze is finished: one path joins any two cells.",
        "fr": "Au départ, tous les murs sont fermés. Chaque case a son numéro : ligne × {cols} + colonne.\n"
        "1. Prends le mur suivant du tableau. Il est nommé par sa 1re case : (ligne, colonne) et E (est)\n"
        "    ou S (sud) ; la 2e case est celle de l’autre côté.\n"
        "2. Écris les numéros qu’ont maintenant les deux cases.\n"
        "3. Numéros différents : ouvre le mur, et toutes les cases qui ont le numéro de la 2e case prennent\n"
        "    le numéro de la 1re. Même numéro : le mur reste fermé (refusé).\n"
        "Quand toutes les cases ont le même numéro, le labyrinthe est fini : un seul chemin relie deux cases.",
    },
    "handout_rule_shaped": {
        "en": "All the walls are closed at the start. Each cell has its own number, written in it below.\n"
        "1. Take the next wall of the table. It is named by its two cells, the first one with the smaller\n"
        "    number: 3 | 8 is the wall between cells 3 and 8.\n"
        "2. Write the numbers the two cells have now.\n"
        "3. Different numbers: open the wall, and every cell that has the second cell's number takes\n"
        "    the first cell's number. The same number: the wall stays closed (refused).\n"
        "When every cell has the same number, the maze is finished: one path joins any two cells.",
        "fr": "Au départ, tous les murs sont fermés. Chaque case a son numéro, écrit dedans ci-dessous.\n"
        "1. Prends le mur suivant du tableau. Il est nommé par ses deux cases, la 1re ayant le plus petit\n"
        "    numéro : 3 | 8 est le mur entre les cases 3 et 8.\n"
        "2. Écris les numéros qu’ont maintenant les deux cases.\n"
        "3. Numéros différents : ouvre le mur, et toutes les cases qui ont le numéro de la 2e case prennent\n"
        "    le numéro de la 1re. Même numéro : le mur reste fermé (refusé).\n"
        "Quand toutes les cases ont le même numéro, le labyrinthe est fini : un seul chemin relie deux cases.",
    },
    "handout_start": {"en": "The cells and their numbers at the start", "fr": "Les cases et leurs numéros au départ"},
    "handout_table": {
        "en": "The walls in the order they were drawn (the first one is done for you)",
        "fr": "Les murs dans l’ordre du tirage (le premier est fait pour toi)",
    },
    "handout_columns": {
        "en": "step|wall|1st cell no.|2nd cell no.|opened?",
        "fr": "étape|mur|n° 1re case|n° 2e case|ouvert ?",
    },
    "yes": {"en": "yes", "fr": "oui"},
    "no": {"en": "no", "fr": "non"},
    "handout_grids": {"en": "The maze step by step", "fr": "Le labyrinthe étape par étape"},
    "handout_grids_help": {
        "en": "After the step given, write each cell's number and cross out the walls opened so far.",
        "fr": "Après l’étape indiquée, écris le numéro de chaque case et barre les murs ouverts jusque-là.",
    },
    "handout_after": {"en": "After step {step}", "fr": "Après l’étape {step}"},
    "handout_zones_left": {"en": "Zones left: ______", "fr": "Zones restantes : ______"},
    # the class exercise's own rules: a step is a wall drawn; fusionner(i, j, dir) from any side
    "lesson_counts_drawn": {
        "en": "step {step}/{total} · walls opened: {opened}/{passages} · zones: {zones} · walls standing: "
        "{walls}/{all_walls}",
        "fr": "étape {step}/{total} · murs ouverts : {opened}/{passages} · zones : {zones} · murs debout : "
        "{walls}/{all_walls}",
    },
    "handout_rule_drawn": {
        "en": "All the walls are closed at the start. Each cell has its own number: row × {cols} + column.\n"
        "1. Take the next wall of the table. It is named from its first cell: (row, column) and N (north),\n"
        "    E (east), S (south) or O (west); the second cell is the one on the other side.\n"
        "2. Write the numbers the two cells have now.\n"
        "3. Different numbers: open the wall, and every cell that has the second cell's number takes\n"
        "    the first cell's number. The same number: the wall stays closed (refused).\n"
        "When every cell has the same number, the maze is finished: one path joins any two cells.",
        "fr": "Au départ, tous les murs sont fermés. Chaque case a son numéro : ligne × {cols} + colonne.\n"
        "1. Prends le mur suivant du tableau. Il est nommé par sa 1re case : (ligne, colonne) et N (nord),\n"
        "    E (est), S (sud) ou O (ouest) ; la 2e case est celle de l’autre côté.\n"
        "2. Écris les numéros qu’ont maintenant les deux cases.\n"
        "3. Numéros différents : ouvre le mur, et toutes les cases qui ont le numéro de la 2e case prennent\n"
        "    le numéro de la 1re. Même numéro : le mur reste fermé (refusé).\n"
        "Quand toutes les cases ont le même numéro, le labyrinthe est fini : un seul chemin relie deux cases.",
    },
    "handout_rule_shaped_drawn": {
        "en": "All the walls are closed at the start. Each cell has its own number, written in it below.\n"
        "1. Take the next wall of the table. It is named by its two cells, the first one first:\n"
        "    8 | 3 is the wall between cells 8 and 3, cell 8 first.\n"
        "2. Write the numbers the two cells have now.\n"
        "3. Different numbers: open the wall, and every cell that has the second cell's number takes\n"
        "    the first cell's number. The same number: the wall stays closed (refused).\n"
        "When every cell has the same number, the maze is finished: one path joins any two cells.",
        "fr": "Au départ, tous les murs sont fermés. Chaque case a son numéro, écrit dedans ci-dessous.\n"
        "1. Prends le mur suivant du tableau. Il est nommé par ses deux cases, la 1re d’abord :\n"
        "    8 | 3 est le mur entre les cases 8 et 3, la case 8 en premier.\n"
        "2. Écris les numéros qu’ont maintenant les deux cases.\n"
        "3. Numéros différents : ouvre le mur, et toutes les cases qui ont le numéro de la 2e case prennent\n"
        "    le numéro de la 1re. Même numéro : le mur reste fermé (refusé).\n"
        "Quand toutes les cases ont le même numéro, le labyrinthe est fini : un seul chemin relie deux cases.",
    },
    # --- the class exercise's files (laby3d.maze.classroom: .classroom.py's comment, .walls.csv) ---
    "classroom_made": {"en": "{algorithm}, seed {seed}", "fr": "{algorithm}, graine {seed}"},
    "classroom_read": {"en": "read by laby3d", "fr": "lu par laby3d"},
    "classroom_comment": {
        "en": "# A {rows}×{cols} maze ({made}) in the class exercise's form: rows of cells, each cell\n"
        "# {{'N': …, 'E': …, 'S': …, 'O': …}} with True where the side is open; the entrance and the exit\n"
        "# are the border sides left open (the first in reading order is the entrance).\n",
        "fr": "# Un labyrinthe de {rows}×{cols} cases ({made}) sous la forme de l’exercice : des lignes de\n"
        "# cases, chaque case {{'N': …, 'E': …, 'S': …, 'O': …}} avec True là où le côté est ouvert ;\n"
        "# l’entrée et la sortie sont les côtés du bord laissés ouverts (le premier dans l’ordre de\n"
        "# lecture est l’entrée).\n",
    },
    "walls_columns": {
        "en": "step,row,col,side,first_number,second_number,opened",
        "fr": "etape,ligne,colonne,cote,premier_numero,second_numero,ouvert",
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
