"""The pupil and teacher pages: small HTML shells whose scripts build the form from
``/api/options``, and the static files they load (three.js from :func:`three_source`, never a CDN).

Every text in the markup goes through :func:`html.escape`; the page's strings travel as a JSON
data block with ``<``, ``>`` and ``&`` escaped (:func:`script_literal`), and the scripts put
names and messages into the page with ``textContent`` only. The content security policy allows
scripts from this server only, so nothing inline runs.
"""

from __future__ import annotations

import html
import json
from importlib import resources

from laby3d.export.scene import script_literal
from laby3d.serve.uploads import MAX_UPLOAD_BYTES

#: Headers of both pages: scripts, styles and requests to this server only.
PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' blob: data:; script-src 'self'; style-src 'self'; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "Cache-Control": "no-store",
}
#: Static files: name → (package file or "three", media type).
STATIC = {
    "three.js": ("three", "text/javascript; charset=utf-8"),
    "viewer.js": ("viewer.js", "text/javascript; charset=utf-8"),
    "form.js": ("form.js", "text/javascript; charset=utf-8"),
    "pupil.js": ("pupil.js", "text/javascript; charset=utf-8"),
    "teacher.js": ("teacher.js", "text/javascript; charset=utf-8"),
    "serve.css": ("serve.css", "text/css; charset=utf-8"),
}
#: Every text of the pages, English and French.
STRINGS: dict[str, dict[str, str]] = {
    "title": {"en": "Design your maze", "fr": "Dessine ton labyrinthe"},
    "teacher_title": {"en": "Class", "fr": "Classe"},
    "name": {"en": "Your name", "fr": "Ton nom"},
    "code": {"en": "Class code", "fr": "Code de la classe"},
    "join": {"en": "Start", "fr": "Commencer"},
    "signed_in": {"en": "You are", "fr": "Tu es"},
    "leave": {"en": "Not you? Change pupil", "fr": "Ce n'est pas toi ? Changer d'élève"},
    "engraved": {"en": "your name, engraved", "fr": "ton nom, gravé"},
    "session_ended": {
        "en": "Your session has ended (the teacher reset it, or the server forgot it): type your name again.",
        "fr": "Ta session est terminée (l'enseignant l'a réinitialisée) : écris de nouveau ton nom.",
    },
    "offline": {
        "en": "The server cannot be reached (stopped, or the network is down); trying again…",
        "fr": "Le serveur ne répond pas (arrêté, ou réseau coupé) ; nouvel essai…",
    },
    "not_json": {"en": "The server answered with an error", "fr": "Le serveur a répondu par une erreur"},
    "locks_changed": {
        "en": "The teacher changed the class's settings; your maze follows them.",
        "fr": "L'enseignant a changé les réglages de la classe ; ton labyrinthe les suit.",
    },
    "more": {"en": "More options", "fr": "Plus d'options"},
    "reroll": {"en": "New maze", "fr": "Nouveau labyrinthe"},
    "upload": {"en": "My image…", "fr": "Mon image…"},
    "uploading": {"en": "Sending…", "fr": "Envoi…"},
    "upload_too_big": {
        "en": f"This image is more than {MAX_UPLOAD_BYTES / 1e6:g} MB: a smaller image works as well.",
        "fr": f"Cette image fait plus de {MAX_UPLOAD_BYTES / 1e6:g} Mo : une image plus petite convient aussi.",
    },
    "save": {"en": "Save my maze", "fr": "Enregistrer mon labyrinthe"},
    "saved": {"en": "Saved", "fr": "Enregistré"},
    "draft_kept": {"en": "Draft kept, not saved yet", "fr": "Brouillon gardé, pas encore enregistré"},
    "not_saved": {"en": "Not saved yet", "fr": "Pas encore enregistré"},
    "pin_label": {"en": "Your personal code", "fr": "Ton code personnel"},
    "your_pin": {"en": "your personal code:", "fr": "ton code personnel :"},
    "need_name": {"en": "Type your name first", "fr": "Écris d'abord ton nom"},
    "downloads": {"en": "Download", "fr": "Télécharger"},
    "other_formats": {"en": "Other files", "fr": "Autres fichiers"},
    "preview2d": {"en": "From above", "fr": "Vu de dessus"},
    "preview3d": {
        "en": "In 3D (drag to turn, wheel to zoom)",
        "fr": "En 3D (glisser pour tourner, molette pour zoomer)",
    },
    "report": {"en": "Printability", "fr": "Impression"},
    "size": {"en": "Size", "fr": "Taille"},
    "fits": {"en": "Fits the printer", "fr": "Tient sur l'imprimante"},
    "fits_not": {"en": "Does not fit the printer", "fr": "Ne tient pas sur l'imprimante"},
    "fits_on": {"en": "Fits", "fr": "Tient sur"},
    "time": {"en": "Print time", "fr": "Durée d'impression"},
    "filament": {"en": "Filament", "fr": "Filament"},
    "busy": {"en": "Busy, trying again…", "fr": "Occupé, nouvel essai…"},
    "locked": {"en": "set by the teacher", "fr": "fixé par l'enseignant"},
    "token": {"en": "Teacher token", "fr": "Code enseignant"},
    "open": {"en": "Open", "fr": "Ouvrir"},
    "pupils": {"en": "Pupils", "fr": "Élèves"},
    "status": {"en": "Status", "fr": "État"},
    "locks": {"en": "Lock for the class", "fr": "Fixer pour la classe"},
    "save_locks": {"en": "Save the locks", "fr": "Enregistrer"},
    "class_zip": {"en": "Class set (ZIP)", "fr": "Lot de la classe (ZIP)"},
    "class_yaml": {"en": "Batch file (YAML)", "fr": "Fichier de lot (YAML)"},
    "totals": {"en": "Totals", "fr": "Totaux"},
    "mazes": {"en": "mazes", "fr": "labyrinthes"},
    "of_printing": {"en": "of printing", "fr": "d'impression"},
    "of_filament": {"en": "of filament", "fr": "de filament"},
    "col_name": {"en": "Name", "fr": "Nom"},
    "col_printer": {"en": "Printer", "fr": "Imprimante"},
    "col_seed": {"en": "Seed", "fr": "Graine"},
    "remove": {"en": "Remove", "fr": "Retirer"},
    "col_pin": {"en": "Code", "fr": "Code"},
    "col_changed": {"en": "Last change", "fr": "Dernière modification"},
    "col_saved": {"en": "Last save", "fr": "Dernier enregistrement"},
    "col_renders": {"en": "Renders", "fr": "Calculs"},
    "draft": {"en": "draft", "fr": "brouillon"},
    "never": {"en": "never", "fr": "jamais"},
    "rendering": {"en": "rendering", "fr": "en cours"},
    "waiting": {"en": "waiting", "fr": "en attente"},
    "last_minute": {"en": "in the last minute", "fr": "dans la dernière minute"},
    "working": {"en": "Working…", "fr": "En cours…"},
    "join_at": {"en": "Pupils join at", "fr": "Les élèves se connectent sur"},
    "with_code": {"en": "with the code", "fr": "avec le code"},
    "reset": {"en": "Reset session", "fr": "Réinitialiser la session"},
    "connected": {"en": "connected", "fr": "connecté"},
    "confirm_lock": {"en": "Lock anyway", "fr": "Fixer quand même"},
    "would_invalidate": {
        "en": "These pupils' designs would become invalid:",
        "fr": "Les labyrinthes de ces élèves deviendraient invalides :",
    },
    "updating": {"en": "updating", "fr": "mise à jour"},
    "queue_previews": {"en": "preview", "fr": "des aperçus"},
    "queue_expensive": {"en": "lesson, GIF and class set", "fr": "des leçons, GIF et lots de classe"},
    "status_warn": {"en": "WARN", "fr": "ATTENTION"},
    "status_invalid": {"en": "invalid", "fr": "invalide"},
    "status_joined": {"en": "joined", "fr": "connecté, sans labyrinthe enregistré"},
    "left_out": {"en": "pupils left out (see README.txt in the ZIP)", "fr": "élèves laissés de côté (voir README.txt)"},
}


def strings(lang: str) -> dict[str, str]:
    """The pages' texts in ``lang`` (English for any other value)."""
    column = lang if lang in ("en", "fr") else "en"
    return {key: row[column] for key, row in STRINGS.items()}


def _shell(*, kind: str, title: str, class_name: str, lang: str, body: str, scripts: tuple[str, ...]) -> str:
    config = json.dumps({"class": class_name, "lang": lang, "text": strings(lang)}, ensure_ascii=False)
    tags = "\n".join(f'<script src="/static/{name}"></script>' for name in scripts)
    return "\n".join(
        [
            "<!DOCTYPE html>",
            f'<html lang="{html.escape(lang)}">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{html.escape(title)} · {html.escape(class_name)}</title>",
            '<link rel="icon" href="data:,">',
            '<link rel="stylesheet" href="/static/serve.css">',
            "</head>",
            f'<body class="{kind}">',
            f'<script type="application/json" id="laby3d-config">{script_literal(config)}</script>',
            body,
            tags,
            "</body>",
            "</html>",
            "",
        ]
    )


def pupil_html(*, class_name: str, lang: str = "en", code_required: bool = False) -> str:
    """The pupil's page: joining (name, and the class code when there is one), then the form,
    2D and 3D previews, report and downloads."""
    text = strings(lang)
    code = (
        f'<label class="name">{html.escape(text["code"])} <input id="code" maxlength="40" autocomplete="off"></label>'
        if code_required
        else ""
    )
    body = f"""<header><h1>{html.escape(text["title"])}</h1><span class="class">{html.escape(class_name)}</span>
<form id="join"><label class="name">{html.escape(text["name"])}
<input id="name" maxlength="60" autocomplete="off"></label>
{code}<label class="name" id="pin-row" hidden>{html.escape(text["pin_label"])}
<input id="pin" maxlength="8" inputmode="numeric" autocomplete="off"></label>
<button>{html.escape(text["join"])}</button>
<span id="name-error" class="error" role="alert"></span> <span id="code-error" class="error" role="alert"></span>
<span id="pin-error" class="error" role="alert"></span></form>
<p id="who" hidden>{html.escape(text["signed_in"])} <b id="who-name"></b> <span id="who-pin"></span>
<button type="button" id="leave">{html.escape(text["leave"])}</button></p></header>
<p id="general-error" class="error banner" role="alert"></p>
<main id="design" hidden>
<form id="form" novalidate></form>
<section id="previews">
<figure><figcaption>{html.escape(text["preview2d"])}</figcaption><img id="preview2d" alt=""></figure>
<figure><figcaption>{html.escape(text["preview3d"])}</figcaption><canvas id="preview3d"></canvas></figure>
</section>
<aside><h2>{html.escape(text["report"])}</h2><div id="report" aria-live="polite"></div>
<button type="button" id="save">{html.escape(text["save"])}</button> <span id="save-state" aria-live="polite"></span>
<h2>{html.escape(text["downloads"])}</h2><div id="downloads"></div><p id="download-state"></p></aside>
</main>"""
    scripts = ("three.js", "viewer.js", "form.js", "pupil.js")
    return _shell(kind="pupil", title=text["title"], class_name=class_name, lang=lang, body=body, scripts=scripts)


def teacher_html(*, class_name: str, lang: str = "en") -> str:
    """The teacher's page: how pupils join (address, code, QR code), class list, totals, locks and
    the class set downloads (the token is read from the address's ``#token=…``, which browsers
    never send to the server, then taken out of the address bar)."""
    text = strings(lang)
    body = f"""<header><h1>{html.escape(text["teacher_title"])} {html.escape(class_name)}</h1>
<p id="join-info"></p><img id="qr" alt="" hidden></header>
<form id="token-form" hidden><label>{html.escape(text["token"])} <input id="token" autocomplete="off"></label>
<button>{html.escape(text["open"])}</button></form>
<p id="general-error" class="error" role="alert"></p>
<main class="teacher">
<section><h2>{html.escape(text["pupils"])}</h2><table id="pupils"><thead></thead><tbody></tbody></table>
<p id="totals"></p>
<p><button type="button" id="class-zip">{html.escape(text["class_zip"])}</button>
<button type="button" id="class-yaml">{html.escape(text["class_yaml"])}</button> <span id="class-state"></span></p>
</section>
<section><h2>{html.escape(text["locks"])}</h2><form id="locks" novalidate></form>
<div id="lock-check" role="alert"></div>
<button type="button" id="save-locks">{html.escape(text["save_locks"])}</button> <span id="locks-state"></span>
</section>
</main>"""
    scripts = ("form.js", "teacher.js")
    title = text["teacher_title"]
    return _shell(kind="teacher", title=title, class_name=class_name, lang=lang, body=body, scripts=scripts)


def static_file(name: str) -> tuple[bytes, str] | None:
    """A static file's bytes and media type, or None; ``name`` is looked up, never a path."""
    entry = STATIC.get(name)
    if entry is None:
        return None
    source, media_type = entry
    if source == "three":
        from laby3d.export.browser import three_source

        return three_source().encode(), media_type
    return resources.files("laby3d.serve").joinpath("static").joinpath(source).read_bytes(), media_type
