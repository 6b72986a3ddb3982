"""The option fields in French: one entry per field, keyed by its dotted path, beside the fields.

Each entry gives the field's French label, its help (the field's ``description`` in French) and
a French label for each of its choices (the value typed stays the same: ``groove`` is shown as
« rainure »). English needs no table: the help is the field's own description, a choice reads as
its value, and the label is the field's name in words (``wall_thickness`` → "wall thickness"),
which is exactly what the README, YAML and the CLI flags call it, so an English label can never
drift from them. A new option fails ``tests/test_i18n.py`` until it has its French entry here.

>>> label("print.solution", "fr"), choice_label("print.solution", "ridge", "fr")
('solution', 'relief')
>>> label("print.wall_thickness", "en"), label("print.wall_thickness", "fr")
('wall thickness', 'épaisseur des murs')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from laby3d.printability import PRINTERS


@dataclass(frozen=True)
class FieldText:
    """An option's French label, help, and choice labels (choice value → label)."""

    label: str
    help: str
    choices: Mapping[str, str] = field(default_factory=dict)


#: Every option of a job in French, by dotted path.
FRENCH: dict[str, FieldText] = {
    "seed": FieldText("graine", "graine du hasard ; tirée au sort et notée quand elle manque"),
    "label": FieldText("texte", "texte sur la pièce et la plaque laser (avec « names » : chaque nom)"),
    "lang": FieldText(
        "langue",
        "langue de ce que lisent les élèves (pages, fiches, légendes)",
        {"en": "anglais", "fr": "français"},
    ),
    "preset": FieldText(
        "préréglage",
        "partir d’un préréglage : « quick » (environ 1 h sur une MINI), « coaster » (sous-verre) ; les valeurs du "
        "travail l’emportent",
        {"quick": "rapide", "coaster": "sous-verre"},
    ),
    "maze.shape": FieldText(
        "forme",
        "forme des cases : « square » (carrés), « theta » (rond : les lignes sont les anneaux, le centre compris ; "
        "les colonnes ne servent pas), « hex » (hexagones, lignes × colonnes), « triangle » (lignes × colonnes)",
        {"square": "carrés", "theta": "rond (theta)", "hex": "hexagones", "triangle": "triangles"},
    ),
    "maze.rows": FieldText("lignes", "nombre de lignes"),
    "maze.cols": FieldText("colonnes", "nombre de colonnes"),
    "maze.algorithm": FieldText(
        "algorithme",
        "algorithme qui creuse le labyrinthe (la commande « laby3d list » les décrit)",
        {
            "kruskal": "Kruskal",
            "backtracker": "exploration en profondeur",
            "growing_tree": "arbre croissant",
            "wilson": "Wilson",
            "aldous_broder": "Aldous-Broder",
            "prim": "Prim",
            "eller": "Eller",
            "hunt_and_kill": "chasse et tue",
            "sidewinder": "serpentin",
            "binary_tree": "arbre binaire",
            "recursive_division": "division récursive",
        },
    ),
    "maze.outline": FieldText(
        "contour",
        "forme du plateau : « circle » (disque), « hexagon » (hexagone), « triangle », « heart » (cœur), « star » "
        "(étoile), « ring » (anneau), « text:MOT » (en DejaVu Sans Bold) ou un fichier SVG, PNG ou JPEG "
        "(foncé = dedans) ; une case en fait partie quand son centre est dedans, les morceaux sont reliés par "
        "les chemins les plus courts",
    ),
    "maze.braid": FieldText(
        "boucles",
        "pourcentage des culs-de-sac ouverts après le creusement, chacun fermant une boucle "
        "(0 : un seul chemin, labyrinthe parfait)",
    ),
    "maze.first_ring": FieldText("premier anneau", "theta : nombre de cases de l’anneau 1 (6 sinon)"),
    "maze.room": FieldText(
        "salle centrale",
        "theta : une salle au centre, de ce nombre d’anneaux, laissée ouverte (départ d’une bille, une pièce)",
    ),
    "maze.placement": FieldText(
        "entrée et sortie",
        "où vont l’entrée et la sortie",
        {
            "corners": "coins opposés",
            "opposite-sides": "côtés opposés",
            "center": "centre",
            "hardest": "les plus éloignées",
            "explicit": "choisies (champs « entrée » et « sortie »)",
        },
    ),
    "maze.entrance": FieldText(
        "entrée", "quand elles sont choisies (« placement: explicit ») : 'ligne,colonne,côté', par exemple '0,0,W'"
    ),
    "maze.exit": FieldText(
        "sortie", "quand elles sont choisies (« placement: explicit ») : 'ligne,colonne,côté', par exemple '14,14,E'"
    ),
    "maze.policy": FieldText(
        "politique",
        "« growing_tree » : case choisie, « newest » (la plus récente), « oldest » (la plus ancienne), « random » "
        "(au hasard), « max » ou un mélange pondéré comme newest:0.75,random:0.25",
    ),
    "maze.bias": FieldText(
        "biais",
        "« sidewinder » : probabilité qu’une suite continue vers l’est (suites plus longues) ; « binary_tree » : "
        "probabilité qu’une case s’ouvre au nord plutôt qu’à l’est",
    ),
    "maze.join": FieldText("fusion", "eller : probabilité de joindre deux ensembles voisins d’une ligne"),
    "maze.down": FieldText("descente", "eller : probabilité qu’une case s’ouvre au sud (au moins une par ensemble)"),
    "print.cell_size": FieldText("taille de case", "pas de la grille : d’axe de mur à axe de mur, mm"),
    "print.wall_thickness": FieldText("épaisseur des murs", "mm, moins que la taille de case"),
    "print.wall_height": FieldText("hauteur des murs", "murs au-dessus du plateau, mm"),
    "print.base_thickness": FieldText("épaisseur du plateau", "plaque du fond, mm ; 0 = murs seuls"),
    "print.margin": FieldText("marge", "fond au-delà des murs extérieurs, mm"),
    "print.solution": FieldText(
        "solution",
        "la solution creusée dans le fond (rainure) ou en relief",
        {"none": "aucune", "groove": "rainure", "ridge": "relief"},
    ),
    "print.solution_width": FieldText(
        "largeur de la solution", "largeur de la rainure ou du relief, mm ; par défaut 40 % du couloir"
    ),
    "print.solution_depth": FieldText("profondeur de la solution", "profondeur de la rainure ou hauteur du relief, mm"),
    "print.label_mode": FieldText(
        "texte gravé ou en relief",
        "comment le texte va sur la pièce",
        {"none": "aucun texte", "engrave": "gravé", "emboss": "en relief"},
    ),
    "print.label_depth": FieldText(
        "profondeur du texte",
        "profondeur de gravure ou hauteur de relief du texte, mm ; 0,6 par défaut (moins, avec un avertissement, "
        "si le plateau est trop mince)",
    ),
    "print.label_position": FieldText(
        "place du texte",
        "texte sur la marge du dessus, gravé en miroir sous le plateau, ou « auto » : sur la marge s’il y tient",
        {"margin": "marge", "bottom": "dessous", "auto": "automatique"},
    ),
    "print.markers": FieldText("flèches", "flèches gravées sur la marge à l’entrée et à la sortie (marge ≥ 4 mm)"),
    "print.printer": FieldText(
        "imprimante", f"imprimante dont le plateau doit porter la pièce : {', '.join(PRINTERS)}"
    ),
    "print.bed": FieldText(
        "plateau d’impression",
        "volume imprimable LxP[xH] en mm au lieu d’une imprimante, par exemple '250x210x220'",
    ),
    "print.nozzle": FieldText("buse", "diamètre de la buse, mm"),
    "print.ball": FieldText("bille", "diamètre de la bille d’un labyrinthe à bille, mm"),
    "print.force": FieldText("forcer", "exporter même avec des murs plus fins que la buse"),
    "print.skirt_room": FieldText(
        "place pour la jupe", "place laissée libre de chaque côté pour la jupe ou la bordure du trancheur, mm"
    ),
    "print.printers": FieldText(
        "imprimantes", "imprimantes de ce modèle qui se partagent les plaques de la classe (format « plates »)"
    ),
    "print.plate_spacing": FieldText(
        "écart sur la plaque", "place entre deux pièces sur une plaque (format « plates »), mm"
    ),
    "print.fleet": FieldText(
        "parc d’imprimantes",
        "imprimantes de plusieurs modèles qui se partagent les plaques de la classe, par exemple {mini: 2, mk3: 1} "
        "(--fleet mini=2,mk3=1) : chaque pièce va là où la classe finit le plus tôt (format « plates » ; à la "
        "place du modèle et du nombre d’imprimantes)",
    ),
    "print.slot": FieldText(
        "créneau",
        "durée la plus longue d’une plaque (format « plates ») : un cours, « 55min » ou « 1h30 », pour que chaque "
        "plaque y tienne, ou « nuit » (14 h)",
    ),
    "pictures.solution": FieldText("solution sur les images", "montrer la solution sur les images et le texte"),
    "pictures.heatmap": FieldText("carte des distances", "colorer les cases selon leur distance à l’entrée"),
    "pictures.charset": FieldText(
        "caractères", "caractères du dessin en texte", {"unicode": "Unicode", "ascii": "ASCII"}
    ),
    "laser.mode": FieldText(
        "mode laser",
        "« lines » : un trait par ligne de mur ; « outline » : contours des murs ; « stack » : un kit à bille en "
        "couches ; « kerf-test » : un peigne de fentes pour mesurer le trait de coupe",
        {
            "lines": "lignes",
            "outline": "contours",
            "stack": "couches (kit à bille)",
            "kerf-test": "test du trait de coupe",
        },
    ),
    "laser.kerf": FieldText("trait de coupe", "largeur de coupe, mm (les pièces grossissent de kerf/2)"),
    "laser.sheet": FieldText(
        "plaque", "plaque de matière LxH, mm ; par défaut 600x400 pour le kit, sinon la taille du dessin"
    ),
    "laser.spacing": FieldText("écart", "écart entre les pièces, mm ; 0 = bords communs coupés une seule fois"),
    "laser.line_operation": FieldText(
        "opération des lignes",
        "mode « lines » : ce que font les lignes des murs",
        {"cut": "découpe", "score": "marquage", "engrave-line": "gravure au trait"},
    ),
    "laser.base_material": FieldText("matière du fond", "matière du fond du kit"),
    "laser.base_material_thickness": FieldText("épaisseur du fond", "épaisseur de la plaque du fond du kit, mm"),
    "laser.wall_material": FieldText("matière des murs", "matière des plaques de murs du kit"),
    "laser.wall_material_thickness": FieldText("épaisseur des plaques de murs", "épaisseur d’une plaque de murs, mm"),
    "laser.top_material": FieldText("matière du dessus", "matière du dessus du kit (transparente)"),
    "laser.top_material_thickness": FieldText("épaisseur du dessus", "épaisseur de la plaque du dessus du kit, mm"),
    "laser.wall_layers": FieldText(
        "couches de murs",
        "plaques de murs empilées dans le kit ; par défaut autant qu’il en faut pour la bille et le jeu",
    ),
    "laser.top": FieldText(
        "dessus", "kit : ajouter un dessus transparent percé pour la bille à l’entrée et à la sortie"
    ),
    "laser.ball_play": FieldText("jeu de la bille", "kit : jeu au-dessus de la bille et dans ses trous, mm"),
    "laser.registration_holes": FieldText(
        "trous de repérage", "kit : diamètre des trous de chevilles aux coins du cadre de chaque couche, mm"
    ),
    "laser.engrave_solution": FieldText("graver la solution", "graver le chemin de la solution (un corrigé)"),
    "laser.palette": FieldText(
        "couleurs",
        "couleurs par opération : « default » = celles de LightBurn, « boxes » = celles de boxes.py",
        {"default": "LightBurn", "boxes": "boxes.py"},
    ),
    "laser.stroke_width": FieldText("épaisseur du trait", "largeur du trait fin, mm"),
    "laser.sheet_notes": FieldText(
        "contours des plaques", "contours des plaques sur un calque caché, non découpé (« false » : omis)"
    ),
    "laser.sheet_overview": FieldText(
        "vue des plaques", "plaques imbriquées d’une classe : aussi une page qui montre toutes les plaques"
    ),
    "laser.reference_square": FieldText("carré de référence", "marquer un carré de 100 mm pour vérifier l’échelle"),
    "walk.overview": FieldText("vue d’ensemble", "permettre la carte d’ensemble (touche O, bouton carte)"),
    "walk.trail": FieldText("trace", "permettre la trace complète de la solution (touche L, bouton trace)"),
    "walk.hint": FieldText("indice", "permettre l’indice « par où ? » au prochain carrefour (touche I, bouton indice)"),
    "walk.timer": FieldText("chronomètre", "afficher un chronomètre du premier pas jusqu’à la sortie"),
    "walk.steps": FieldText("pas", "afficher un compteur de pas (cases traversées)"),
    "walk.scene_global": FieldText("variable de la scène", "variable globale que définit le fichier de scène .js"),
    "worksheet.paper": FieldText(
        "papier",
        "format du papier des fiches et des corrigés (portrait)",
        {"a4": "A4", "letter": "Letter (US)", "a3": "A3"},
    ),
    "worksheet.per_page": FieldText(
        "labyrinthes par page", "labyrinthes par page de fiche (chacun avec ses lignes de nom)"
    ),
    "worksheet.key_per_page": FieldText("labyrinthes par page de corrigé", "labyrinthes par page de corrigé"),
    "worksheet.class_name": FieldText("classe", "classe écrite sur les fiches (ligne vide si absente)"),
    "worksheet.instruction": FieldText("consigne", "consigne sous le nom (celle par défaut si absente)"),
    "worksheet.every": FieldText(
        "une image tous les",
        "leçon et GIF : une image toutes les K étapes (murs tirés ; environ 40 images si absent)",
    ),
    "worksheet.numbering": FieldText(
        "numérotation des zones",
        "numéros de zone de la leçon, du GIF, de la fiche d’exercice, de walls.csv et de "
        "« laby3d show --sets-after » : la 1re case d’un mur donne son numéro ; ouest-nord : sa case ouest ou "
        "nord ; côté tiré : l’une ou l’autre, "
        "tirée au sort d’après la graine, comme fusionner(i, j, dir) dans l’exercice nomme un mur de n’importe quel "
        "côté",
        {"west-north": "ouest-nord", "drawn-side": "côté tiré"},
    ),
}
#: Titles of the option sections in French (the CLI's help groups), by section (``""``: the job's own).
FRENCH_SECTIONS: dict[str, str] = {
    "": "travail",
    "maze": "labyrinthe",
    "print": "pièce imprimée (mm) et imprimante",
    "pictures": "images et texte",
    "laser": "plaques laser (mm)",
    "walk": "page de visite",
    "worksheet": "fiches, corrigés et leçon",
}

#: Every output format in French, by name: the download button's caption and its tooltip (English
#: shows the name in capitals and the format's own description).
FRENCH_FORMATS: dict[str, tuple[str, str]] = {
    "maze.json": ("Fichier du labyrinthe", "fichier du labyrinthe, que laby3d relit (JSON, docs/maze-file.md)"),
    "classroom.json": (
        "Formulaire de l’exercice (JSON)",
        "le labyrinthe sous la forme de l’exercice : des lignes de cases {N, E, S, O}, « true » = ouvert (JSON)",
    ),
    "classroom.py": (
        "Formulaire de l’exercice (Python)",
        "la forme de l’exercice en Python : labyrinthe = [[{'N': …}, …], …]",
    ),
    "walls.csv": (
        "Murs tirés (CSV)",
        "les murs dans l’ordre où ils ont été pris (Kruskal : tirés), les numéros des zones, ouvert ou refusé",
    ),
    "txt": ("Dessin en texte", "dessin en caractères (traits de tableau ; « --charset ascii » pour +--+)"),
    "png": ("Image (PNG)", "image (matplotlib)"),
    "pdf": ("Image (PDF)", "image vectorielle (matplotlib)"),
    "ps": ("Image (PostScript)", "image PostScript (matplotlib)"),
    "gif": ("Animation (GIF)", "animation de la génération : les zones, les murs ouverts et refusés"),
    "lesson.pdf": ("Leçon (PDF)", "la génération étape par étape, une page par étape (leçon sur les graphes)"),
    "handout.pdf": (
        "Fiche d’exercice (PDF)",
        "l’exercice sur papier : la règle, les murs à rejouer, les grilles à remplir (A4, 30 cases au plus)",
    ),
    "worksheet.pdf": (
        "Fiche élève (PDF)",
        "fiche élève : le labyrinthe, les lignes du nom, la consigne (A4, Letter ou A3)",
    ),
    "key.pdf": ("Corrigé (PDF)", "corrigé : le labyrinthe avec sa solution"),
    "stl": ("Pièce à imprimer (STL)", "pièce à imprimer, STL binaire (un seul corps)"),
    "3mf": ("Pièce à imprimer (3MF)", "pièce à imprimer, 3MF en mm (parties en couleur)"),
    "glb": ("Pièce en 3D (GLB)", "pièce en 3D, glTF binaire (parties en couleur)"),
    "svg": ("Plaque laser (SVG)", "plaque à découper au laser, en mm (voir le mode laser)"),
    "dxf": ("Plaque laser (DXF)", "plaque à découper au laser, DXF en mm (un calque par opération)"),
    "laser.png": ("Aperçu laser (PNG)", "aperçu des plaques à découper"),
    "html": ("Visite en 3D (HTML)", "page de visite du labyrinthe, fonctionne sans réseau"),
    "js": ("Scène (JavaScript)", "fichier de scène en JavaScript (docs/scene-format.md)"),
    "scene.json": ("Scène (JSON)", "fichier de scène en JSON (docs/scene-format.md)"),
    "plates": (
        "Plateaux d’impression",
        "les pièces rangées sur les plateaux de l’imprimante : un 3MF par plateau et le plan d’impression "
        "(lots seulement ; demande print.printer ou print.bed)",
    ),
}


def format_caption(name: str, description: str, lang: str) -> tuple[str, str]:
    """A format's download caption and tooltip: ``WORKSHEET.PDF`` and its description in
    English, the table's in French."""
    return FRENCH_FORMATS[name] if lang == "fr" else (name.upper(), description)


def label(path: str, lang: str) -> str:
    """The option's short label: its name in words in English, the table's in French."""
    return FRENCH[path].label if lang == "fr" else path.split(".")[-1].replace("_", " ")


def help_text(path: str, field: Any, lang: str) -> str:
    """The option's help: the field's description, or the table's in French."""
    return FRENCH[path].help if lang == "fr" else field.description or ""


def choice_label(path: str, choice: Any, lang: str) -> str:
    """How a choice of the option reads: the value itself in English, the table's in French."""
    return FRENCH[path].choices.get(str(choice), str(choice)) if lang == "fr" else str(choice)
