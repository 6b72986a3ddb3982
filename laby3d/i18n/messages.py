"""Error sentences in English and French: one catalogue of kinds, each an English and a French
template with ``{named}`` values.

Two ways in, one catalogue:

- laby3d's option layer (:mod:`laby3d.options.base`'s checks, the class app's own) builds a :class:`Message`
  from a kind and its values: an English ``str`` that remembers both, so every place that shows
  English keeps working, and :func:`in_language` says it again in French from the values.
- The library raises plain English sentences (``must be < cell_size (10 mm) so corridors stay
  open, got 12``) deep in geometry and mesh code, where a message is best read beside the rule
  it states. Their templates are in the same catalogue; :func:`in_language` recognises such a
  sentence by its template (the literal text, numbers where numbers go) and reads its values
  back. A sentence no template matches stays English: tests walk the errors the form can show.

French numbers get a decimal comma; ``>=`` and ``<=`` become ``≥`` and ``≤``; option names
(``cell_size``) stay as typed in YAML, since that is what a user types.

>>> message = Message("compare", sign=">=", limit=0.1, value="0.05")
>>> message, in_language(message, "fr")
('must be >= 0.1, got 0.05', 'doit être ≥ 0,1, pas 0,05')
>>> in_language("need margin >= 4 mm beside the openings, got 2.5", "fr")
'il faut une marge ≥ 4 mm à côté des ouvertures, pas 2,5'
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from laby3d.i18n.formatting import ENGLISH_NUMBER, french_number, number_text

#: kind → (English, French). Kinds built as :class:`Message` first, then the library's sentences.
SENTENCES: dict[str, tuple[str, str]] = {
    # --- the option fields' checks (laby3d.options.base) ---
    "compare": ("must be {sign} {limit}, got {value}", "doit être {sign} {limit}, pas {value}"),
    "unknown_key": ("is not a known key", "n’est pas une clé connue"),
    "required": ("is required", "est obligatoire"),
    "one_of": ("must be one of {choices}, got {value}", "doit être l’une des valeurs {choices}, pas {value}"),
    "whole_number": ("must be a whole number, got {value}", "doit être un nombre entier, pas {value}"),
    "number": ("must be a number, got {value}", "doit être un nombre, pas {value}"),
    "finite_number": ("must be a finite number, got {value}", "doit être un nombre fini, pas {value}"),
    "true_or_false": ("must be true or false, got {value}", "doit valoir « true » ou « false », pas {value}"),
    "text": ("must be text, got {value}", "doit être un texte, pas {value}"),
    "list": ("must be a list, got {value}", "doit être une liste, pas {value}"),
    "options_mapping": (
        "must be a mapping of options, got {value}",
        "doit être une table d’options (clé : valeur), pas {value}",
    ),
    "mapping": ("must be a mapping, got {value}", "doit être une table (clé : valeur), pas {value}"),
    "at_most_characters": (
        "must be at most {limit} characters, got {value}",
        "doit faire au plus {limit} caractères, pas {value}",
    ),
    "at_least_characters": (
        "must be at least {limit} character(s), got {value}",
        "doit faire au moins {limit} caractère(s), pas {value}",
    ),
    "at_most_items": (
        "must have at most {limit} items, got {value}",
        "doit avoir au plus {limit} éléments, pas {value}",
    ),
    "at_least_items": (
        "must have at least {limit} item(s), got {value}",
        "doit avoir au moins {limit} élément(s), pas {value}",
    ),
    "below_resolution": (
        "is below laby3d's resolution of {limit} mm (1 µm), got {value}",
        "est sous la résolution de laby3d, {limit} mm (1 µm), pas {value}",
    ),
    # --- the class app's own checks (laby3d.serve) ---
    "class_app_limit": (
        "must be <= {limit} in the class app, got {value}",
        "doit être ≤ {limit} dans l’appli de la classe, pas {value}",
    ),
    "option_paths": ("must be a mapping of option paths to values", "doit être une table chemin d’option → valeur"),
    "class_app_option": ("is not an option of the class app", "n’est pas une option de l’appli de la classe"),
    "short_value": (
        "must be a number, true/false or a short text",
        "doit être un nombre, true/false ou un texte court",
    ),
    "pupil_name": ("must be 1 to {limit} printable characters", "doit faire de 1 à {limit} caractères imprimables"),
    # --- the CLI's refusals of options a verb cannot honour (laby3d.cli, laby3d.maze.placement) ---
    "moot_input": (
        "has no effect with --input: the maze comes from the file",
        "n’a pas d’effet avec --input : le labyrinthe vient du fichier",
    ),
    "moot_files": (
        "has no effect on the files asked for ({formats})",
        "n’a pas d’effet sur les fichiers demandés ({formats})",
    ),
    "moot_text": (
        "has no effect without an output file (-o): the maze is printed as text",
        "n’a pas d’effet sans fichier de sortie (-o) : le labyrinthe est affiché en texte",
    ),
    "moot_export": (
        "has no effect with export: the maze, and its seed, come from the file",
        "n’a pas d’effet avec export : le labyrinthe, et sa graine, viennent du fichier",
    ),
    "moot_import": (
        "has no effect with import: the maze comes from the form",
        "n’a pas d’effet avec import : le labyrinthe vient du formulaire",
    ),
    "moot_sets_after": (
        "has no effect with --sets-after (a maze part-way through has no solution yet)",
        "n’a pas d’effet avec --sets-after (un labyrinthe en cours de construction n’a pas encore de solution)",
    ),
    "moot_show": (
        "has no effect with show, which prints the maze as text",
        "n’a pas d’effet avec « laby3d show », qui affiche le labyrinthe en texte",
    ),
    "moot_stats": (
        "has no effect with stats, which prints numbers",
        "n’a pas d’effet avec stats, qui affiche des nombres",
    ),
    "moot_no_table": (
        "has no effect without --table (one maze's statistics)",
        "n’a pas d’effet sans --table (les statistiques d’un seul labyrinthe)",
    ),
    "moot_table": (
        "has no effect with --table, which makes its own mazes",
        "n’a pas d’effet avec --table, qui fait ses propres labyrinthes",
    ),
    "moot_table_seeds": (
        "has no effect with --table: it makes mazes of every algorithm from seeds 0, 1, 2…",
        "n’a pas d’effet avec --table : il fait des labyrinthes de chaque algorithme avec les graines 0, 1, 2…",
    ),
    "moot_placement": (
        "has no effect unless placement is explicit (it is {policy})",
        "n’a d’effet qu’avec « placement: explicit » (il vaut {policy})",
    ),
    # --- batch files, output folders, imports and interruptions (laby3d.config, laby3d.export.writer,
    # laby3d.batch, laby3d.maze.classroom, laby3d.cli) ---
    "unknown_key_close": (
        "is not a known key; did you mean '{key}'?",
        "n’est pas une clé connue ; vouliez-vous dire « {key} » ?",
    ),
    "interrupted": (
        "interrupted; finished files are complete, unfinished ones were not written",
        "interrompu ; les fichiers terminés sont complets, les autres n’ont pas été écrits",
    ),
    "stopped_by": (
        "stopped by {signal}; finished files are complete, unfinished ones were not written",
        "arrêté par {signal} ; les fichiers terminés sont complets, les autres n’ont pas été écrits",
    ),
    "output_folder": (
        "cannot use {folder} as the output folder: {why_list}",
        "impossible d’utiliser {folder} comme dossier de sortie : {why_list}",
    ),
    "root_folder": ("it is the root of the file system", "c’est la racine du système de fichiers"),
    "homes_folder": ("it holds the home folders", "il contient les dossiers personnels"),
    "home_folder": (
        "it is a home folder itself, where a run would add its folders, manifest and lock among yours",
        "c’est un dossier personnel lui-même, où un lancement ajouterait ses dossiers, son manifeste et son verrou "
        "parmi les vôtres",
    ),
    "system_folder_is": (
        "it is {system}, a folder of the operating system",
        "c’est {system}, un dossier du système d’exploitation",
    ),
    "system_folder_inside": (
        "it is inside {system}, a folder of the operating system",
        "il est dans {system}, un dossier du système d’exploitation",
    ),
    "new_folder": ("use a new folder such as {suggestion}", "utiliser un nouveau dossier, par exemple {suggestion}"),
    "manifest_not_ours": ("its manifest.json is not a laby3d run's", "son manifest.json ne vient pas de laby3d"),
    "manifest_folder": ("its manifest.json is a folder", "son manifest.json est un dossier"),
    "foreign_file": (
        "it holds a file not written by laby3d ({name}) and no manifest.json",
        "il contient un fichier qui ne vient pas de laby3d ({name}) et pas de manifest.json",
    ),
    "foreign_files": (
        "it holds {count} files or folders not written by laby3d ({name}) and no manifest.json",
        "il contient {count} fichiers ou dossiers qui ne viennent pas de laby3d ({name}) et pas de manifest.json",
    ),
    "new_folder_in_it": (
        "use a new folder in it, such as {suggestion}, or empty it",
        "utiliser un nouveau dossier à l’intérieur, par exemple {suggestion}, ou le vider",
    ),
    "system_file": (
        "cannot write {target}: {system} is a folder of the operating system; write it in a folder of your own, "
        "such as {suggestion}",
        "impossible d’écrire {target} : {system} est un dossier du système d’exploitation ; l’écrire dans un de vos "
        "dossiers, par exemple {suggestion}",
    ),
    "root_file": (
        "cannot write {target}: {folder} is the root of the file system; write it in a folder of your own, such as "
        "{suggestion}",
        "impossible d’écrire {target} : {folder} est la racine du système de fichiers ; l’écrire dans un de vos "
        "dossiers, par exemple {suggestion}",
    ),
    "lock_link": (
        "cannot lock {path}: it is a symbolic link, and laby3d follows no link in its output folder; remove the link "
        "and run again",
        "impossible de verrouiller {path} : c’est un lien symbolique, et laby3d ne suit aucun lien dans son dossier "
        "de sortie ; supprimer le lien et relancer",
    ),
    "lock_folder": (
        "cannot lock {path}: it is a folder; remove it and run again",
        "impossible de verrouiller {path} : c’est un dossier ; le supprimer et relancer",
    ),
    "in_use": (
        "{folder} is in use by another laby3d run (lock {path}); wait for it to finish or choose another output folder",
        "{folder} est utilisé par un autre lancement de laby3d (verrou {path}) ; attendre qu’il finisse ou choisir "
        "un autre dossier de sortie",
    ),
    "variable_not_set": (
        "uses ${name}, which is not set (laby3d expands ~ and $VARIABLES as a shell would): set it or write the path "
        "in full, got {value}",
        "utilise ${name}, qui n’est pas définie (laby3d développe ~ et les $VARIABLES comme un shell) : la définir ou "
        "écrire le chemin en entier, pas {value}",
    ),
    "unknown_user": (
        "names the home folder of {user}, who is not a user here, got {value}",
        "désigne le dossier personnel de {user}, qui n’a pas de compte sur cet ordinateur, pas {value}",
    ),
    "no_such_job": ("has no job named {name} (jobs: {names})", "n’a pas de travail nommé {name} (travaux : {names})"),
    "size_cols": ("{rows} with cols {cols}", "{rows} avec {cols} colonnes"),
    "size_cells": ("{rows} ({cells} cells)", "{rows} ({cells} cases)"),
    "largest_side": ("about {side}×{side} cells", "environ {side}×{side} cases"),
    "largest_rings": ("about {rings} rings", "environ {rings} anneaux"),
    "file_cost": (
        "{size_list}: the {format} would take about {duration} and {megabytes} MB; at most {seconds} s and {limit} "
        "MB per file: {largest_list}",
        "{size_list} : le fichier {format} prendrait environ {duration} et {megabytes} Mo ; au plus {seconds} s et "
        "{limit} Mo par fichier : {largest_list}",
    ),
    "carving_cost": (
        "{size_list}: {algorithm} would take about {duration} to carve this maze; at most {seconds} s: {largest_list}",
        "{size_list} : {algorithm} mettrait environ {duration} à creuser ce labyrinthe ; au plus {seconds} s : "
        "{largest_list}",
    ),
    "carving_cost_faster": (
        "{size_list}: {algorithm} would take about {duration} to carve this maze; at most {seconds} s: "
        "{largest_list}, or another algorithm ({faster})",
        "{size_list} : {algorithm} mettrait environ {duration} à creuser ce labyrinthe ; au plus {seconds} s : "
        "{largest_list}, ou un autre algorithme ({faster})",
    ),
    "theta_cols": (
        "has no effect with shape theta: a round maze's size is its number of rings, rows",
        "n’a pas d’effet avec la forme theta : la taille d’un labyrinthe rond est son nombre d’anneaux (« rows »)",
    ),
    # --- the class app's refusals (laby3d.serve: joining, sessions, queues, requests, the teacher) ---
    "serve_no_letter": (
        "{name} has no letter or digit: type your first name",
        "{name} n’a ni lettre ni chiffre : tape ton prénom",
    ),
    "serve_name_taken": (
        "{name} is already in the class: if it is you, type your personal code (beside your name on your page; "
        "the teacher has it too), else a distinct name, e.g. {suggestion}",
        "{name} est déjà dans la classe : si c’est toi, tape ton code personnel (à côté de ton nom sur ta page ; "
        "l’enseignant l’a aussi), sinon un nom distinct, par exemple {suggestion}",
    ),
    "serve_name_close": (
        "{name} is too close to {holder}, already in the class: if it is you, type your personal code (beside "
        "your name on your page; the teacher has it too), else a distinct name, e.g. {suggestion}",
        "{name} est trop proche de {holder}, déjà dans la classe : si c’est toi, tape ton code personnel (à côté "
        "de ton nom sur ta page ; l’enseignant l’a aussi), sinon un nom distinct, par exemple {suggestion}",
    ),
    "serve_wrong_code": (
        "is not this class's code: ask the teacher",
        "n’est pas le code de cette classe : demande-le à l’enseignant",
    ),
    "serve_join_first": ("join the class first: type your name", "rejoins d’abord la classe : tape ton prénom"),
    "serve_session_ended": (
        "join the class first: type your name (your session has ended or was reset)",
        "rejoins d’abord la classe : tape ton prénom (ta session a pris fin ou a été réinitialisée)",
    ),
    "serve_not_yours": (
        "this is another pupil's design: you can open only your own",
        "c’est le projet d’un autre élève : tu ne peux ouvrir que le tien",
    ),
    "serve_rate": (
        "too many renders at once; trying again in {seconds} s",
        "trop de calculs à la fois ; nouvel essai dans {seconds} s",
    ),
    "serve_busy": (
        "the {queue} queue is full ({count} renders running or waiting); trying again in a moment",
        "la file d’attente {queue} est pleine ({count} calculs en cours ou en attente) ; nouvel essai dans un instant",
    ),
    "serve_timeout": (
        "the render took more than {limit} s and was stopped: try a smaller maze",
        "le calcul a pris plus de {limit} s et a été arrêté : essaie un labyrinthe plus petit",
    ),
    "serve_worker_lost": (
        "the render's worker process stopped (exit code {code}); trying again",
        "le processus de calcul s’est arrêté (code {code}) ; nouvel essai",
    ),
    "serve_cancelled": (
        "the render was cancelled (the server is stopping); trying again",
        "le calcul a été annulé (le serveur s’arrête) ; nouvel essai",
    ),
    "serve_no_file": ("no such file", "fichier introuvable"),
    "serve_no_preview": (
        "no preview with this key (make a preview first)",
        "aucun aperçu sous cette clé (fais d’abord un aperçu)",
    ),
    "serve_no_design": ("no design saved under this name", "aucun projet enregistré sous ce nom"),
    "serve_no_download": (
        "no such download; formats: {formats}",
        "ce téléchargement n’existe pas ; formats : {formats}",
    ),
    "serve_engraving": (
        "cannot be engraved on the maze: {problem_list}",
        "ne peut pas être gravé sur le labyrinthe : {problem_list}",
    ),
    "serve_too_large": ("request larger than {limit} bytes", "requête de plus de {limit} octets"),
    "serve_too_deep": (
        "the request is nested more than {limit} levels deep",
        "la requête est imbriquée sur plus de {limit} niveaux",
    ),
    "serve_not_json": ("the request is not JSON", "la requête n’est pas du JSON"),
    "serve_json_writes": (
        "writes must be JSON requests (Content-Type: application/json) from this server's pages",
        "les enregistrements doivent être des requêtes JSON (Content-Type: application/json) "
        "venant des pages de ce serveur",
    ),
    "serve_cross_site": (
        "writes must come from this server's pages, not another site (Sec-Fetch-Site: {site})",
        "les enregistrements doivent venir des pages de ce serveur, pas d’un autre site (Sec-Fetch-Site : {site})",
    ),
    "serve_other_origin": (
        "writes must come from this server's pages, not another site (Origin differs)",
        "les enregistrements doivent venir des pages de ce serveur, pas d’un autre site (Origin différente)",
    ),
    "serve_no_origin": (
        "writes must come from this server's pages (the request has no Origin)",
        "les enregistrements doivent venir des pages de ce serveur (la requête n’a pas d’Origin)",
    ),
    "serve_token": (
        "the teacher token is required (the one laby3d serve printed at start-up)",
        "le jeton de l’enseignant est requis (celui que « laby3d serve » a affiché au démarrage)",
    ),
    "serve_no_pupil": ("no such pupil", "élève inconnu"),
    "serve_lock_breaks": (
        "this lock would make {count} pupil(s)' design invalid ({listed}); confirm to lock anyway",
        "ce verrou rendrait invalide le projet de {count} élève(s) ({listed}) ; confirme pour verrouiller quand même",
    ),
    "serve_nothing_valid": (
        "no pupil has a valid saved design yet",
        "aucun élève n’a encore de projet valide enregistré",
    ),
    "serve_nothing_valid_but": (
        "no pupil has a valid saved design yet ({listed})",
        "aucun élève n’a encore de projet valide enregistré ({listed})",
    ),
    # --- names and the class server (issues 27, 28: laby3d.filenames, text_rules, serve) ---
    "names_no_letter": (
        "{name} has no letter or digit to name its files",
        "{name} n’a ni lettre ni chiffre pour nommer ses fichiers",
    ),
    "serve_wrong_pin": (
        "is not the personal code of {holder}: look beside your name on your page, or ask the teacher",
        "n’est pas le code personnel de {holder} : regarde à côté de ton nom sur ta page, ou demande-le à l’enseignant",
    ),
    "serve_join_rate": (
        "too many joins from this address; trying again in {seconds} s",
        "trop de connexions depuis cette adresse ; nouvel essai dans {seconds} s",
    ),
    "serve_guess_rate": (
        "too many wrong codes from this address: try again in {seconds} s",
        "trop de codes erronés depuis cette adresse : réessaie dans {seconds} s",
    ),
    "serve_superseded": (
        "a newer preview of yours took this one's place",
        "un aperçu plus récent a pris la place de celui-ci",
    ),
    "serve_session_full": (
        "you have {count} renders waiting already: wait for them",
        "tu as déjà {count} calculs en attente : attends qu’ils finissent",
    ),
    "serve_host": (
        "this server answers to {allowed} only, not to {host}: open the address laby3d serve printed, or start "
        "it with --host-name for this name",
        "ce serveur ne répond qu’à {allowed}, pas à {host} : ouvre l’adresse affichée par « laby3d serve », ou "
        "lance-le avec --host-name pour ce nom",
    ),
    "serve_not_found": ("no such page: {path}", "page introuvable : {path}"),
    "serve_bug": (
        "this design hit a bug in laby3d (logged for the teacher): change the seed or a size",
        "ce projet a rencontré un bogue de laby3d (noté pour l’enseignant) : change la graine ou une taille",
    ),
    "serve_internal": ("internal error (a bug in laby3d): {detail}", "erreur interne (un bogue de laby3d) : {detail}"),
    "serve_method": ("{path} does not take {method}", "{path} n’accepte pas {method}"),
    # --- outlines in the class app (laby3d.serve.uploads) and the outline sentences a pupil sees ---
    "serve_outline_choice": (
        "must be one of circle, hexagon, triangle, heart, star, ring, text:WORD, or an image uploaded with the "
        "button beside it, got {value}",
        "doit être l’une des formes « circle » (disque), « hexagon » (hexagone), « triangle », « heart » (cœur), "
        "« star » (étoile), « ring » (anneau), « text:MOT », ou une image envoyée avec le bouton à côté, pas {value}",
    ),
    "serve_upload_unknown": (
        "{value} is not an image you uploaded in this class: upload it again with the button beside it",
        "{value} n’est pas une image que tu as envoyée dans cette classe : envoie-la de nouveau avec le bouton à côté",
    ),
    "serve_upload_empty": ("{name} is empty (0 bytes)", "{name} est vide (0 octet)"),
    "serve_upload_too_big": (
        "{name} is {megabytes} MB, an uploaded image has at most {limit} MB: a smaller image works as well",
        "{name} fait {megabytes} Mo, une image envoyée fait au plus {limit} Mo : une image plus petite convient aussi",
    ),
    "serve_upload_request_too_big": (
        "the image is more than {limit} MB: a smaller image works as well",
        "l’image fait plus de {limit} Mo : une image plus petite convient aussi",
    ),
    "serve_upload_count": (
        "you have uploaded {count} images already, the most a pupil may in this class",
        "tu as déjà envoyé {count} images, le plus qu’un élève puisse envoyer dans cette classe",
    ),
    "serve_upload_disk": (
        "the server could not keep the image (its disk is full?): tell the teacher",
        "le serveur n’a pas pu garder l’image (son disque est plein ?) : préviens l’enseignant",
    ),
    "serve_upload_kind": (
        "{name} is not an SVG, PNG or JPEG image (by what it holds, whatever its name)",
        "{name} n’est pas une image SVG, PNG ou JPEG (d’après son contenu, quel que soit son nom)",
    ),
    "serve_upload_data": (
        "the upload must be a file name and its bytes in base64, as this page sends them",
        "l’envoi doit être un nom de fichier et son contenu en base64, comme cette page les envoie",
    ),
    "outline_cells": (
        "{spec} holds {count} of this board's {cells} cells (a cell belongs when its centre is inside), at least "
        "{least}: a larger board or a bolder outline",
        "{spec} ne garde que {count} des {cells} cases de ce plateau (une case en fait partie quand son centre est "
        "dedans), il en faut au moins {least} : un plateau plus grand ou un contour plus large",
    ),
    "outline_room_cells": (
        "the board keeps {count} of this board's {cells} cells (a cell belongs when its centre is inside), at least "
        "{least}: a larger board or a bolder outline",
        "le plateau ne garde que {count} de ses {cells} cases (une case en fait partie quand son centre est "
        "dedans), il en faut au moins {least} : un plateau plus grand ou une salle centrale plus petite",
    ),
    "outline_image": (
        "{path} is not a PNG or JPEG image that can be read",
        "{path} n’est pas une image PNG ou JPEG lisible",
    ),
    "outline_pixels": (
        "{path} is {pixels} pixels, an outline image has at most {most}: a smaller image works as well",
        "{path} fait {pixels} pixels, une image de contour en a au plus {most} : une image plus petite convient aussi",
    ),
    "outline_no_dark": (
        "{path} has no dark pixel (an outline is the dark part of the image)",
        "{path} n’a aucun pixel foncé (le contour est la partie foncée de l’image)",
    ),
    "outline_no_shape": ("{path} has no filled shape", "{path} n’a aucune forme remplie"),
    "outline_svg": (
        "{path} is not an SVG file that can be read ({error})",
        "{path} n’est pas un fichier SVG lisible ({error})",
    ),
    "outline_text": (
        "text: needs 1 to {limit} characters, got {value}",
        "« text: » demande de 1 à {limit} caractères, pas {value}",
    ),
    # --- the library's sentences, recognised by their templates ---
    "mm_finite": ("must be a finite number of mm, got {value}", "doit être un nombre fini de mm, pas {value}"),
    "mm_compare": ("must be {sign} {limit} mm, got {value}", "doit être {sign} {limit} mm, pas {value}"),
    "mm_zero_or_at_least": (
        "must be 0 or at least {limit} mm, got {value}",
        "doit valoir 0 ou au moins {limit} mm, pas {value}",
    ),
    "mm_at_least": ("must be at least {limit} mm, got {value}", "doit valoir au moins {limit} mm, pas {value}"),
    "mm_at_most": ("must be at most {limit} mm, got {value}", "doit valoir au plus {limit} mm, pas {value}"),
    "walls_under_cell": (
        "must be < cell_size ({limit} mm) so corridors stay open, got {value}",
        "doit être < cell_size ({limit} mm) pour que les couloirs restent ouverts, pas {value}",
    ),
    "margin_needs_base": (
        "needs a base plate: base_thickness must be > 0 when margin > 0",
        "demande un plateau : base_thickness doit être > 0 quand « margin » > 0",
    ),
    # --- the solid of every shape (laby3d.mesh.solid, issue 28: walls without a base in pieces) ---
    "walls_apart": (
        "0 (walls only) leaves this maze's walls in {pieces} separate pieces: its entrance and exit both cut the "
        "outline; give a base (base_thickness > 0), or put the entrance inside (placement center)",
        "0 (murs seuls) laisse les murs de ce labyrinthe en {pieces} morceaux séparés : son entrée et sa sortie "
        "coupent toutes deux le contour ; donner un plateau (base_thickness > 0), ou mettre l’entrée à "
        "l’intérieur (« placement: center »)",
    ),
    # --- the solids of theta, hex and triangle mazes (laby3d.mesh.solid, laby3d.mesh.marks) ---
    "passages_closed": (
        "of {wall} mm closes the passages of a {shape} maze of {cell} mm cells (they would be {corridor} mm wide; "
        "at least {least}): thinner walls or larger cells",
        "de {wall} mm ferme les passages d’un labyrinthe {shape} à cases de {cell} mm (ils feraient {corridor} mm "
        "de large ; au moins {least}) : des murs plus fins ou des cases plus grandes",
    ),
    "strip_too_wide": (
        "must be at most half the narrowest passage of this {shape} maze ({limit} of {corridor} mm: the strip "
        "turns at the cells' centres and crosses their walls), got {value}",
        "doit faire au plus la moitié du passage le plus étroit de ce labyrinthe {shape} ({limit} sur {corridor} "
        "mm : la bande tourne au centre des cases et traverse leurs murs), pas {value}",
    ),
    "theta_label_margin": (
        "margin: a theta maze's margin is a ring and laby3d letters straight lines only; use bottom or auto "
        "(the label then goes under the base)",
        "« margin » : la marge d’un labyrinthe rond est un anneau et laby3d n’écrit qu’en ligne droite ; choisir "
        "« bottom » ou « auto » (le texte passe alors sous le plateau)",
    ),
    "theta_label_under": (
        "the label is engraved under the base: a theta maze's margin is a ring and laby3d letters straight lines only",
        "le texte est gravé sous le plateau : la marge d’un labyrinthe rond est un anneau et laby3d n’écrit qu’en "
        "ligne droite",
    ),
    "arrow_no_room_entrance": (
        "no room for the arrow beside the entrance of this {shape} maze: a wider margin makes room",
        "pas de place pour la flèche à côté de l’entrée de ce labyrinthe {shape} : une marge plus large lui en fait",
    ),
    "arrow_no_room_exit": (
        "no room for the arrow beside the exit of this {shape} maze: a wider margin makes room",
        "pas de place pour la flèche à côté de la sortie de ce labyrinthe {shape} : une marge plus large lui en fait",
    ),
    "model_too_large": (
        "gives a model of {width} × {depth} mm; at most {limit} mm per side (lower cell_size or the maze size)",
        "donne un modèle de {width} × {depth} mm ; au plus {limit} mm par côté "
        "(réduire cell_size ou la taille du labyrinthe)",
    ),
    "sizes_text": (
        "must look like {shape} in mm, each {least}..{most}, e.g. {example}, got {value}",
        "doit s’écrire {shape} en mm, chacun de {least} à {most}, par exemple {example}, pas {value}",
    ),
    "walls_thinner_than_nozzle": (
        "of {value} mm is thinner than the nozzle ({nozzle} mm): the slicer would drop the walls; "
        "use >= {least} mm or force",
        "de {value} mm est plus fine que la buse ({nozzle} mm) : le trancheur supprimerait les murs ; "
        "mettre ≥ {least} mm ou force",
    ),
    "plates_need_printer": (
        "must name the printer whose plates the plates format fills (one of {choices}), or give print.bed",
        "doit nommer l’imprimante dont le format « plates » remplit les plaques (l’une de {choices}), ou donner "
        "print.bed",
    ),
    "label_needs_base": (
        "needs a base plate: base_thickness must be > 0",
        "demande un plateau : base_thickness doit être > 0",
    ),
    "label_depth_under_base": (
        "must be <= {limit} mm for the label under the base ({base} mm base, {floor} mm of plate kept above it "
        "and any groove), got {value}; {fixes_list}",
        "doit être ≤ {limit} mm pour le texte sous le plateau ({base} mm de plateau, {floor} mm gardés au-dessus "
        "du texte et de la rainure), pas {value} ; {fixes_list}",
    ),
    "label_depth_on_margin": (
        "must be <= {limit} mm to engrave the label on the margin ({base} mm base, {floor} mm of plate kept "
        "under it), got {value}; {fixes_list}",
        "doit être ≤ {limit} mm pour graver le texte sur la marge ({base} mm de plateau, {floor} mm gardés "
        "dessous), pas {value} ; {fixes_list}",
    ),
    "label_depth_fix_depth": ("--label-depth {limit} engraves it", "--label-depth {limit} le grave"),
    "label_depth_fix_base": (
        "--base-thickness {base} engraves it {value} mm deep",
        "--base-thickness {base} le grave sur {value} mm de profondeur",
    ),
    "label_depth_fix_margin": ("or make room for it on the margin", "ou lui faire de la place sur la marge"),
    "label_shallow": (
        "the label is engraved {depth} mm deep, not {value}, to keep {floor} mm of plate above it and any groove",
        "le texte est gravé sur {depth} mm de profondeur, pas {value}, pour garder {floor} mm de plateau "
        "au-dessus de lui et de la rainure",
    ),
    "label_shallow_fix": (
        "the label is engraved {depth} mm deep, not {value}, to keep {floor} mm of plate above it and any groove; "
        "--base-thickness {base} engraves it {value} mm deep",
        "le texte est gravé sur {depth} mm de profondeur, pas {value}, pour garder {floor} mm de plateau "
        "au-dessus de lui et de la rainure ; --base-thickness {base} le grave sur {value} mm de profondeur",
    ),
    "label_moved_under": (
        "the label went under the base: {needs_list}",
        "le texte est passé sous le plateau : {needs_list}",
    ),
    "label_not_embossed": (
        "the label is engraved, not embossed: {needs_list}",
        "le texte est gravé, pas en relief : {needs_list}",
    ),
    "label_depth_bottom": (
        "must be in (0, {limit}] mm under a {base} mm base ({floor} mm of plate kept above it and the cuts "
        "into the top), got {value}",
        "doit être dans ]0 ; {limit}] mm sous un plateau de {base} mm ({floor} mm de plateau gardés au-dessus "
        "et les creux du dessus), pas {value}",
    ),
    "mm_in_up_to": ("must be in (0, {limit}] mm, got {value}", "doit être dans ]0 ; {limit}] mm, pas {value}"),
    "markers_margin": (
        "need margin >= {limit} mm beside the openings, got {value}",
        "il faut une marge ≥ {limit} mm à côté des ouvertures, pas {value}",
    ),
    "slot_form": (
        "must be a duration such as 55min, 1h30 or overnight, got {value}",
        "doit être une durée comme 55min, 1h30 ou nuit, pas {value}",
    ),
    "slot_range": ("must be from 10min to 48h, got {value}", "doit être de 10min à 48h, pas {value}"),
    "class_label_side": (
        "the label is engraved under the base, as every name of the class: the margin does not hold {names}",
        "le nom est gravé sous le plateau, comme tous ceux de la classe : la marge ne contient pas {names}",
    ),
    "fleet_form": (
        "must be printers and counts such as mini=2,mk3=1, got {value}",
        "doit donner des imprimantes et leur nombre, comme mini=2,mk3=1, pas {value}",
    ),
    "fleet_kind": (
        "must name printers among {choices}, got {value}",
        "doit nommer des imprimantes parmi {choices}, pas {value}",
    ),
    "fleet_printers": (
        "cannot be given with a fleet: the fleet says how many printers of each kind",
        "ne se donne pas avec un parc : le parc dit combien d’imprimantes de chaque modèle",
    ),
    "fleet_untimed": (
        "shares plates by print time, which laby3d estimates for {timed} only (nozzle 0.4 or 0.6 mm; PrusaSlicer "
        "2.5, which the estimates are fitted to, has no profile for {missing}): plan {first} on its own, with "
        "printer and printers",
        "répartit les plaques selon leur durée, que laby3d estime pour {timed} seulement (buse de 0,4 ou 0,6 mm ; "
        "PrusaSlicer 2.5, sur lequel les estimations sont calées, n’a pas de profil pour {missing}) : planifier "
        "{first} à part, avec print.printer et print.printers",
    ),
    "slot_untimed": (
        "plans plates by their print time, which laby3d estimates for {timed} only (nozzle 0.4 or 0.6 mm): choose "
        "one of them as print.printer, or leave slot out",
        "planifie les plaques selon leur durée, que laby3d estime pour {timed} seulement (buse de 0,4 ou 0,6 mm) : "
        "choisir l’une d’elles comme print.printer, ou ne pas donner slot",
    ),
    "preset_margin": (
        "the markers need margin >= {limit} mm: preset {preset} takes {margin} mm, not {value}",
        "les flèches demandent une marge ≥ {limit} mm : le préréglage {preset} prend {margin} mm, pas {value}",
    ),
    "markers_base": (
        "need base_thickness > {limit} mm (engraved arrows)",
        "il faut base_thickness > {limit} mm (flèches gravées)",
    ),
    "solution_width": (
        "must be > 0 and < the corridor width ({limit} mm), got {value}",
        "doit être > 0 et < la largeur des couloirs ({limit} mm), pas {value}",
    ),
    "solution_needs_base": (
        "needs a base plate (a groove or ridge): base_thickness must be > 0",
        "demande un plateau (rainure ou relief) : base_thickness doit être > 0",
    ),
    "groove_depth": (
        "of a groove must be in (0, {limit}] mm (base_thickness − 0.4 mm of floor below it), got {value}",
        "d’une rainure doit être dans ]0 ; {limit}] mm (base_thickness − 0,4 mm de fond sous elle), pas {value}",
    ),
    "ridge_height": (
        "of a ridge must be in (0, {limit}) mm, got {value}",
        "d’un relief doit être dans ]0 ; {limit}[ mm, pas {value}",
    ),
    "label_bottom_emboss": (
        "bottom engraves the label under the base: set label_mode engrave, or label_position margin",
        "« bottom » grave le texte sous le plateau : mettre « label_mode: engrave », ou « label_position: margin »",
    ),
    "label_invisible": ("{text} has no visible character", "{text} n’a aucun caractère visible"),
    "label_right_to_left": (
        "{text}: right-to-left letters are not supported ({letters})",
        "{text} : les lettres écrites de droite à gauche ne sont pas prises en charge ({letters})",
    ),
    "label_glyphs": (
        "{text}: the font has no glyph for {letters}",
        "{text} : la police n’a pas de glyphe pour {letters}",
    ),
    "label_emoji": (
        "{text}: emoji are pictures, not text ({letters})",
        "{text} : les émojis sont des images, pas du texte ({letters})",
    ),
    "label_lone_accents": (
        "{text}: accents without a letter ({letters})",
        "{text} : accents sans lettre ({letters})",
    ),
    "label_not_text": (
        "{text}: characters that are not text ({letters})",
        "{text} : caractères qui ne sont pas du texte ({letters})",
    ),
    "label_does_not_fit": (
        "{text} does not fit the {width} × {depth} mm plate, margin {margin} mm: {needs_list}; "
        "shorten it or enlarge the maze",
        "{text} ne tient pas sur le plateau de {width} × {depth} mm, marge {margin} mm : {needs_list} ; "
        "raccourcir le texte ou agrandir le labyrinthe",
    ),
    "label_needs_capitals_engraved": (
        "engraved it needs capitals of {size} mm for a {nozzle} mm nozzle (at most {limit})",
        "gravé, il lui faut des majuscules de {size} mm pour une buse de {nozzle} mm (au plus {limit})",
    ),
    "label_needs_capitals_embossed": (
        "embossed it needs capitals of {size} mm for a {nozzle} mm nozzle (at most {limit})",
        "en relief, il lui faut des majuscules de {size} mm pour une buse de {nozzle} mm (au plus {limit})",
    ),
    "label_needs_margin_engraved": (
        "engraved on the margin it needs margin >= {height} mm and a plate >= {width} mm wide",
        "gravé sur la marge, il lui faut une marge ≥ {height} mm et un plateau d’au moins {width} mm de large",
    ),
    "label_needs_margin_embossed": (
        "embossed on the margin it needs margin >= {height} mm and a plate >= {width} mm wide",
        "en relief sur la marge, il lui faut une marge ≥ {height} mm et un plateau d’au moins {width} mm de large",
    ),
    "label_needs_margin_engraved_arrows": (
        "engraved on the margin it needs margin >= {height} mm and a plate >= {width} mm wide clear of the arrows",
        "gravé sur la marge, il lui faut une marge ≥ {height} mm et un plateau d’au moins {width} mm de large "
        "hors des flèches",
    ),
    "label_needs_margin_embossed_arrows": (
        "embossed on the margin it needs margin >= {height} mm and a plate >= {width} mm wide clear of the arrows",
        "en relief sur la marge, il lui faut une marge ≥ {height} mm et un plateau d’au moins {width} mm de large "
        "hors des flèches",
    ),
    "label_needs_bottom": (
        "under the base it needs a plate >= {width} × {depth} mm",
        "sous le plateau, il lui faut un plateau d’au moins {width} × {depth} mm",
    ),
    "memory_budget": (
        "{rows} with cols {cols}: would need about {megabytes} MB for the {kinds} outputs; at most {limit} MB per "
        "maze, about {side}×{side} cells (text and pictures go up to {most}×{most})",
        "{rows} avec {cols} colonnes : il faudrait environ {megabytes} Mo pour les sorties {kinds} ; au plus "
        "{limit} Mo par labyrinthe, environ {side}×{side} cases (texte et images jusqu’à {most}×{most})",
    ),
    "memory_budget_cells": (
        "{rows} ({cells} cells): would need about {megabytes} MB for the {kinds} outputs; at most {limit} MB per "
        "maze, about {largest} cells (text and pictures go up to {most}×{most})",
        "{rows} ({cells} cases) : il faudrait environ {megabytes} Mo pour les sorties {kinds} ; au plus {limit} Mo "
        "par labyrinthe, environ {largest} cases (texte et images jusqu’à {most}×{most})",
    ),
    "handout_size": (
        "{rows} with cols {cols}: a handout's maze has at most {limit} cells (e.g. 5×6), got {value}",
        "{rows} avec {cols} colonnes : le labyrinthe d’une fiche élève a au plus {limit} cases (par ex. 5×6), "
        "pas {value}",
    ),
    "opening_text": (
        "must look like 'row,col,side' or 'row,col', such as {example}, got {value}",
        "doit s’écrire 'ligne,colonne,côté' ou 'ligne,colonne', comme {example}, pas {value}",
    ),
    "opening_cell": (
        "there is no cell ({row}, {col}) in this {shape} maze",
        "il n’y a pas de case ({row}, {col}) dans ce labyrinthe {shape}",
    ),
    "opening_side": (
        "side {letter} of cell ({row}, {col}) is not on the boundary: its boundary sides are {sides}",
        "le côté {letter} de la case ({row}, {col}) n’est pas sur le bord : ses côtés sur le bord sont {sides}",
    ),
    "opening_inside": (
        "cell ({row}, {col}) is inside the maze, so it has no side {letter} to open: leave the side out "
        "('row,col') or choose a cell on the boundary",
        "la case ({row}, {col}) est à l’intérieur du labyrinthe, elle n’a pas de côté {letter} à ouvrir : "
        "ne donnez pas de côté ('ligne,colonne') ou choisissez une case du bord",
    ),
    "explicit_openings": (
        "explicit needs both entrance and exit ('row,col,side')",
        "« explicit » demande l’entrée et la sortie ('ligne,colonne,côté')",
    ),
    "exit_is_entrance": ("must differ from the entrance", "doit différer de l’entrée"),
    "algorithm_option": (
        "is not an option of {algorithm} (its options: {options})",
        "n’est pas une option de l’algorithme « {algorithm} » (ses options : {options})",
    ),
    "probability": ("must be a number in [0, 1], got {value}", "doit être un nombre dans [0 ; 1], pas {value}"),
    "probability_range": ("must be in [0, 1], got {value}", "doit être dans [0 ; 1], pas {value}"),
    "policy_names": (
        "must name policies among {policies}, got {value}",
        "doit nommer des politiques parmi {policies}, pas {value}",
    ),
    "policy_weight": (
        "weight of {policy} must be a number, got {value}",
        "le poids de {policy} doit être un nombre, pas {value}",
    ),
    "policy_weight_positive": (
        "weight of {policy} must be a finite number > 0, got {value}",
        "le poids de {policy} doit être un nombre fini > 0, pas {value}",
    ),
    "policy_weights_finite": (
        "weights must add up to a finite number, got {value}",
        "la somme des poids doit être un nombre fini, pas {value}",
    ),
    "policy_weight_share": (
        "weight of {policy} ({weight}) is too small next to {largest}: its share is 0",
        "le poids de {policy} ({weight}) est trop petit à côté de {largest} : sa part est nulle",
    ),
    "policy_missing": (
        "must name at least one of {policies}, got {value}",
        "doit nommer au moins une politique parmi {policies}, pas {value}",
    ),
    "kerf": (
        "must be in [0, wall_thickness = {limit}) mm, got {value}",
        "doit être dans [0 ; wall_thickness = {limit}[ mm, pas {value}",
    ),
    "sheet_sizes": (
        "must be two positive sizes in mm, got {value}",
        "doit être deux tailles positives en mm, pas {value}",
    ),
    "ball_fits_corridor": (
        "{ball} mm + play {play} mm must fit the corridor width ({cell} - {wall} = {corridor} mm): "
        "a smaller ball, a larger cell_size or thinner walls",
        "{ball} mm + jeu {play} mm doivent tenir dans la largeur des couloirs ({cell} - {wall} = {corridor} mm) : "
        "une bille plus petite, un cell_size plus grand ou des murs plus fins",
    ),
    "ball_passes_shape": (
        "{ball} mm + play {play} mm must pass the narrowest passage of a {shape} maze ({width} mm with cell_size "
        "{cell} and wall_thickness {wall} mm): a ball of at most {most} mm, a cell_size of at least {least} mm or "
        "thinner walls",
        "{ball} mm + jeu {play} mm doivent passer le passage le plus étroit d’un labyrinthe {shape} ({width} mm avec "
        "cell_size {cell} et wall_thickness {wall} mm) : une bille d’au plus {most} mm, un cell_size d’au moins "
        "{least} mm ou des murs plus fins",
    ),
    "registration_holes_shape": (
        "must fit the frame with 1 mm around: at most margin + wall_thickness - 2 = {limit} mm on this {shape} "
        "plate, got {value} (raise the margin)",
        "doit tenir dans le cadre avec 1 mm autour : au plus « margin » + wall_thickness - 2 = {limit} mm sur ce "
        "plateau {shape}, pas {value} (agrandir la marge)",
    ),
    "wall_layers": (
        "gives {layers} × {thickness} mm = {height} mm of walls, lower than the ball {ball} mm + play {play} mm; "
        "at least {least} layers",
        "donne {layers} × {thickness} mm = {height} mm de murs, moins que la bille {ball} mm + jeu {play} mm ; "
        "au moins {least} couches",
    ),
    "registration_holes": (
        "must be > 0 and fit the frame with 1 mm around: at most margin + wall_thickness - 2 = {limit} mm, "
        "got {value} (raise the margin)",
        "doit être > 0 et tenir dans le cadre avec 1 mm autour : au plus « margin » + wall_thickness - 2 = {limit} mm, "
        "pas {value} (agrandir la marge)",
    ),
    # --- what a laser kit engraves, where it cannot (laby3d.geometry.laser.engraving) ---
    "laser_numbers_left_off": (
        "layer numbers left off: the {band} mm frame of this {shape} plate holds no {height} mm digits {edge} mm "
        "from its edge (a margin of {margin} mm does); the notch still keys which way each layer goes",
        "numéros de couche omis : le cadre de {band} mm de ce plateau {shape} ne tient pas de chiffres de "
        "{height} mm à {edge} mm de son bord (une marge de {margin} mm le permet) ; l’encoche indique toujours "
        "le sens de chaque couche",
    ),
    "laser_numbers_left_off_any_margin": (
        "layer numbers left off: the {band} mm frame of this {shape} plate holds no {height} mm digits {edge} mm "
        "from its edge (no margin up to {most} mm does); the notch still keys which way each layer goes",
        "numéros de couche omis : le cadre de {band} mm de ce plateau {shape} ne tient pas de chiffres de "
        "{height} mm à {edge} mm de son bord (aucune marge jusqu’à {most} mm ne le permet) ; l’encoche indique "
        "toujours le sens de chaque couche",
    ),
    "laser_label_under_base": (
        "label moved under the base (mirrored): the frame of this {shape} plate holds no {height} mm capitals of "
        "it on the {part} {edge} mm from its edge (a margin of {margin} mm does)",
        "étiquette déplacée sous la base (en miroir) : le cadre de ce plateau {shape} ne la tient pas en capitales "
        "de {height} mm sur la pièce {part} à {edge} mm de son bord (une marge de {margin} mm le permet)",
    ),
    "laser_label_under_base_any_margin": (
        "label moved under the base (mirrored): the frame of this {shape} plate holds no {height} mm capitals of "
        "it on the {part} {edge} mm from its edge (no margin up to {most} mm does)",
        "étiquette déplacée sous la base (en miroir) : le cadre de ce plateau {shape} ne la tient pas en capitales "
        "de {height} mm sur la pièce {part} à {edge} mm de son bord (aucune marge jusqu’à {most} mm ne le permet)",
    ),
    "laser_dowels_on_outline": (
        "dowel holes key rectangular boards and discs; a board cut to an outline is keyed by its notch alone: "
        "leave registration_holes out",
        "les trous de chevilles repèrent les plateaux rectangulaires et les disques ; un plateau découpé selon un "
        "contour est repéré par son encoche seule : retirer registration_holes",
    ),
    "laser_wall_islands": (
        "{count} wall pieces of each wall sheet stand apart from its frame (around the maze's loops or the "
        "outline's holes): they are cut in place; glue each onto the base over its engraved outline",
        "{count} morceaux de murs de chaque couche de murs ne tiennent pas à son cadre (autour des boucles du "
        "labyrinthe ou des trous du contour) : ils sont découpés en place ; collez chacun sur la base, sur son "
        "contour gravé",
    ),
    "laser_seed_left_off": (
        'seed left off the label "{label}": it is not legible anywhere on the plate',
        "graine retirée de l’étiquette « {label} » : elle n’est lisible nulle part sur le plateau",
    ),
    "laser_tag_needs_margin": (
        '"{text}": a name tag needs a frame band that holds {height} mm capitals {edge} mm from its edge; this '
        "{shape} plate's is {band} mm (margin + wall_thickness): a margin of at least {margin} mm",
        "« {text} » : un nom gravé demande un cadre qui tienne des capitales de {height} mm à {edge} mm de son "
        "bord ; celui de ce plateau {shape} fait {band} mm (« margin » + wall_thickness) : une marge d’au moins "
        "{margin} mm",
    ),
    "laser_label_needs_margin": (
        '"{text}": the label needs a frame band that holds {height} mm capitals {edge} mm from its edge; this '
        "{shape} plate's is {band} mm (margin + wall_thickness): a margin of at least {margin} mm",
        "« {text} » : l’étiquette demande un cadre qui tienne des capitales de {height} mm à {edge} mm de son "
        "bord ; celui de ce plateau {shape} fait {band} mm (« margin » + wall_thickness) : une marge d’au moins "
        "{margin} mm",
    ),
    "laser_tag_no_room": (
        '"{text}": a name tag has no room for {height} mm capitals on this {size} mm {shape} plate, even with a '
        "{most} mm margin: a shorter text or a larger maze",
        "« {text} » : un nom gravé n’a pas la place pour des capitales de {height} mm sur ce plateau {shape} de "
        "{size} mm, même avec une marge de {most} mm : un texte plus court ou un labyrinthe plus grand",
    ),
    "laser_label_no_room": (
        '"{text}": the label has no room for {height} mm capitals on this {size} mm {shape} plate, even with a '
        "{most} mm margin: a shorter text or a larger maze",
        "« {text} » : l’étiquette n’a pas la place pour des capitales de {height} mm sur ce plateau {shape} de "
        "{size} mm, même avec une marge de {most} mm : un texte plus court ou un labyrinthe plus grand",
    ),
    "count_and_names": (
        "and names cannot both be given: one maze per name, or count variants",
        "et « names » ne vont pas ensemble : un labyrinthe par nom, ou « count » variantes",
    ),
    "blank_name": ("is blank: every pupil needs a name", "est vide : chaque élève a besoin d’un nom"),
    "name_twice": (
        "{name} appears twice ({first}): make each name distinct, e.g. {example}",
        "{name} apparaît deux fois ({first}) : chaque nom doit être distinct, par exemple {example}",
    ),
    "name_same_file": (
        "{name} is {other} but for accents, case, spaces or punctuation ({first}): make each name distinct, "
        "e.g. {example}",
        "{name} est {other} aux accents, majuscules, espaces ou ponctuation près ({first}) : chaque nom doit être "
        "distinct, par exemple {example}",
    ),
    # --- the printability report's warnings (laby3d.print_rules, laby3d.printability) ---
    "warn_walls": (
        "walls are {wall} mm, {widths} nozzle widths; {least} or more ({limit} mm) print reliably",
        "les murs font {wall} mm, {widths} largeurs de buse ; {least} ou plus ({limit} mm) s’impriment sûrement",
    ),
    "warn_corridors": (
        "corridors are {corridor} mm wide; under {least} nozzle widths ({limit} mm) the slicer fills them in",
        "les couloirs font {corridor} mm de large ; sous {least} largeurs de buse ({limit} mm) le trancheur "
        "les remplit",
    ),
    "warn_ball": (
        "a ball of {ball} mm needs corridors of at least {limit} mm ({play} mm play); they are {corridor} mm",
        "une bille de {ball} mm demande des couloirs d’au moins {limit} mm ({play} mm de jeu) ; ils font {corridor} mm",
    ),
    "warn_hex_passages": (
        "passages between hexagons are {corridor} mm wide; under {least} nozzle widths ({limit} mm) the slicer "
        "fills them in",
        "les passages entre hexagones font {corridor} mm de large ; sous {least} largeurs de buse ({limit} mm) le "
        "trancheur les remplit",
    ),
    "warn_theta_doorways": (
        "doorways around the centre are {corridor} mm wide; under {least} nozzle widths ({limit} mm) the slicer "
        "fills them in",
        "les portes autour du centre font {corridor} mm de large ; sous {least} largeurs de buse ({limit} mm) le "
        "trancheur les remplit",
    ),
    "warn_ball_hex": (
        "a ball of {ball} mm needs passages between hexagons of at least {limit} mm ({play} mm play); they are "
        "{corridor} mm",
        "une bille de {ball} mm demande des passages entre hexagones d’au moins {limit} mm ({play} mm de jeu) ; "
        "ils font {corridor} mm",
    ),
    "warn_ball_theta": (
        "a ball of {ball} mm needs doorways around the centre of at least {limit} mm ({play} mm play); they are "
        "{corridor} mm",
        "une bille de {ball} mm demande des portes autour du centre d’au moins {limit} mm ({play} mm de jeu) ; "
        "elles font {corridor} mm",
    ),
    "warn_ball_height": (
        "walls {height} mm high let a ball of {ball} mm hop over; make them at least {ratio} × its diameter "
        "({limit} mm)",
        "des murs de {height} mm laissent sauter une bille de {ball} mm ; les faire d’au moins {ratio} × son "
        "diamètre ({limit} mm)",
    ),
    "warn_no_common_printer": (
        "{width} × {depth} × {height} mm plus {room} mm skirt room per side fits none of the common printers "
        "({printers}); give --printer or --bed",
        "{width} × {depth} × {height} mm plus {room} mm de jupe par côté ne tient sur aucune imprimante courante "
        "({printers}) ; choisir une imprimante ou un plateau",
    ),
    "warn_bed": (
        "{width} × {depth} mm plus {room} mm skirt room per side does not fit the {printer} bed "
        "({bed_width} × {bed_depth} mm)",
        "{width} × {depth} mm plus {room} mm de jupe par côté ne tient pas sur le plateau de la {printer} "
        "({bed_width} × {bed_depth} mm)",
    ),
    "warn_bed_height": (
        "{height} mm tall, more than the {limit} mm the {printer} bed ({bed_width} × {bed_depth} mm) can print",
        "{height} mm de haut, plus que les {limit} mm que la {printer} ({bed_width} × {bed_depth} mm) peut imprimer",
    ),
    "warn_no_fix": (
        "no cell size, wall size or maze size fixes all of this together: use a bigger bed, a smaller nozzle or "
        "ball, or a smaller margin",
        "aucune taille de case, de mur ou de labyrinthe ne règle tout à la fois : prendre un plus grand plateau, "
        "une buse ou une bille plus petite, ou une marge plus petite",
    ),
    "warn_fewer_cells": (
        "no cell size fits the {printer} bed ({bed_width} × {bed_depth} mm) with corridors of {limit} mm or more: "
        "fewer rows and columns are needed",
        "aucune taille de case ne tient sur le plateau de la {printer} ({bed_width} × {bed_depth} mm) avec des "
        "couloirs d’au moins {limit} mm : il faut moins de lignes et de colonnes",
    ),
    "warn_suggested": (
        "suggested: {flags}: {plate} mm, fits the {printer} bed ({bed_width} × {bed_depth} mm), passes every check",
        "suggestion : {flags} : {plate} mm, tient sur le plateau de la {printer} ({bed_width} × {bed_depth} mm), "
        "passe tous les contrôles",
    ),
    "warn_not_closed": (
        "the solid is not closed: this is a bug in laby3d, please report it with the maze file",
        "la pièce n’est pas fermée : c’est un bogue de laby3d, merci de le signaler avec le fichier du labyrinthe",
    ),
    "warn_bodies": (
        "the solid has {bodies} separate bodies instead of one",
        "la pièce a {bodies} corps séparés au lieu d’un seul",
    ),
    # --- the walk-through page (laby3d.options.walk) ---
    "walk_too_narrow": (
        "of {wall} mm leaves no room to walk a {maze} of {cell} mm cells (its narrowest passage would be "
        "{corridor} mm wide; at least {least} mm): {remedy_list}",
        "de {wall} mm ne laisse pas la place de marcher dans un {maze} à cases de {cell} mm (son "
        "passage le plus étroit ferait {corridor} mm de large ; au moins {least} mm) : {remedy_list}",
    ),
    "walk_maze_square": ("square maze", "labyrinthe carré"),
    "walk_maze_theta": ("round maze", "labyrinthe rond"),
    "walk_maze_hex": ("hexagon maze", "labyrinthe hexagonal"),
    "walk_maze_triangle": ("triangle maze", "labyrinthe triangulaire"),
    "walk_thinner_walls": ("walls of at most {most} mm", "des murs d’au plus {most} mm"),
    "walk_larger_cells": ("cells of at least {size} mm", "des cases d’au moins {size} mm"),
    # --- a French class's own files (issue 27: laby3d.maze.observe, the exercise's walls.csv and lesson) ---
    "no_steps": (
        "this maze records no generation steps, nor an algorithm and seed to replay them",
        "ce labyrinthe ne garde ni les étapes de sa construction, ni l’algorithme et la graine pour les rejouer",
    ),
}
#: Values that are numbers in a sentence (read back as numbers only, written with a French comma).
NUMBER_VALUES = frozenset(
    "limit width depth base floor nozzle least size height megabytes side most row col last_row last_col rows cols "
    "ball play cell wall corridor layers thickness margin widths ratio room bed_width bed_depth bodies seconds "
    "count rings edge band".split()
)
_SIGNS = {">=": "≥", "<=": "≤"}
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class Message(str):
    """An English sentence that remembers its kind and values, so that it can be said again in
    another language; it is a ``str``, so error messages and comparisons stay as they were."""

    kind: str
    values: dict[str, Any]

    def __new__(cls, kind: str, **values: Any) -> Message:
        english, _ = SENTENCES[kind]
        self = super().__new__(cls, english.format(**{name: _written(name, v, "en") for name, v in values.items()}))
        self.kind, self.values = kind, values
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_message, (self.kind, self.values))

    def said_in(self, lang: str) -> str:
        """The sentence in ``lang``."""
        if lang != "fr":
            return str(self)
        _, french = SENTENCES[self.kind]
        return french.format(**{name: _written(name, value, lang) for name, value in self.values.items()})


def _message(kind: str, values: dict[str, Any]) -> Message:
    return Message(kind, **values)


def _written(name: str, value: Any, lang: str) -> str:
    """A value in a sentence: numbers as ``lang`` writes them, signs as French prints them."""
    if isinstance(value, float):
        return number_text(value, lang)
    text = str(value)
    if lang != "fr":
        return text
    if name == "sign":
        return _SIGNS.get(text, text)
    if name.endswith("_list"):
        return " ; ".join(in_language(part, lang) for part in text.split("; "))
    if name == "maze":  # a kind of maze, itself a phrase of the catalogue
        return in_language(text, lang)
    if " × " in text:  # sizes: 37.6 × 49.6 × 10 → 37,6 × 49,6 × 10
        return " × ".join(french_number(part) for part in text.split(" × "))
    return french_number(text)


@cache
def _templates() -> list[tuple[re.Pattern[str], str]]:
    """Each kind's English template as a pattern, the most literal text first (the most
    specific template wins: ``must be > 0 and < the corridor width`` before ``must be {sign}``)."""
    patterns = []
    for kind, (english, _) in SENTENCES.items():
        seen: set[str] = set()
        parts = []
        for index, piece in enumerate(_PLACEHOLDER.split(english)):
            if index % 2 == 0:
                parts.append(re.escape(piece))
            elif piece in seen:
                parts.append(f"(?P={piece})")
            else:
                seen.add(piece)
                group = {"sign": r"[<>]=?"}.get(piece, ENGLISH_NUMBER if piece in NUMBER_VALUES else r".+?")
                parts.append(f"(?P<{piece}>{group})")
        literal = len(_PLACEHOLDER.sub("", english))
        patterns.append((literal, re.compile("".join(parts), re.DOTALL), kind))
    patterns.sort(key=lambda item: -item[0])
    return [(pattern, kind) for _, pattern, kind in patterns]


def recognised(sentence: str) -> Message | None:
    """The message an English sentence of the catalogue says, read back; None if none says it."""
    if isinstance(sentence, Message):
        return sentence
    for pattern, kind in _templates():
        found = pattern.fullmatch(sentence)
        if found:
            return Message(kind, **found.groupdict())
    return None


def in_language(sentence: str, lang: str) -> str:
    """``sentence`` (English, from laby3d) in ``lang``; unchanged in English, or when the
    catalogue does not know it."""
    if lang != "fr":
        return str(sentence)
    message = recognised(sentence)
    return message.said_in(lang) if message is not None else str(sentence)
