"""What laby3d prints on the terminal as it works, in English and French: ``laby3d batch``'s
summary (mazes written, totals, plates) and ``laby3d generate``'s lines (the maze, the files
written). A batch whose every job says ``lang: fr``, or a command typed with ``--lang fr``, is
French; errors are :mod:`laby3d.i18n.messages`'.

>>> said("wrote", "fr").format(path="m.walls.csv", size="1 838")
'écrit : m.walls.csv (1 838 octets)'
"""

from __future__ import annotations

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
}


def said(key: str, lang: str | None) -> str:
    """The line ``key`` in ``lang`` (English for any other value), its ``{fields}`` to fill."""
    return LINES[key][1 if lang == "fr" else 0]
