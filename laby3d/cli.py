"""The ``laby3d`` command line: a thin layer of flags over the Python API.

The option flags of ``generate``, ``export``, ``show`` and ``stats`` are generated from the
option fields (:mod:`laby3d.options`), and build the same :class:`laby3d.options.Job` a YAML
batch file describes, so both paths share validation, defaults and code.

Exit status: 0 done; 2 what was typed is wrong (one line naming the flag); 1 the work could not
be done (a file could not be written, a batch job failed, or a bug in laby3d).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from laby3d.errors import InternalError, Laby3dError, OutputError, ParameterError
from laby3d.export.formats import CLASS_FORMATS, FORMATS, format_for
from laby3d.maze.algorithms import ALGORITHMS, GRAPH_ALGORITHMS
from laby3d.maze.model import Maze
from laby3d.maze.placement import PLACEMENTS
from laby3d.options.base import option_fields
from laby3d.options.flags import add_option_flags, all_flags, typed_options
from laby3d.options.maze import MazeSpec, refuse_unused_cols
from laby3d.printability import PRINTERS
from laby3d.quoting import shown
from laby3d.tessellation import SHAPES

if TYPE_CHECKING:
    from laby3d.maze.model import Maze

#: The verbs, in the order ``laby3d --help`` lists them.
VERBS = ("generate", "export", "import", "batch", "validate", "schema", "show", "stats", "serve", "list")
#: Sections of options that shape the outputs (everything but the maze itself).
OUTPUT_SECTIONS = ("", "print", "pictures", "laser", "walk", "worksheet")


def job_from_flags(
    args: argparse.Namespace,
    formats: Sequence[str],
    maze: Maze | None = None,
    stated: dict[str, Any] | None = None,
) -> Any:
    """The checked :class:`laby3d.options.Job` the typed flags describe; ``maze`` gives the shape,
    rows and cols when the maze comes from a file, ``stated`` the options that file states (dotted
    paths; a typed flag, or a typed preset setting the same option, wins)."""
    from laby3d.options.build import maze_size_values, nested, validated_job
    from laby3d.options.presets import PRESETS

    typed = typed_options(args)
    preset = PRESETS.get(typed.get("preset") or "", {})
    preset_paths = {f"{section}.{name}" for section, fields in preset.items() for name in fields}
    values = {path: value for path, value in (stated or {}).items() if path not in preset_paths}
    values.update(typed)
    if maze is not None:
        values.update(maze_size_values(maze.shape, (maze.rows, maze.cols)))
    values["formats"] = list(formats)
    typed_maze = {path.partition(".")[2]: value for path, value in typed.items() if path.startswith("maze.")}
    refuse_unused_cols(values.get("maze.shape"), typed_maze)
    try:
        return validated_job(nested(values))
    except ParameterError as error:
        if error.field == "formats":  # the formats are the -o files' endings
            raise ParameterError(error.detail, field="output") from None
        raise


def _read_maze(path: str) -> tuple[Maze, dict[str, Any]]:
    """The maze of a ``.maze.json`` file (any shape), or of a walk-through's ``.scene.json`` with
    the options the scene states (sizes, teacher switches, label, language; dotted paths)."""
    from laby3d.maze.mazefile import read_maze_file, read_text

    if not path.lower().endswith(".scene.json"):
        return read_maze_file(path), {}
    from laby3d.errors import MazeFileError
    from laby3d.export.scene import read_scene, scene_limits
    from laby3d.quoting import shown_path

    text = read_text(path, scene_limits())  # names the file itself
    try:
        scene = read_scene(text)
    except MazeFileError as error:
        raise MazeFileError(f"{shown_path(path)}: {error}") from None
    return scene.maze, scene.options()


def _generated(args: argparse.Namespace, formats: Sequence[str] = ("maze.json",)) -> tuple[Maze, Any]:
    """The maze the flags describe (or read with ``--input``) and its job."""
    if getattr(args, "input", None):
        moot = [path for path in typed_options(args) if path.startswith("maze.") or path == "seed"]
        if moot:
            raise ParameterError("has no effect with --input: the maze comes from the file", field=moot[0])
        maze, _ = _read_maze(args.input)
        return maze, job_from_flags(args, formats, maze)
    from laby3d.pipeline import maze_for

    job = job_from_flags(args, formats)
    return maze_for(job, job.seed), job


def _refuse_unread(args: argparse.Namespace, formats: Sequence[str], where: str, *, maze_made: bool) -> None:
    """Refuse, naming its flag, a typed option that none of ``formats`` reads: ``where`` says
    what was asked for; the maze's own options, its seed and a preset count when the maze is
    made here (``maze_made``); the language always does, the command's own lines are said in it."""
    readers = [FORMATS[name] for name in formats]
    for path in typed_options(args):
        if maze_made and (path.startswith("maze.") or path in ("seed", "preset")):
            continue
        if path not in ("preset", "lang") and not any(fmt.reads(path) for fmt in readers):
            raise ParameterError(f"has no effect {where}", field=path)


def _refuse_typed(args: argparse.Namespace, paths: Sequence[str], where: str) -> None:
    """Refuse, naming its flag, the first typed option among ``paths`` (dotted paths; ``maze.``
    for the whole section): the verb cannot honour it."""
    for path in typed_options(args):
        if any(path == p or (p.endswith(".") and path.startswith(p)) for p in paths):
            raise ParameterError(f"has no effect {where}", field=path)


def _outputs(paths: Sequence[str]) -> dict[str, str]:
    """Format name → output path (``~`` and ``$VARIABLES`` expanded), one each (a second path
    of one format is refused)."""
    from laby3d.export.writer import check_not_system, expand_path

    outputs: dict[str, str] = {}
    for typed in paths:
        try:
            path = expand_path(typed)
        except ParameterError as error:
            raise ParameterError(error.detail, field="output") from None
        check_not_system(path)  # before any work
        name = format_for(path).name
        if name in outputs:
            raise ParameterError(f"gives two {name} files ({outputs[name]}, {path}); one per format", field="output")
        outputs[name] = path
    return outputs


def _write(maze: Maze, job: Any, outputs: dict[str, str]) -> None:
    from laby3d.export.writer import write_outputs
    from laby3d.pipeline import render_all

    rendered = render_all(maze, job, list(outputs))
    contents = {outputs[name]: data for name, data in rendered.files.items() if name in outputs}
    for suffix, owner in rendered.companions.items():  # beside their format's file: m.printability.json
        beside = outputs[owner]
        contents[f"{beside[: -len(format_for(beside).suffix)]}.{suffix}"] = rendered.files[suffix]
    from laby3d.i18n.formatting import count_text
    from laby3d.i18n.terminal import said

    for written in write_outputs(contents):
        print(said("wrote", job.lang).format(path=written, size=count_text(written.stat().st_size, job.lang)))
    if rendered.report is not None:
        _print_report(rendered.report, job.lang)
    from laby3d.i18n import in_language

    prefix = "découpe laser, attention :" if job.lang == "fr" else "laser warning:"
    for message in rendered.laser_warnings:
        print(f"{prefix} {in_language(message, job.lang)}")


def _print_report(report: dict[str, Any], lang: str) -> None:
    """The solid's report (:mod:`laby3d.printability`) in a few lines, in ``lang``."""
    from laby3d.i18n import in_language
    from laby3d.i18n.formatting import count_text, duration_text, number_text
    from laby3d.i18n.terminal import label_placed, said

    def number(value: float, digits: int | None = None) -> str:
        return number_text(value, lang, digits=digits)

    mass, count = report["mass"], report["bodies"]
    typical = said("typical", lang).format(grams=number(mass["typical_g"])) if "typical_g" in mass else ""
    print(
        said("solid_made", lang).format(
            size=" × ".join(number(value) for value in report["size_mm"]),
            state=said("watertight" if report["watertight"] else "not watertight", lang),
            bodies=said("one body", lang) if count == 1 else said("bodies", lang).format(count=count),
            volume=number(report["volume_mm3"] / 1000, 1),
            grams=number(mass["solid_g"]),
            typical=typical,
            triangles=count_text(report["triangles"], lang),
        )
    )
    if "label" in report:
        label = report["label"]
        placed = label_placed(label["side"], label["mode"], label["cap_height_mm"], label["depth_mm"], lang)
        text = f"« {label['text']} »" if lang == "fr" else repr(label["text"])
        print(said("label_made", lang).format(text=text, placed=placed))
    if "print_time" in report:
        time = duration_text(report["print_time"]["seconds"], lang)
        print(said("print_time", lang).format(printer=report["printer"]["name"], time=time))
    if "printer" in report and report["printer"]["fits"]:
        print(said("fits_bed", lang).format(printer=report["printer"]["name"]))
    elif report.get("common_printers"):
        print(said("fits", lang).format(printers=", ".join(report["common_printers"])))
    for message in report["warnings"]:
        print(said("warning", lang).format(message=in_language(message, lang)))


def _describe(maze: Maze, lang: str = "en") -> str:
    """``maze 15×15 kruskal seed 1``: the shape named unless it is the default one (``maze theta
    12 rings …``, ``maze hex 8×9 …``); in ``lang``."""
    from laby3d.i18n.terminal import said

    size = said("rings", lang).format(rows=maze.rows) if maze.cols is None else f"{maze.rows}×{maze.cols}"
    shape = "" if maze.shape == option_fields(MazeSpec)["shape"].default else f"{maze.shape} "
    return said("maze_made", lang).format(shape=shape, size=size, algorithm=maze.algorithm, seed=maze.seed)


def _prints_as_text(maze: Maze) -> bool:
    """Whether the maze has text art (the ``txt`` format draws its shape)."""
    return maze.shape in FORMATS["txt"].shapes


def cmd_generate(args: argparse.Namespace) -> None:
    outputs = _outputs(args.output)
    maze, job = _generated(args, list(outputs) or ["maze.json"])
    if outputs:
        _refuse_unread(args, list(outputs), f"on the files asked for ({', '.join(outputs)})", maze_made=True)
    else:
        _refuse_unread(args, ["txt"], "without an output file (-o): the maze is printed as text", maze_made=True)
    if job.laser.mode == "kerf-test" and outputs and all(FORMATS[name].needs == "laser" for name in outputs):
        from laby3d.i18n.terminal import said

        print(said("kerf_card", job.lang).format(material=job.laser.wall_material))
    else:
        print(_describe(maze, job.lang))
    if not outputs:
        from laby3d.pipeline import RenderContext

        if _charset(job.pictures.charset) != job.pictures.charset:
            job = replace(job, pictures=replace(job.pictures, charset="ascii"))
        text = "txt" if _prints_as_text(maze) else "maze.json"  # no text art of other shapes: the file
        sys.stdout.write(RenderContext(maze, job).render(text).decode())
        return
    _write(maze, job, outputs)


def cmd_export(args: argparse.Namespace) -> None:
    if "seed" in typed_options(args):
        raise ParameterError("has no effect with export: the maze, and its seed, come from the file", field="seed")
    outputs = _outputs(args.output)
    maze, stated = _read_maze(args.maze_file)
    job = job_from_flags(args, list(outputs), maze, stated)
    _refuse_unread(args, list(outputs), f"on the files asked for ({', '.join(outputs)})", maze_made=False)
    _write(maze, job, outputs)


def cmd_import(args: argparse.Namespace) -> None:
    from laby3d.maze.classroom import read_classroom
    from laby3d.maze.convert import OPENING_PLACEMENTS

    typed = typed_options(args)
    placement = typed.get("maze.placement")
    if placement is not None and placement not in OPENING_PLACEMENTS:
        raise ParameterError(
            f"opens a closed maze at {' or '.join(OPENING_PLACEMENTS)}, got {placement}", field="maze.placement"
        )
    if "seed" in typed and placement != "opposite-sides":
        raise ParameterError(
            "has no effect with import: the maze comes from the form (--placement opposite-sides draws from it)",
            field="seed",
        )
    outputs = _outputs(args.output)
    maze = read_classroom(args.form, placement=placement, seed=typed.get("seed", 0))
    job = job_from_flags(args, list(outputs), maze)
    # the placement was used here, on the form's maze: only the seed and placement are the maze's
    _refuse_unread(args, list(outputs), f"on the files asked for ({', '.join(outputs)})", maze_made=True)
    from laby3d.i18n.terminal import said

    inside = said("inside", job.lang)
    ends = " → ".join(f"({o.row}, {o.col}) {o.side or inside}" for o in (maze.entrance, maze.exit) if o is not None)
    print(said("imported", job.lang).format(rows=maze.rows, cols=maze.cols, ends=ends))
    _write(maze, job, outputs)


def cmd_show(args: argparse.Namespace) -> None:
    _refuse_typed(args, ("label", "lang"), "with show, which prints the maze as text")
    if args.input:
        _refuse_typed(args, ("preset",), "with --input: the maze comes from the file")
    if args.sets_after is not None and args.solution:
        raise ParameterError(
            "has no effect with --sets-after (a maze part-way through has no solution yet)", field="--solution"
        )
    if args.sets_after is None:
        _refuse_typed(args, ("worksheet.numbering",), "without --sets-after (the finished maze is one zone)")
    if args.compact and args.solution:
        raise ParameterError("has no effect with --compact (the exercise's form has no solution)", field="--solution")
    maze, job = _generated(args)
    if not _prints_as_text(maze):
        able = ", ".join(name for name, fmt in FORMATS.items() if maze.shape in fmt.shapes)
        raise ParameterError(
            f"laby3d show prints square mazes only: a {maze.shape} maze's walls do not lie on a grid of "
            f"characters; draw it with generate -o NAME.png (formats for {maze.shape} mazes: {able})"
        )
    if args.sets_after is not None:
        from laby3d.maze.observe import partial_maze, zone_numbers

        try:
            labels = zone_numbers(maze, args.sets_after, numbering=job.worksheet.numbering)
        except ParameterError as error:
            raise ParameterError(error.detail, field="--sets-after") from None
        partial = partial_maze(maze, args.sets_after)
        if args.compact:
            print(_compact(partial, labels))
            return
        sys.stdout.write(partial.to_ascii(labels=labels, charset=_charset(args.charset)))
        return
    if args.compact:
        print(_compact(maze))
        return
    sys.stdout.write(maze.to_ascii(solution=args.solution, charset=_charset(args.charset)))


def _compact(maze: Maze, zones: Any = None) -> str:
    """What the class exercise's ``print(labyrinthe)`` prints for ``maze``: its rows of N/E/S/O
    cells as one Python literal (with each cell's ``zone`` when given)."""
    from laby3d.maze.convert import to_classroom

    return repr(to_classroom(maze, zones=zones))


def _charset(asked: str) -> str:
    """The text art charset for standard output: ``asked``, or ascii where the console's encoding
    has no box drawing (cp1252, cp850, ascii)."""
    from laby3d.console import can_draw_boxes

    return asked if asked == "ascii" or can_draw_boxes() else "ascii"


def cmd_stats(args: argparse.Namespace) -> None:
    _refuse_typed(args, ("label",), "with stats, which prints numbers")
    if not args.table:
        if args.seeds is not None:
            raise ParameterError("has no effect without --table (one maze's statistics)", field="--seeds")
        from laby3d.i18n.formatting import french_number
        from laby3d.i18n.terminal import STATS_IN_FRENCH

        maze, job = _generated(args)
        print(_describe(maze, job.lang))
        french, width = job.lang == "fr", 26 if job.lang == "fr" else 18
        for name, value in maze.stats().as_dict().items():
            label, text = (STATS_IN_FRENCH[name], french_number(str(value))) if french else (name, value)
            print(f"  {label:{width}} {text}")
        return
    from laby3d.budget import check_table
    from laby3d.maze.stats import algorithm_table

    if args.input:
        raise ParameterError("has no effect with --table, which makes its own mazes", field="--input")
    _refuse_typed(
        args,
        ("seed", *(f"maze.{name}" for name in option_fields(MazeSpec) if name not in ("rows", "cols"))),
        "with --table: it makes mazes of every algorithm from seeds 0, 1, 2…",
    )
    job = job_from_flags(args, ["maze.json"])
    seeds = 20 if args.seeds is None else args.seeds
    if seeds < 1:
        raise ParameterError(f"must be at least 1, got {seeds}", field="--seeds")
    check_table(job.maze.rows, job.maze.cols, seeds, len(ALGORITHMS))
    print(algorithm_table(job.maze.rows, job.maze.cols, seeds=seeds, lang=job.lang))


def cmd_list(args: argparse.Namespace) -> None:
    print("algorithms:")
    for algorithm in ALGORITHMS.values():
        flag = " (uniform)" if algorithm.uniform else ""
        flag += "" if algorithm.name in GRAPH_ALGORITHMS else " (square grid only)"
        print(f"  {algorithm.name:19} {algorithm.summary}{flag}")
        for name, option in algorithm.options.items():
            print(f"  {'':19}   --{name} {option.description} (default {option.default})")
    print("placements: " + ", ".join(PLACEMENTS))
    print("shapes (--shape; docs/shapes.md):")
    for shape in SHAPES.values():
        print(f"  {shape.name:14} {shape.description}")
    print("printers: " + ", ".join(f"{name} {x:g}×{y:g}×{z:g}" for name, (x, y, z) in PRINTERS.items()))
    print("formats (the output file name ends with .NAME; in YAML's formats: NAME):")
    for fmt in FORMATS.values():
        print(f"  {fmt.name:14} {fmt.description}")
    print("made once over a batch's mazes (YAML's formats only):")
    for whole in CLASS_FORMATS.values():
        print(f"  {whole.name:14} {whole.description}")


def cmd_batch(args: argparse.Namespace) -> int:
    from laby3d.batch import failure_lines, plan_batch, progress_printer, run_plan, summary_lines
    from laby3d.options.build import nested, validated_job

    overrides = nested(typed_options(args))  # over every job: --printers
    validated_job(overrides, cross_checks=False)  # a bad value is named as typed
    plan = plan_batch(args.config, output_dir=args.output_dir, only=args.only, overrides=overrides)
    try:
        for name, seed in plan.drawn_seeds():
            if plan.lang == "fr":
                print(
                    f"travail {name} : graine {seed} tirée ; ajouter « seed: {seed} » au travail pour refaire "
                    "les mêmes labyrinthes"
                )
            else:
                print(f"job {name}: seed {seed} drawn; add 'seed: {seed}' to the job to get the same mazes again")
        if args.dry_run:
            print("\n".join(plan.listing()))
            return 0
        manifest = run_plan(
            plan, workers=args.jobs, scheduler=args.scheduler, progress=progress_printer(lang=plan.lang)
        )
    except Laby3dError as error:
        error.lang = error.lang or plan.lang  # said in the batch's language
        raise
    print("\n".join(summary_lines(manifest, plan.output_dir, plan.lang)))
    for line in failure_lines(manifest, plan.lang):
        _print_error(line)
    return 1 if manifest["failed"] else 0


def cmd_validate(args: argparse.Namespace) -> None:
    from laby3d.config import load_batch
    from laby3d.export.writer import check_output_folder

    batch, jobs = load_batch(args.config)
    if batch.output_dir is not None:  # a folder no run may fill; whether it is empty is for the run to see
        check_output_folder(batch.output_dir, example=Path(args.config).stem)
    if jobs and all(job.lang == "fr" for job in jobs):
        print(f"{args.config} : {len(jobs)} travail(s), valide")
    else:
        print(f"{args.config}: {len(jobs)} jobs, valid")


def cmd_schema(args: argparse.Namespace) -> None:
    if args.markdown:
        from laby3d.options.tables import option_tables

        sys.stdout.write(option_tables())
        return
    from laby3d.config import batch_schema

    print(json.dumps(batch_schema(), indent=2))


def cmd_serve(args: argparse.Namespace) -> None:
    try:
        from laby3d.serve import run
    except ImportError as error:
        raise Laby3dError(
            f"laby3d serve needs its extra: pip install 'laby3d[serve]' ({error.name} is missing)"
        ) from None
    _check_can_listen(args.host, args.port)
    run(
        host=args.host,
        port=args.port,
        class_name=args.class_name,
        config=args.config,
        folder=args.folder,
        workers=args.workers,
        code=args.code,
        rate=args.rate,
        new_token=args.new_token,
        host_names=tuple(args.host_name),
    )


def _port(text: str) -> int:
    """A TCP port number, for argparse."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number 1..65535, got {shown(text)}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"must be 1..65535, got {shown(port)}")
    return port


def _host_name(text: str) -> str:
    """A DNS name, for argparse: letters, digits, hyphens and dots."""
    import re

    if not re.fullmatch(
        r"(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?",
        text,
    ):
        raise argparse.ArgumentTypeError(f"must be a host name such as labo.lycee.fr, got {shown(text)}")
    return text


def _class_code(text: str) -> str:
    """A class code, for argparse: 1 to 40 printable characters, no spaces."""
    if not 1 <= len(text) <= 40 or not text.isprintable() or any(char.isspace() for char in text):
        raise argparse.ArgumentTypeError(f"must be 1 to 40 printable characters without spaces, got {text!r}")
    return text


def _rate(text: str) -> float:
    """Renders a second per pupil, for argparse."""
    try:
        rate = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number 0.1..50, got {text!r}") from None
    if not 0.1 <= rate <= 50:
        raise argparse.ArgumentTypeError(f"must be 0.1..50, got {text}")
    return rate


def _workers(text: str) -> int:
    """Worker processes, for argparse."""
    if not text.isdigit() or not 1 <= int(text) <= 16:
        raise argparse.ArgumentTypeError(f"must be a whole number 1..16, got {text!r}")
    return int(text)


def _check_can_listen(host: str, port: int) -> None:
    """Refuse, before anything is stored or printed, an address the server could not listen on."""
    import socket

    from laby3d.export.writer import cause

    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:
        raise OutputError(f"--host {shown(host)} --port {port}: cannot listen there: {cause(error)}") from None
    except (UnicodeError, ValueError):  # a name no resolver takes (a label over 63 characters, a NUL)
        raise OutputError(f"--host {shown(host)}: not an address or host name") from None


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump), exit status 2, in ``lang``."""

    lang = "en"

    def error(self, message: str) -> NoReturn:
        from laby3d.console import one_line

        if self.lang == "fr":
            from laby3d.i18n.terminal import argparse_in_french

            line = f"laby3d: erreur : {argparse_in_french(message)} (voir {self.prog} --help)"
        else:
            line = f"laby3d: error: {message} (see {self.prog} --help)"
        self.exit(2, one_line(line) + "\n")


def build_parser(lang: str = "en", verb: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of every verb, the option flags' help in ``lang``; with ``verb`` (one of
    :data:`VERBS`, typed first), that verb's alone (a command starts sooner: the others' flags
    are never read)."""
    parser = _Parser(
        prog="laby3d", description="Mazes (perfect or braided, of any outline) to print, cut, view and walk."
    )
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB", parser_class=_Parser)
    output_help = "output file, format by its ending (see laby3d list); repeatable"

    if verb in (None, "generate"):
        p = verbs.add_parser("generate", help="generate one maze and write outputs (format by suffix)")
        p.add_argument("--output", "-o", action="append", default=[], metavar="PATH", help=output_help)
        add_option_flags(p, ("maze", *OUTPUT_SECTIONS), lang)
        p.set_defaults(run=cmd_generate)

    if verb in (None, "export"):
        p = verbs.add_parser("export", help="write outputs for a .maze.json or .scene.json file")
        p.add_argument("maze_file")
        p.add_argument("--output", "-o", action="append", required=True, metavar="PATH", help=output_help)
        add_option_flags(p, OUTPUT_SECTIONS, lang)
        p.set_defaults(run=cmd_export)

    if verb in (None, "import"):
        p = verbs.add_parser(
            "import",
            help="write outputs for a maze in the class exercise's form (rows of N/E/S/O cells; JSON or Python)",
        )
        p.add_argument("form", help="classroom file: .json, .py (a literal, never run) or - for standard input")
        p.add_argument("--output", "-o", action="append", required=True, metavar="PATH", help=output_help)
        add_option_flags(p, OUTPUT_SECTIONS, lang)
        add_option_flags(p, ("maze",), lang, only=("maze.placement",))  # opens a closed maze
        p.set_defaults(run=cmd_import)

    if verb in (None, "batch"):
        p = verbs.add_parser("batch", help="run a YAML batch file (see configs/)")
        p.add_argument("config", help="YAML batch file")
        p.add_argument("-j", "--jobs", type=int, help="parallel worker processes (default: number of cores)")
        p.add_argument("--dry-run", action="store_true", help="list the mazes and files without writing")
        p.add_argument("--only", nargs="+", metavar="NAME", help="run only these jobs")
        p.add_argument("--output-dir", help="override output_dir")
        p.add_argument(
            "--scheduler",
            metavar="ADDRESS",
            help="run the mazes on a Dask cluster (tcp://host:8786, or 'local' for a local one); needs laby3d[dask]",
        )
        add_option_flags(p, ("print",), lang, only=("print.printers",))  # over every job
        p.set_defaults(run=cmd_batch)

    if verb in (None, "validate"):
        p = verbs.add_parser("validate", help="check a YAML batch file without writing anything")
        p.add_argument("config")
        p.set_defaults(run=cmd_validate)

    if verb in (None, "schema"):
        p = verbs.add_parser("schema", help="print the JSON Schema of a batch file (for editor completion)")
        p.add_argument("--markdown", action="store_true", help="print the option tables of the README instead")
        p.set_defaults(run=cmd_schema)

    if verb in (None, "show"):
        p = verbs.add_parser("show", help="print the maze as text")
        p.add_argument("--input", "-i", help="read this .maze.json instead of generating")
        p.add_argument("--solution", action="store_true", help="mark the solution")
        p.add_argument("--charset", choices=("unicode", "ascii"), default="unicode", help="text art characters")
        p.add_argument(
            "--sets-after",
            type=int,
            metavar="K",
            help="show the zone numbers after K steps, walls drawn (the class exercise's rule, README)",
        )
        p.add_argument(
            "--compact",
            action="store_true",
            help="print the maze as the class exercise's print(labyrinthe) does: its rows of N/E/S/O cells on one line",
        )
        add_option_flags(p, ("maze", ""), lang)
        add_option_flags(p, ("worksheet",), lang, only=("worksheet.numbering",))
        p.set_defaults(run=cmd_show)

    if verb in (None, "stats"):
        p = verbs.add_parser("stats", help="statistics of one maze, or a table per algorithm (--table)")
        p.add_argument("--input", "-i", help="read this .maze.json instead of generating")
        p.add_argument("--table", action="store_true", help="compare every algorithm over --seeds mazes")
        p.add_argument("--seeds", type=int, help="mazes per algorithm for --table (default 20)")
        add_option_flags(p, ("maze", ""), lang)
        p.set_defaults(run=cmd_stats)

    if verb in (None, "serve"):
        p = verbs.add_parser("serve", help="the class web app: pupils design and download, the teacher collects")
        p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: this computer only)")
        p.add_argument("--port", type=_port, default=8000, help="port, 1..65535 (default 8000)")
        p.add_argument(
            "--host-name",
            action="append",
            default=[],
            type=_host_name,
            metavar="NAME",
            help="a name pupils may use for this computer (a school DNS name); others are refused",
        )
        p.add_argument(
            "--class", dest="class_name", default="class", metavar="NAME", help="class name (default: class)"
        )
        p.add_argument("--config", help="YAML batch file whose defaults the class starts from")
        p.add_argument("--folder", help="where the class is stored (default outputs/serve/<class>/)")
        p.add_argument(
            "--code", type=_class_code, help="class code pupils type to join (shown with a QR code to the teacher)"
        )
        p.add_argument(
            "--rate",
            type=_rate,
            default=2.0,
            help="renders a second each pupil may ask, 0.1..50 (default 2, bursts of 12)",
        )
        p.add_argument("--workers", type=_workers, default=2, help="preview worker processes, 1..16 (default 2)")
        p.add_argument(
            "--new-token", action="store_true", help="replace the teacher's token (the old address stops working)"
        )
        p.set_defaults(run=cmd_serve)

    if verb in (None, "list"):
        p = verbs.add_parser("list", help="algorithms with their options, placements, printers, formats")
        p.set_defaults(run=cmd_list)
    if lang == "fr":
        for each in (parser, *verbs.choices.values()):
            _in_french(each)
    return parser


class _FrenchHelp(argparse.HelpFormatter):
    """argparse's own word before the usage line, in French."""

    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, "utilisation : " if prefix is None else prefix)


def _in_french(parser: argparse.ArgumentParser) -> None:
    """``parser``'s help in French: argparse's own words, the verbs and their own arguments
    (:data:`laby3d.i18n.terminal.HELP_IN_FRENCH`; the option flags' help is French already)."""
    from laby3d.i18n.terminal import HELP_IN_FRENCH

    parser.formatter_class = _FrenchHelp
    if isinstance(parser, _Parser):
        parser.lang = "fr"
    parser.description = HELP_IN_FRENCH.get(parser.description or "", parser.description)
    parser._positionals.title, parser._optionals.title = "arguments", "options"
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            action.help = "afficher cette aide et quitter"
        elif action.help:
            action.help = HELP_IN_FRENCH.get(action.help, action.help)
        for verb in getattr(action, "_choices_actions", ()):  # the verbs' one-line help
            verb.help = HELP_IN_FRENCH.get(verb.help, verb.help)


def _user_message(error: Laby3dError, lang: str = "en") -> str:
    """The error as the CLI user typed things (a field becomes its flag), in ``lang``."""
    from laby3d.i18n import in_language

    where = getattr(error, "where", "")  # a batch file's error: file, job and field, then what is wrong
    if where:
        return f"{where}: {in_language(getattr(error, 'detail', str(error)), lang)}"
    if isinstance(error, ParameterError) and error.field:
        flags = all_flags()
        within = [flag for path, flag in flags.items() if path.endswith(f".{error.field}")]
        flag = flags.get(error.field) or (within[0] if len(within) == 1 else error.field)
        flag = flag if flag.startswith("-") else f"--{flag}"
        return f"{flag} {in_language(error.detail, lang)}"
    return in_language(str(error), lang)


def typed_language(argv: Sequence[str]) -> str:
    """``fr`` when the command line says ``--lang fr`` (anywhere: ``--help`` may come first), so
    that the flags' help and the errors are French; ``en`` otherwise."""
    argv = list(argv)
    typed = [argv[i + 1] for i, word in enumerate(argv[:-1]) if word == "--lang"]
    typed += [word.partition("=")[2] for word in argv if word.startswith("--lang=")]
    return "fr" if typed and typed[-1] == "fr" else "en"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; see the module docstring for the exit status."""
    from laby3d.console import Stopped, set_up_streams, stop_signals

    set_up_streams()
    lang = typed_language(sys.argv[1:] if argv is None else argv)
    with stop_signals():  # SIGTERM and SIGHUP end a command as Ctrl-C does
        try:
            words = list(sys.argv[1:] if argv is None else argv)
            typed_verb = words[0] if words and words[0] in VERBS else None
            args = build_parser(lang, typed_verb).parse_args(argv)
            return _run(args, lang)
        except (KeyboardInterrupt, Stopped) as stop:
            return _stopped(stop, lang)


def _run(args: argparse.Namespace, lang: str) -> int:
    """Run the verb; every error becomes one line and an exit status."""
    from laby3d.console import GuardedOutput

    output = sys.stdout
    try:
        sys.stdout = GuardedOutput(output)  # type: ignore[assignment]
        try:
            status = args.run(args) or 0
            sys.stdout.flush()  # here, not at exit: a full disk is an error of this run
            return status
        finally:
            sys.stdout = output
    except InternalError as error:
        return _bug(error)
    except Laby3dError as error:
        for each in (error, *error.also):  # a line each: every bad name of a class list at once
            said = each.lang or error.lang or lang
            _print_error(f"laby3d: {'erreur :' if said == 'fr' else 'error:'} {_user_message(each, said)}")
        return 1 if isinstance(error, OutputError) else 2
    except BrokenPipeError:  # `laby3d … | head -1`: the reader has gone, which is not an error
        _drop_output()
        return 0
    except OSError as error:
        from laby3d.console import StandardOutputError
        from laby3d.export.writer import cause

        if not isinstance(error, StandardOutputError):
            return _bug(error)
        _drop_output()
        word = "erreur :" if lang == "fr" else "error:"
        _print_error(f"laby3d: {word} cannot write to standard output: {cause(error)}")
        return 1
    except Exception as error:  # noqa: BLE001 - anything else is a bug, reported as one
        return _bug(error)


def _stopped(stop: BaseException, lang: str) -> int:
    """The one line of a command stopped by Ctrl-C (status 130) or a signal (128 + its number),
    printed with further signals held."""
    from laby3d.console import Stopped, signals_held
    from laby3d.i18n import Message, in_language

    number = stop.number if isinstance(stop, Stopped) else int(signal.SIGINT)
    with signals_held():
        if number == signal.SIGINT:
            message = Message("interrupted")
        else:
            message = Message("stopped_by", signal=signal.Signals(number).name)
        _print_error(f"laby3d: {in_language(message, lang)}")
    return 128 + number


def _print_error(message: str) -> None:
    """The one place errors are printed: one line of at most 300 characters on standard error."""
    from laby3d.console import one_line

    try:
        print(one_line(message), file=sys.stderr, flush=True)
    except OSError:
        pass  # standard error itself is gone: the exit status still tells


def _drop_output() -> None:
    """Standard output goes nowhere from now on: what is still buffered, and Python's own flush
    at exit, must not fail again (exit 120) on a closed pipe or a full disk."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (captured in tests)
        pass


def _bug(error: BaseException) -> int:
    """Report a bug: a short message, how to report it, the traceback under LABY3D_DEBUG=1."""
    if os.environ.get("LABY3D_DEBUG") == "1":
        import traceback

        traceback.print_exception(error)
    _print_error(f"laby3d: internal error (a bug in laby3d, not your input): {type(error).__name__}: {error}")
    _print_error(
        "  please report it with the command you ran and, if you have one, the maze file; "
        "LABY3D_DEBUG=1 shows the traceback"
    )
    return 1
