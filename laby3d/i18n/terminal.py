"""What laby3d prints on the terminal as it works, in English and French: ``laby3d batch``'s
summary (mazes written, totals, plates) and ``laby3d generate``'s lines (the maze, the files
written, the solid's report). A batch whose every job says ``lang: fr``, or a command typed with ``--lang fr``, is
French; errors are :mod:`laby3d.i18n.messages`'.

>>> said("wrote", "fr").format(path="m.walls.csv", size="1 838")
'écrit : m.walls.csv (1 838 octets)'
"""

from __future__ import annotations

import re

#: key → (English, French).
LINES: dict[str, tuple[str, str]] = {
    # --- laby3d batch's summary (laby3d.batch) ---
    "written": (
        "{written} of {total} mazes written to {folder} (manifest: {manifest})",
        "{written} labyrinthes sur {total} écrits dans {folder} (manifeste : {manifest})",
    ),
    "totals": ("totals", "totaux"),
    "solid": ("solid", "pièce"),
    "solids": ("solids", "pièces"),
    "printer plate": ("printer plate", "plaque d’impression"),
    "printer plates": ("printer plates", "plaques d’impression"),
    "laser sheet": ("laser sheet", "plaque laser"),
    "laser sheets": ("laser sheets", "plaques laser"),
    "maze": ("maze", "labyrinthe"),
    "mazes": ("mazes", "labyrinthes"),
    "of printing": ("of printing", "d’impression"),
    "filament": ("about {kg} kg of filament", "environ {kg} kg de filament"),
    "solid PLA": ("{kg} kg of PLA if printed solid", "{kg} kg de PLA si imprimé plein"),
    "nothing": ("nothing written", "rien d’écrit"),
    "plates": ("plates", "plaques"),
    "plan": ("plan", "plan"),
    "failed": ("failed", "échec"),
    # --- laby3d generate, export and import (laby3d.cli) ---
    "maze_made": ("maze {shape}{size} {algorithm} seed {seed}", "labyrinthe {shape}{size} {algorithm} graine {seed}"),
    "rings": ("{rows} rings", "{rows} anneaux"),
    "kerf_card": (
        "kerf test card, {material} (no maze on it)",
        "carte de test du trait de coupe, {material} (sans labyrinthe)",
    ),
    "wrote": ("wrote {path} ({size} bytes)", "écrit : {path} ({size} octets)"),
    "imported": (
        "maze {rows}×{cols} from the class exercise's form, entrance → exit: {ends}",
        "labyrinthe {rows}×{cols} lu dans le formulaire de l’exercice, entrée → sortie : {ends}",
    ),
    "inside": ("inside", "intérieur"),
    # --- the solid's report after a solid is written (laby3d.cli) ---
    "solid_made": (
        "solid: {size} mm, {state}, {bodies}, {volume} cm³, {grams} g of PLA solid (100 % infill){typical}, "
        "{triangles} triangles",
        "pièce : {size} mm, {state}, {bodies}, {volume} cm³, {grams} g de PLA si imprimé plein (remplissage "
        "100 %){typical}, {triangles} triangles",
    ),
    "watertight": ("watertight", "étanche"),
    "not watertight": ("NOT WATERTIGHT", "NON ÉTANCHE"),
    "one body": ("1 body", "1 seul corps"),
    "bodies": ("{count} bodies", "{count} corps"),
    "typical": (
        ", ~{grams} g at 2 perimeters / 15 % infill",
        ", environ {grams} g avec 2 périmètres et 15 % de remplissage",
    ),
    "label_made": ("label {text}: {placed}", "texte {text} : {placed}"),
    "label_placed": ("{done} {where}, capitals {cap} mm, {depth}", "{done} {where}, majuscules de {cap} mm, {depth}"),
    "engraved": ("engraved", "gravé"),
    "embossed": ("embossed", "en relief"),
    "deep": ("{depth} mm deep", "{depth} mm de profondeur"),
    "high": ("{depth} mm high", "{depth} mm de hauteur"),
    "on the margin": ("on the margin", "sur la marge"),
    "under the base": (
        "mirrored under the base (reads when turned over)",
        "en miroir sous la pièce (se lit pièce retournée)",
    ),
    "print_time": ("print time on the {printer}: {time} (estimate)", "durée d’impression sur la {printer} : {time}"),
    "fits_bed": ("fits the {printer} bed", "tient sur le plateau de la {printer}"),
    "fits": ("fits: {printers}", "tient sur ces imprimantes : {printers}"),
    "warning": ("warning: {message}", "attention : {message}"),
    # --- laby3d stats (laby3d.cli, laby3d.maze.stats) ---
    "table_title": ("{size}, mean of {seeds} seeds", "{size}, moyenne sur {seeds} graines"),
    "algorithm": ("algorithm", "algorithme"),
    "dead ends %": ("dead ends %", "culs-de-sac %"),
    "junctions %": ("junctions %", "carrefours %"),
    "straights %": ("straights %", "droites %"),
    "turns %": ("turns %", "virages %"),
    "solution %": ("solution %", "solution %"),
    "longest": ("longest", "plus long"),
}
#: One maze's statistics as ``laby3d stats --lang fr`` names them (in English: their keys,
#: :meth:`laby3d.maze.stats.MazeStats.as_dict`).
STATS_IN_FRENCH = {
    "cells": "cases",
    "dead_ends": "culs-de-sac",
    "dead_end_percent": "culs-de-sac (% des cases)",
    "junctions": "carrefours",
    "straights": "lignes droites",
    "turns": "virages",
    "solution_length": "longueur de la solution",
    "solution_percent": "solution (% des cases)",
    "longest_path": "plus long chemin",
    "loops": "boucles",
    "shortest_routes": "plus courts chemins",
}

#: The CLI's own help (its verbs and their arguments beside the option flags, whose help comes
#: from :mod:`laby3d.options.translations`): English text → French.
HELP_IN_FRENCH: dict[str, str] = {
    "Mazes (perfect or braided, of any outline) to print, cut, view and walk.": (
        "Des labyrinthes (parfaits ou à boucles, de n’importe quel contour) à imprimer, découper, afficher et "
        "parcourir."
    ),
    "generate one maze and write outputs (format by suffix)": (
        "créer un labyrinthe et écrire des fichiers (le format selon l’extension)"
    ),
    "write outputs for a .maze.json or .scene.json file": (
        "écrire des fichiers d’après un fichier .maze.json ou .scene.json"
    ),
    "write outputs for a maze in the class exercise's form (rows of N/E/S/O cells; JSON or Python)": (
        "écrire des fichiers d’après le formulaire de l’exercice de la classe (lignes de cases N/E/S/O ; JSON ou "
        "Python)"
    ),
    "run a YAML batch file (see configs/)": "exécuter un fichier de lot YAML (voir configs/)",
    "check a YAML batch file without writing anything": "vérifier un fichier de lot YAML sans rien écrire",
    "print the JSON Schema of a batch file (for editor completion)": (
        "afficher le schéma JSON d’un fichier de lot (pour la complétion dans un éditeur)"
    ),
    "print the maze as text": "afficher le labyrinthe en texte",
    "statistics of one maze, or a table per algorithm (--table)": (
        "statistiques d’un labyrinthe, ou un tableau par algorithme (--table)"
    ),
    "the class web app: pupils design and download, the teacher collects": (
        "l’appli web de la classe : les élèves conçoivent et téléchargent, l’enseignant récupère leurs fichiers"
    ),
    "algorithms with their options, placements, printers, formats": (
        "les algorithmes et leurs options, les positions de l’entrée et de la sortie, les imprimantes, les formats"
    ),
    "output file, format by its ending (see laby3d list); repeatable": (
        "fichier de sortie, le format selon son extension (voir laby3d list) ; plusieurs possibles"
    ),
    "classroom file: .json, .py (a literal, never run) or - for standard input": (
        "fichier de la classe : .json, .py (une valeur littérale, jamais exécutée) ou - pour l’entrée standard"
    ),
    "YAML batch file": "fichier de lot YAML",
    "parallel worker processes (default: number of cores)": (
        "processus de calcul en parallèle (par défaut : le nombre de cœurs)"
    ),
    "list the mazes and files without writing": "lister les labyrinthes et les fichiers sans rien écrire",
    "run only these jobs": "n’exécuter que ces travaux",
    "override output_dir": "remplacer output_dir",
    "run the mazes on a Dask cluster (tcp://host:8786, or 'local' for a local one); needs laby3d[dask]": (
        "calculer les labyrinthes sur une grappe Dask (tcp://hôte:8786, ou « local » pour une grappe locale) ; "
        "nécessite laby3d[dask]"
    ),
    "print the option tables of the README instead": "afficher plutôt les tableaux d’options du README",
    "read this .maze.json instead of generating": "lire ce fichier .maze.json au lieu d’en créer un",
    "mark the solution": "marquer la solution",
    "text art characters": "caractères du dessin en texte",
    "show the zone numbers after K steps, walls drawn (the class exercise's rule, README)": (
        "montrer les numéros de zones après K étapes, les murs dessinés (la règle de l’exercice de la classe, README)"
    ),
    "print the maze as the class exercise's print(labyrinthe) does: its rows of N/E/S/O cells on one line": (
        "afficher le labyrinthe comme le fait print(labyrinthe) dans l’exercice : ses lignes de cases N/E/S/O sur "
        "une ligne"
    ),
    "compare every algorithm over --seeds mazes": "comparer tous les algorithmes sur --seeds labyrinthes",
    "mazes per algorithm for --table (default 20)": "labyrinthes par algorithme pour --table (par défaut 20)",
    "address to listen on (default: this computer only)": "adresse d’écoute (par défaut : cet ordinateur seulement)",
    "port, 1..65535 (default 8000)": "port, de 1 à 65535 (par défaut 8000)",
    "a name pupils may use for this computer (a school DNS name); others are refused": (
        "un nom que les élèves peuvent utiliser pour cet ordinateur (un nom DNS de l’établissement) ; les autres "
        "sont refusés"
    ),
    "class name (default: class)": "nom de la classe (par défaut : class)",
    "YAML batch file whose defaults the class starts from": (
        "fichier de lot YAML dont la classe reprend les réglages par défaut"
    ),
    "where the class is stored (default outputs/serve/<class>/)": (
        "où la classe est enregistrée (par défaut outputs/serve/<classe>/)"
    ),
    "class code pupils type to join (shown with a QR code to the teacher)": (
        "code que les élèves tapent pour rejoindre la classe (montré à l’enseignant avec un QR code)"
    ),
    "renders a second each pupil may ask, 0.1..50 (default 2, bursts of 12)": (
        "rendus par seconde que chaque élève peut demander, de 0,1 à 50 (par défaut 2, par rafales de 12)"
    ),
    "preview worker processes, 1..16 (default 2)": "processus d’aperçu, de 1 à 16 (par défaut 2)",
    "replace the teacher's token (the old address stops working)": (
        "remplacer le jeton de l’enseignant (l’ancienne adresse ne fonctionnera plus)"
    ),
}

#: argparse's own refusals of a command line (its English since Python 3.10) → French.
ARGPARSE_IN_FRENCH: tuple[tuple[str, str], ...] = (
    (r"the following arguments are required: (.+)", r"ces arguments sont obligatoires : \1"),
    (r"unrecognized arguments: (.+)", r"arguments inconnus : \1"),
    (r"argument (\S+): expected one argument", r"\1 attend une valeur"),
    (r"argument (\S+): expected at least one argument", r"\1 attend au moins une valeur"),
    (r"argument (\S+): expected at most one argument", r"\1 attend au plus une valeur"),
    (r"argument (\S+): expected (\d+) arguments", r"\1 attend \2 valeurs"),
    (r"argument (\S+): invalid choice: (.+) \(choose from (.+)\)", r"\1 doit être l’une des valeurs \3, pas \2"),
    (r"argument (\S+): invalid \w+ value: (.+)", r"\1 n’accepte pas la valeur \2"),
    (r"argument (\S+): ignored explicit argument (.+)", r"\1 ne prend pas de valeur, pas \2"),
    (r"argument (\S+): not allowed with argument (.+)", r"\1 ne va pas avec \2"),
    (r"ambiguous option: (\S+) could match (.+)", r"l’option \1 est ambiguë : elle peut désigner \2"),
)


def argparse_in_french(message: str) -> str:
    """One of argparse's refusals in French (:data:`ARGPARSE_IN_FRENCH`); another message, as it is."""
    for english, french in ARGPARSE_IN_FRENCH:
        if re.fullmatch(english, message):
            return re.sub(english, french, message)
    return message


def label_placed(side: str, mode: str, cap_height: float, depth: float, lang: str) -> str:
    """Where a label went and how big, in ``lang``: ``engraved on the margin, capitals 4.2 mm,
    0.6 mm deep`` (``cap_height`` and ``depth`` in mm; an embossed label's depth is its height).

    >>> label_placed("bottom", "engrave", 5.43, 0.6, "fr")
    'gravé en miroir sous la pièce (se lit pièce retournée), majuscules de 5,4 mm, 0,6 mm de profondeur'
    """
    from laby3d.i18n.formatting import number_text

    engraved = mode == "engrave"
    return said("label_placed", lang).format(
        done=said("engraved" if engraved else "embossed", lang),
        where=said("on the margin" if side == "margin" else "under the base", lang),
        cap=number_text(cap_height, lang, digits=1),
        depth=said("deep" if engraved else "high", lang).format(depth=number_text(depth, lang)),
    )


def said(key: str, lang: str | None) -> str:
    """The line ``key`` in ``lang`` (English for any other value), its ``{fields}`` to fill."""
    return LINES[key][1 if lang == "fr" else 0]
