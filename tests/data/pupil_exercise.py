"""A pupil's program for the class exercise, written from the exercise's text alone (it knows
nothing of laby3d): a maze is a list of rows of cells, each cell a dict N, E, S, O with True
where the side is open.

    python pupil_exercise.py make ROWS COLS SEED   prints a maze made by "fusion aléatoire de
                                                   chemins", entrance O of the top-left cell,
                                                   exit E of the bottom-right cell (JSON)
    python pupil_exercise.py walk FILE             reads a maze (JSON, or Python 'labyrinthe = [...]'),
                                                   finds its entrance and exit (the open sides on the
                                                   border) and prints the path between them (JSON)
"""

import json
import random  # noqa: TID251 - a pupil's program, not laby3d: it uses what the exercise uses
import sys

DEPLACEMENT = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "O": (0, -1)}
OPPOSE = {"N": "S", "S": "N", "E": "O", "O": "E"}


def fabrique(lignes, colonnes, graine):
    """Fusion aléatoire de chemins: every cell its own number; draw walls at random; open a wall
    whose two cells have different numbers and give the first cell's number to the second's zone."""
    hasard = random.Random(graine)
    labyrinthe = [[{"N": False, "E": False, "S": False, "O": False} for _ in range(colonnes)] for _ in range(lignes)]
    numero = [[li * colonnes + c for c in range(colonnes)] for li in range(lignes)]
    murs = [(li, c, "E") for li in range(lignes) for c in range(colonnes - 1)]
    murs += [(li, c, "S") for li in range(lignes - 1) for c in range(colonnes)]
    hasard.shuffle(murs)
    for li, c, cote in murs:
        dl, dc = DEPLACEMENT[cote]
        a, b = numero[li][c], numero[li + dl][c + dc]
        if a != b:
            labyrinthe[li][c][cote] = True
            labyrinthe[li + dl][c + dc][OPPOSE[cote]] = True
            for ligne in numero:
                for i in range(colonnes):
                    if ligne[i] == b:
                        ligne[i] = a
    labyrinthe[0][0]["O"] = True
    labyrinthe[lignes - 1][colonnes - 1]["E"] = True
    return labyrinthe


def lis(chemin):
    texte = open(chemin, encoding="utf-8").read()
    if chemin.endswith(".py"):
        espace = {}
        exec(texte, espace)  # the pupil runs their own file; laby3d never does
        return espace["labyrinthe"]
    return json.loads(texte)


def bords_ouverts(labyrinthe):
    lignes, colonnes = len(labyrinthe), len(labyrinthe[0])
    ouverts = []
    for li in range(lignes):
        for c in range(colonnes):
            for cote in "NESO":
                dl, dc = DEPLACEMENT[cote]
                dehors = not (0 <= li + dl < lignes and 0 <= c + dc < colonnes)
                if dehors and labyrinthe[li][c][cote]:
                    ouverts.append((li, c))
    return ouverts


def parcours(labyrinthe):
    """The path from the entrance (the first open border side) to the exit, by depth-first search."""
    entree, sortie = bords_ouverts(labyrinthe)
    precedent = {entree: None}
    pile = [entree]
    while pile:
        li, c = pile.pop()
        for cote in "NESO":
            dl, dc = DEPLACEMENT[cote]
            voisin = (li + dl, c + dc)
            dedans = 0 <= voisin[0] < len(labyrinthe) and 0 <= voisin[1] < len(labyrinthe[0])
            if dedans and labyrinthe[li][c][cote] and voisin not in precedent:
                precedent[voisin] = (li, c)
                pile.append(voisin)
    chemin = [sortie]
    while precedent[chemin[-1]] is not None:
        chemin.append(precedent[chemin[-1]])
    return chemin[::-1]


if __name__ == "__main__":
    if sys.argv[1] == "make":
        print(json.dumps(fabrique(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))))
    else:
        print(json.dumps(parcours(lis(sys.argv[2]))))
