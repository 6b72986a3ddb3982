"""The class set, as the teacher hands it out: a YAML batch file that reproduces every pupil's
files with ``laby3d batch``, and a ZIP of what the batch pipeline writes for that file (manifest
included) with the class's worksheet booklet and answer key and a note for the teacher.

Each valid pupil is one job of the file: their name (engraved as the label and written on the
worksheet, with the class), their own seed, and every option written out (class defaults under,
locks over), so the file stands alone and ``laby3d batch`` on it writes the same bytes as the ZIP
holds. A pupil whose design the locks made invalid is left out and named, with the error, in the
file's comment and the ZIP's note. A pupil who never saved is not left out: their draft (their
last valid preview) is taken, and named as a draft there.

Pupils' designs differ (size, seed, options), so each is a job of its own rather than a name of
one job's ``names`` (whose mazes share every option and derive their seeds from the job's); the
batch makes class booklets per job, so the class booklet and key over every pupil are made here,
after the batch, by the same function (:func:`laby3d.pipeline.render_booklet`).

Everything here that checks or renders runs in a worker process (:mod:`.work`'s pools).
"""

from __future__ import annotations

import io
import tempfile
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from laby3d.export.formats import shapes_of
from laby3d.options.build import merge, nested
from laby3d.serve.classroom import ClassSettings
from laby3d.serve.fields import CLASS_FIELDS
from laby3d.serve.storage import Pupil
from laby3d.serve.uploads import class_outline, pupil_outline, said_as_typed

#: Fixed date of every ZIP entry, so the same class set gives the same ZIP.
ZIP_DATE = (2000, 1, 1, 0, 0, 0)
#: Longest class name a worksheet takes (:class:`laby3d.options.worksheet.WorksheetSpec`).
WORKSHEET_CLASS = 40
#: The class's booklets, made over every pupil's maze.
BOOKLETS = ("worksheet.pdf", "key.pdf")
#: The teacher's note in the ZIP.
NOTE = "README.txt"
#: The note's and the batch file's sentences in the class's language (its ``lang``).
NOTE_TEXTS: dict[str, dict[str, str]] = {
    "yaml_head": {
        "en": "# class set of {name} from laby3d serve; run it with: laby3d batch this-file.yaml",
        "fr": "# lot de la classe {name} venant de « laby3d serve » ; le refaire avec « laby3d batch ce-fichier.yaml »",
    },
    "yaml_left_out": {
        "en": "# left out (invalid design): {name}: {error}",
        "fr": "# laissé de côté (projet invalide) : {name} : {error}",
    },
    "yaml_draft": {
        "en": "# draft (never saved: their last preview): {name}",
        "fr": "# brouillon (jamais enregistré : son dernier aperçu) : {name}",
    },
    "yaml_fewer": {
        "en": "# fewer files (the maze's shape): {name}: {what}",
        "fr": "# moins de fichiers (la forme du labyrinthe) : {name} : {what}",
    },
    "fewer": {
        "en": "no {formats}: not drawn for {shape} mazes yet",
        "fr": "pas de {formats} : pas encore dessiné pour la forme {shape}",
    },
    "title": {"en": "Class set of {name} (laby3d serve)", "fr": "Lot de la classe {name} (« laby3d serve »)"},
    "holds": {
        "en": "{count} pupils' mazes, one folder each (their files, name engraved);\n"
        "the class worksheet booklet and answer key; manifest.json lists every file with its SHA-256.",
        "fr": "Labyrinthes des élèves : {count}, un dossier chacun (leurs fichiers, le nom gravé) ;\n"
        "le livret des fiches de la classe et son corrigé ; manifest.json liste chaque fichier avec son SHA-256.",
    },
    "totals": {
        "en": "Totals: {hours} h {minutes:02d} min of printing, {grams} g of filament.",
        "fr": "Totaux : {hours} h {minutes:02d} min d’impression, {grams} g de filament.",
    },
    "pupils": {"en": "Pupils:", "fr": "Élèves :"},
    "draft": {"en": " (draft)", "fr": " (brouillon)"},
    "drafts": {
        "en": "Drafts (never saved by the pupil: their last preview is taken):",
        "fr": "Brouillons (jamais enregistrés par l’élève : son dernier aperçu est pris) :",
    },
    "fewer_files": {
        "en": "Fewer files (a shape of maze that not every file draws yet):",
        "fr": "Moins de fichiers (une forme de labyrinthe que certains fichiers ne dessinent pas encore) :",
    },
    "left_out": {
        "en": "Left out (their design is invalid under the class's locks; they can fix it and save):",
        "fr": "Laissés de côté (leur projet est invalide avec les réglages fixés pour la classe ; ils peuvent le "
        "corriger et l’enregistrer) :",
    },
}


def _said(key: str, lang: str, **values: Any) -> str:
    """The note's sentence ``key`` in ``lang`` (English for any other value)."""
    return NOTE_TEXTS[key]["fr" if lang == "fr" else "en"].format(**values)


def _lang(found: ClassSet) -> str:
    return str(found.options.get("lang", "en"))


def _error_text(error: Exception, lang: str) -> str:
    """A job's refusal as the teacher reads it in ``lang``: the field's path, then what is wrong."""
    from laby3d.i18n import colon, in_language

    where, detail = getattr(error, "where", ""), getattr(error, "detail", str(error))
    return f"{colon(where, lang)} {in_language(detail, lang)}" if where else in_language(str(error), lang)


@dataclass(frozen=True, kw_only=True)
class ClassSet:
    """The batch file's data: one job per valid pupil, the pupils left out (name, error), the
    class's options (defaults and locks, for the booklets) and where ``laby3d batch`` writes."""

    class_name: str
    output_dir: str
    jobs: list[dict[str, Any]]
    left_out: list[tuple[str, str]]
    options: dict[str, Any]
    #: Pupils whose maze's shape does not take every class format: (name, what is not made).
    fewer_files: list[tuple[str, str]] = field(default_factory=list)
    #: Pupils taken by their draft (their last valid preview): they never saved.
    drafts: list[str] = field(default_factory=list)


def needs_solid(settings: ClassSettings) -> bool:
    """Whether the class set makes solids (then its totals have print time and filament)."""
    from laby3d.export.formats import needs_of

    return any(needs_of(name) == "solid" for name in settings.formats)


def _shape(job: Mapping[str, Any]) -> str:
    maze = job.get("maze")
    shape = maze.get("shape") if isinstance(maze, Mapping) else None
    return shape if isinstance(shape, str) else "square"


def class_formats(settings: ClassSettings, job: Mapping[str, Any]) -> list[str]:
    """The formats of a pupil's job: the class's that draw the job's shape of maze (the maze file
    at least), and its printers' plates when the class set makes solids for a named printer, bed
    or fleet (the plates then hold every such pupil's solid)."""
    formats = [name for name in settings.formats if _shape(job) in shapes_of(name)] or ["maze.json"]
    printing = job.get("print") or {}
    printed = printing.get("printer") or printing.get("bed") or printing.get("fleet")
    if needs_solid(settings) and printed and "plates" not in formats:
        formats.append("plates")
    return formats


def class_set(
    pupils: Sequence[Pupil],
    *,
    settings: ClassSettings,
    locks: Mapping[str, Any],
    files: Mapping[str, Mapping[str, str]] | None = None,
) -> ClassSet:
    """The class set of every pupil with a design, saved or else drafted (:attr:`Pupil.kept`),
    each checked as ``laby3d batch`` checks a job (those it refuses are left out, with the
    error); an uploaded outline is written as its stored file, ``files`` mapping each pupil's
    key to the uploads their design and the locks may use
    (:meth:`laby3d.serve.classroom.Classroom.files`)."""
    from laby3d.config import job_from_dict
    from laby3d.errors import Laby3dError

    files = files or {}
    given_locks = locks
    every = {reference: path for own in files.values() for reference, path in own.items()}
    class_options = merge(dict(settings.defaults), nested(class_outline(locks, every)))
    if "class_name" not in (class_options.get("worksheet") or {}):  # the teacher's own wins
        class_options = merge(class_options, {"worksheet": {"class_name": settings.class_name[:WORKSHEET_CLASS]}})
    jobs, left_out, fewer_files, drafts = [], [], [], []
    for pupil in pupils:
        if pupil.kept is None:
            continue
        own = files.get(pupil.key, {})
        locks = class_outline(given_locks, own)
        try:
            kept = pupil_outline(pupil.kept, own)
        except Laby3dError as error:
            left_out.append((pupil.name, str(error)))
            continue
        data = merge(merge(dict(class_options), nested(kept)), nested(locks))
        printing, classwide = data.get("print") or {}, class_options.get("print") or {}
        data["print"] = {  # how the class's printers are shared is the class's, never a pupil's
            **{key: value for key, value in printing.items() if f"print.{key}" not in CLASS_FIELDS},
            **{key: value for key, value in classwide.items() if f"print.{key}" in CLASS_FIELDS},
        }
        data.update(name=pupil.name, formats=class_formats(settings, data))
        if "label" not in locks:
            data["label"] = pupil.name
        job = {"name": pupil.name, **{key: value for key, value in data.items() if key != "name"}}
        try:
            job_from_dict(dict(job))
        except Laby3dError as error:
            left_out.append((pupil.name, said_as_typed(_error_text(error, str(class_options.get("lang", "en"))), own)))
            continue
        jobs.append(job)
        if pupil.drafted:
            drafts.append(pupil.name)
        missing = [name for name in settings.formats if name not in job["formats"]]
        if missing:
            what = _said("fewer", str(class_options.get("lang", "en")), formats=", ".join(missing), shape=_shape(job))
            fewer_files.append((pupil.name, what))
    output_dir = f"outputs/{settings.class_name}"
    return ClassSet(
        class_name=settings.class_name,
        output_dir=output_dir,
        jobs=jobs,
        left_out=left_out,
        options=class_options,
        fewer_files=fewer_files,
        drafts=drafts,
    )


def class_yaml(found: ClassSet) -> str:
    """The batch file as YAML text, with a comment saying how to run it and who is left out."""
    import yaml

    lang = _lang(found)
    head = [_said("yaml_head", lang, name=repr(found.class_name))]
    head += [_said("yaml_left_out", lang, name=name, error=error) for name, error in found.left_out]
    head += [_said("yaml_draft", lang, name=name) for name in found.drafts]
    head += [_said("yaml_fewer", lang, name=name, what=what) for name, what in found.fewer_files]
    data = {"output_dir": found.output_dir, "jobs": found.jobs}
    return "\n".join(head) + "\n" + yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def class_zip(found: ClassSet) -> bytes:
    """The ZIP of every file ``laby3d batch`` writes for the class set (manifest included), the
    class booklet and answer key over every pupil's maze, and the teacher's note. Runs in one
    worker process, one maze at a time (it is the expensive work's pool)."""
    from concurrent.futures import ThreadPoolExecutor

    from laby3d.batch import expand, run_batch
    from laby3d.config import job_from_dict

    jobs = [job_from_dict(dict(job), f"jobs[{index}]") for index, job in enumerate(found.jobs)]
    with tempfile.TemporaryDirectory(prefix="laby3d-class-") as folder, ThreadPoolExecutor(1) as inline:
        root = Path(folder)
        # the batch's own pool would start processes from this worker: one maze at a time here
        manifest = run_batch(expand(jobs, root), root, executor=inline)
        files = {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    files = {name: data for name, data in files.items() if not Path(name).name.startswith(".")}
    files.update(class_booklets(found, manifest))  # the batch's plates/ (3MF per plate, plan.txt) are in files
    files[NOTE] = teacher_note(found, manifest).encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name])
    return buffer.getvalue()


def class_booklets(found: ClassSet, manifest: Mapping[str, Any]) -> dict[str, bytes]:
    """The class's worksheet booklet and answer key over every pupil whose maze was made, in
    list order, each worksheet with the pupil's name and the class (file name → bytes)."""
    from laby3d.config import job_from_dict
    from laby3d.filenames import safe_name
    from laby3d.maze.model import Maze
    from laby3d.options.build import validated_job
    from laby3d.pipeline import maze_for, render_booklet

    made = {entry["job"] for entry in manifest["mazes"] if not entry.get("error")}
    pupils: list[tuple[Maze, str | None]] = []
    for index, data in enumerate(found.jobs):
        if data["name"] in made:
            job = job_from_dict(dict(data), f"jobs[{index}]")
            pupils.append((maze_for(job, job.seed), job.label))
    if not pupils:
        return {}
    booklet_job = validated_job({**found.options, "formats": list(BOOKLETS)}, cross_checks=False)
    stem = safe_name(found.class_name)
    return {f"{stem}.{kind}": render_booklet(pupils, booklet_job, kind) for kind in BOOKLETS}


def teacher_note(found: ClassSet, manifest: Mapping[str, Any]) -> str:
    """What the ZIP holds, the class totals, and the pupils left out with their error, in the
    class's language (as the plates' plan.txt beside it)."""
    from laby3d.batch import state_of, state_text
    from laby3d.i18n import number_text

    lang = _lang(found)
    totals = manifest.get("totals") or {}
    lines = [_said("title", lang, name=found.class_name), ""]
    lines += _said("holds", lang, count=len(manifest["mazes"])).splitlines()
    if "print_seconds" in totals:
        hours, minutes = divmod(round(totals["print_seconds"] / 60), 60)
        grams = number_text(totals.get("filament_g", 0), lang)
        lines.append(_said("totals", lang, hours=hours, minutes=minutes, grams=grams))
    plates = manifest.get("plates")
    if plates:  # the plan per plate and printer, as plates/plan.txt has it
        from laby3d.plates import plan_text

        lines += ["", *plan_text(plates["printers"], lang).rstrip("\n").splitlines()]
    drafted, colon = set(found.drafts), " : " if lang == "fr" else ": "

    lines += ["", _said("pupils", lang)]
    lines += [
        f"  {entry['job']}{colon}{state_text(state_of(entry), lang)}"
        + (_said("draft", lang) if entry["job"] in drafted else "")
        for entry in manifest["mazes"]
    ]
    if found.drafts:
        lines += ["", _said("drafts", lang)]
        lines += [f"  {name}" for name in found.drafts]
    if found.fewer_files:
        lines += ["", _said("fewer_files", lang)]
        lines += [f"  {name}{colon}{what}" for name, what in found.fewer_files]
    if found.left_out:
        lines += ["", _said("left_out", lang)]
        lines += [f"  {name}{colon}{error}" for name, error in found.left_out]
    return "\n".join(lines) + "\n"
