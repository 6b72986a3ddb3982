"""The ``laby3d`` command line: a thin layer of flags over the Python API.

``generate`` turns its flags into the same :class:`laby3d.config.Job` a YAML batch file
describes, so both paths share validation and code.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from laby3d.errors import Laby3dError, ParameterError
from laby3d.export.formats import FORMATS, format_for
from laby3d.export.writer import write_outputs
from laby3d.maze.algorithms import ALGORITHMS
from laby3d.maze.model import Maze
from laby3d.maze.placement import PLACEMENTS
from laby3d.printability import PRINTERS


def _option(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name, value


def _add_maze_flags(parser: argparse.ArgumentParser, *, from_file: bool = True) -> None:
    group = parser.add_argument_group("maze")
    group.add_argument("--rows", type=int, default=15, help="number of rows (default 15)")
    group.add_argument("--cols", type=int, default=15, help="number of columns (default 15)")
    group.add_argument("--algorithm", "-a", default="kruskal", help=f"one of: {', '.join(ALGORITHMS)}")
    group.add_argument("--seed", type=int, default=None, help="random seed (drawn and printed when omitted)")
    group.add_argument("--placement", default="corners", help=f"one of: {', '.join(PLACEMENTS)}")
    group.add_argument("--entrance", help="for --placement explicit: 'row,col,side', e.g. 0,0,W")
    group.add_argument("--exit", help="for --placement explicit: 'row,col,side'")
    group.add_argument(
        "--option",
        "-O",
        type=_option,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="algorithm option, e.g. -O policy=newest:0.75,random:0.25 (see `laby3d list`)",
    )
    if from_file:
        group.add_argument("--input", "-i", help="read this .maze.json instead of generating")


def _add_output_flags(parser: argparse.ArgumentParser) -> None:
    pictures = parser.add_argument_group("pictures and text")
    pictures.add_argument(
        "--solution",
        nargs="?",
        const="show",
        default="none",
        choices=("none", "show", "groove", "ridge"),
        help="show the solution (pictures, text); groove or ridge also shape it into the solid",
    )
    pictures.add_argument("--heatmap", action="store_true", help="colour pictures by distance from the entrance")
    pictures.add_argument("--charset", choices=("unicode", "ascii"), default="unicode", help="text art characters")
    solid = parser.add_argument_group("printable solid (mm)")
    solid.add_argument("--cell-size", type=float, default=10.0, help="grid pitch (default %(default)s)")
    solid.add_argument("--wall-thickness", type=float, default=1.6, help="default %(default)s")
    solid.add_argument("--wall-height", type=float, default=8.0, help="above the base, default %(default)s")
    solid.add_argument("--base-thickness", type=float, default=2.0, help="0 = walls only, default %(default)s")
    solid.add_argument("--margin", type=float, default=0.0, help="floor beyond the outer walls, default %(default)s")
    solid.add_argument("--solution-width", type=float, help="groove/ridge width (default 40%% of the corridor)")
    solid.add_argument("--label", help="text on the solid's floor margin (needs --margin 5+) and on laser sheets")
    solid.add_argument("--label-mode", choices=("engrave", "emboss", "none"), default="engrave", help="(engrave)")
    solid.add_argument("--markers", action="store_true", help="arrows on the margin at entrance and exit")
    solid.add_argument("--label-depth", type=float, default=0.6, help="engraving depth or embossing height (0.6)")
    solid.add_argument("--solution-depth", type=float, default=0.6, help="groove depth or ridge height (0.6)")
    laser = parser.add_argument_group("laser sheet (mm)")
    laser.add_argument("--laser-mode", choices=("lines", "outline", "stack"), default="lines", help="default lines")
    laser.add_argument("--kerf", type=float, default=0.15, help="cut width; parts grow by kerf/2 (0.15)")
    laser.add_argument("--sheet", default="600x400", help="material sheet WxH for stack mode (600x400)")
    laser.add_argument("--spacing", type=float, default=3.0, help="gap between parts in stack mode (3)")
    laser.add_argument("--top-sheet", action="store_true", help="stack: add a clear top with a ball hole")
    laser.add_argument("--palette", choices=("default", "boxes"), default="default", help="stroke colours")
    laser.add_argument("--stroke-width", type=float, default=0.1, help="hairline width (0.1)")
    laser.add_argument("--reference-square", action="store_true", help="engrave a 100 mm square")
    printer = parser.add_argument_group("printability report")
    printer.add_argument("--printer", help=f"bed preset: {', '.join(PRINTERS)}")
    printer.add_argument("--bed", help="printable volume WxD[xH] in mm, e.g. 250x210x220")
    printer.add_argument("--nozzle", type=float, default=0.4, help="nozzle diameter, default %(default)s")
    printer.add_argument("--ball", type=float, help="ball diameter for a rolling-ball maze")
    printer.add_argument("--force", action="store_true", help="export even with walls thinner than the nozzle")


def job_from_flags(
    args: argparse.Namespace, formats: Sequence[str] = ("maze.json",), size: tuple[int, int] | None = None
) -> Any:
    """The :class:`laby3d.config.Job` these flags describe (validated like a YAML job); ``size``
    gives rows and cols when the maze comes from a file."""
    from laby3d.config import job_from_dict

    data: dict[str, Any] = {"seed": getattr(args, "seed", None), "formats": list(formats)}
    if size is not None:
        data["maze"] = {"rows": size[0], "cols": size[1]}
    if hasattr(args, "rows"):  # export reads its maze from a file: no maze flags
        data["maze"] = {
            "rows": args.rows,
            "cols": args.cols,
            "algorithm": args.algorithm,
            "placement": args.placement,
            "entrance": args.entrance,
            "exit": args.exit,
            **dict(args.option),
        }
    if hasattr(args, "cell_size"):
        data["print"] = {
            "cell_size": args.cell_size,
            "wall_thickness": args.wall_thickness,
            "wall_height": args.wall_height,
            "base_thickness": args.base_thickness,
            "margin": args.margin,
            "solution": args.solution if args.solution in ("groove", "ridge") else "none",
            "solution_width": args.solution_width,
            "solution_depth": args.solution_depth,
            "printer": args.printer,
            "bed": args.bed,
            "nozzle": args.nozzle,
            "ball": args.ball,
            "force": args.force,
            "label_mode": args.label_mode,
            "label_depth": args.label_depth,
            "markers": args.markers,
        }
        data["pictures"] = {"solution": args.solution != "none", "heatmap": args.heatmap, "charset": args.charset}
        data["laser"] = {
            "mode": args.laser_mode,
            "kerf": args.kerf,
            "sheet": args.sheet,
            "spacing": args.spacing,
            "top": args.top_sheet,
            "palette": args.palette,
            "stroke_width": args.stroke_width,
            "reference_square": args.reference_square,
        }
        data["label"] = args.label
    return job_from_dict(data)


def _read_maze(path: str) -> Maze:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ParameterError(f"cannot read {path}: {error.strerror}") from None
    return Maze.from_json(text)


def _maze_from(args: argparse.Namespace) -> Maze:
    if getattr(args, "input", None):
        return _read_maze(args.input)
    from laby3d.batch import maze_for

    job = job_from_flags(args)
    return maze_for(job, job.seed)


def _write(maze: Maze, job: Any, outputs: Sequence[str]) -> None:
    from laby3d.batch import render_job

    contents, report = render_job(maze, job, list(outputs))
    for path in write_outputs(contents):
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    if report is not None:
        _print_report(report)


def _formats(outputs: Sequence[str]) -> list[str]:
    return [format_for(path).suffix[1:] for path in outputs] or ["maze.json"]


def _print_report(report: dict[str, Any]) -> None:
    size = " × ".join(f"{v:g}" for v in report["size_mm"])
    state = "watertight" if report["watertight"] else "NOT WATERTIGHT"
    print(
        f"solid: {size} mm, {state}, {report['bodies']} body, {report['volume_mm3'] / 1000:.1f} cm³, "
        f"{report['mass_g_pla']:g} g of PLA, {report['triangles']:,} triangles"
    )
    if "printer" in report and report["printer"]["fits"]:
        print(f"fits the {report['printer']['name']} bed")
    for message in report["warnings"]:
        print(f"warning: {message}")


def cmd_generate(args: argparse.Namespace) -> None:
    job = job_from_flags(args, _formats(args.output))
    from laby3d.batch import maze_for

    maze = maze_for(job, job.seed)
    print(f"maze {maze.rows}×{maze.cols} {maze.algorithm} seed {maze.seed}")
    if not args.output:
        sys.stdout.write(maze.to_ascii(solution=args.solution != "none", charset=args.charset))
    _write(maze, job, args.output)


def cmd_export(args: argparse.Namespace) -> None:
    maze = _read_maze(args.maze_file)
    _write(maze, job_from_flags(args, _formats(args.output), (maze.rows, maze.cols)), args.output)


def cmd_show(args: argparse.Namespace) -> None:
    maze = _maze_from(args)
    if args.sets_after is not None:
        from laby3d.maze.observe import partial_maze, set_labels

        labels = set_labels(maze, args.sets_after)
        sys.stdout.write(partial_maze(maze, args.sets_after).to_ascii(labels=labels, charset=args.charset))
        return
    sys.stdout.write(maze.to_ascii(solution=args.solution, charset=args.charset))


def cmd_stats(args: argparse.Namespace) -> None:
    if not args.table:
        maze = _maze_from(args)
        print(f"maze {maze.rows}×{maze.cols} {maze.algorithm} seed {maze.seed}")
        for name, value in maze.stats().as_dict().items():
            print(f"  {name:18} {value}")
        return
    from laby3d.maze.stats import algorithm_table

    print(algorithm_table(args.rows, args.cols, seeds=args.seeds))


def cmd_list(args: argparse.Namespace) -> None:
    print("algorithms:")
    for algorithm in ALGORITHMS.values():
        flag = " (uniform)" if algorithm.uniform else ""
        print(f"  {algorithm.name:19} {algorithm.summary}{flag}")
        for name, option in algorithm.options.items():
            print(f"  {'':19}   -O {name}=... {option.description} (default {option.default})")
    print("placements: " + ", ".join(PLACEMENTS))
    print("printers: " + ", ".join(f"{name} {x:g}×{y:g}×{z:g}" for name, (x, y, z) in PRINTERS.items()))
    print("formats (by output suffix; in YAML without the dot):")
    for fmt in FORMATS.values():
        print(f"  {fmt.suffix:11} {fmt.description}")


def cmd_batch(args: argparse.Namespace) -> int:
    from laby3d.batch import expand, progress_printer, run_batch
    from laby3d.config import check_budget, load_batch

    batch, jobs = load_batch(args.config)
    if args.only:
        unknown = sorted(set(args.only) - {job.name for job in jobs})
        if unknown:
            raise ParameterError(f"--only: no job named {unknown[0]!r} (jobs: {', '.join(j.name for j in jobs)})")
        jobs = [job for job in jobs if job.name in args.only]
    check_budget(jobs)
    output_dir = Path(args.output_dir or batch.output_dir or Path("outputs") / Path(args.config).stem)
    tasks = expand(jobs, output_dir)
    if args.dry_run:
        for task in tasks:
            formats = ", ".join(task.job.formats)
            print(
                f"{task.folder}/{task.variant}: {task.job.maze.rows}×{task.job.maze.cols} "
                f"{task.job.maze.algorithm} seed {task.seed} [{formats}]"
            )
        print(f"{len(tasks)} mazes would be written under {output_dir}")
        return 0
    if args.jobs is not None and args.jobs < 1:
        raise ParameterError(f"-j must be at least 1, got {args.jobs}")
    manifest = run_batch(tasks, output_dir, workers=args.jobs, progress=progress_printer())
    failed = manifest["failed"]
    manifest_path = output_dir / "manifest.json"
    print(f"{len(tasks) - failed} of {len(tasks)} mazes written to {output_dir} (manifest: {manifest_path})")
    for entry in manifest["mazes"]:
        if entry.get("error"):
            print(f"failed: {entry['maze']}: {entry['error']}", file=sys.stderr)
    return 1 if failed else 0


def cmd_validate(args: argparse.Namespace) -> None:
    from laby3d.config import check_budget, load_batch

    _, jobs = load_batch(args.config)
    check_budget(jobs)
    print(f"{args.config}: {len(jobs)} jobs, valid")


def cmd_schema(args: argparse.Namespace) -> None:
    from laby3d.config import batch_schema

    print(json.dumps(batch_schema(), indent=2))


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump), exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"laby3d: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every verb."""
    parser = _Parser(prog="laby3d", description="Perfect mazes to print, cut, view and walk.")
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB", parser_class=_Parser)

    p = verbs.add_parser("generate", help="generate one maze and write outputs (format by suffix)")
    _add_maze_flags(p, from_file=False)
    p.add_argument("--output", "-o", action="append", default=[], metavar="PATH", help="output file; repeatable")
    _add_output_flags(p)
    p.set_defaults(run=cmd_generate)

    p = verbs.add_parser("batch", help="run a YAML batch file (see configs/)")
    p.add_argument("config", help="YAML batch file")
    p.add_argument("-j", "--jobs", type=int, help="parallel worker processes (default: number of cores)")
    p.add_argument("--dry-run", action="store_true", help="list the mazes and files without writing")
    p.add_argument("--only", nargs="+", metavar="NAME", help="run only these jobs")
    p.add_argument("--output-dir", help="override output_dir")
    p.set_defaults(run=cmd_batch)

    p = verbs.add_parser("validate", help="check a YAML batch file without writing anything")
    p.add_argument("config")
    p.set_defaults(run=cmd_validate)

    p = verbs.add_parser("schema", help="print the JSON Schema of a job (for editor completion)")
    p.set_defaults(run=cmd_schema)

    p = verbs.add_parser("export", help="write outputs for a .maze.json file")
    p.add_argument("maze_file")
    p.add_argument("--output", "-o", action="append", required=True, metavar="PATH", help="output file; repeatable")
    _add_output_flags(p)
    p.set_defaults(run=cmd_export)

    p = verbs.add_parser("show", help="print the maze as text")
    _add_maze_flags(p)
    p.add_argument("--solution", action="store_true", help="mark the solution")
    p.add_argument("--charset", choices=("unicode", "ascii"), default="unicode")
    p.add_argument("--sets-after", type=int, metavar="K", help="show Kruskal-style set numbers after K steps")
    p.set_defaults(run=cmd_show)

    p = verbs.add_parser("stats", help="statistics of one maze, or a table per algorithm (--table)")
    _add_maze_flags(p)
    p.add_argument("--table", action="store_true", help="compare every algorithm over --seeds mazes")
    p.add_argument("--seeds", type=int, default=20, help="mazes per algorithm for --table (default 20)")
    p.set_defaults(run=cmd_stats)

    p = verbs.add_parser("list", help="algorithms with their options, placements, printers, formats")
    p.set_defaults(run=cmd_list)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; user errors print one line and return 2."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args) or 0
    except Laby3dError as error:
        print(f"laby3d: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("laby3d: interrupted; finished files are complete, unfinished ones were not written", file=sys.stderr)
        return 130
