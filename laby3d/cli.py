"""The ``laby3d`` command line: a thin layer of flags over the Python API."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from laby3d.errors import Laby3dError, ParameterError
from laby3d.export.formats import FORMATS, SOLID_SUFFIXES, ExportOptions, render_output, solid_for
from laby3d.export.writer import write_outputs
from laby3d.geometry.params import Fabrication
from laby3d.maze.algorithms import ALGORITHMS
from laby3d.maze.generate import generate
from laby3d.maze.model import Maze
from laby3d.maze.placement import PLACEMENTS
from laby3d.mesh.solid import SOLUTION_MODES, SolidOptions, SolutionMode
from laby3d.printability import PRINTERS, PrintSettings, parse_bed, printability_report


def _option(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name, value


def _add_maze_source(parser: argparse.ArgumentParser, *, from_file: bool = True) -> None:
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


def _maze_from(args: argparse.Namespace) -> Maze:
    if getattr(args, "input", None):
        try:
            text = Path(args.input).read_text(encoding="utf-8")
        except OSError as error:
            raise ParameterError(f"--input: cannot read {args.input}: {error.strerror}") from None
        return Maze.from_json(text)
    return generate(
        args.rows,
        args.cols,
        algorithm=args.algorithm,
        seed=args.seed,
        placement=args.placement,
        entrance=args.entrance,
        exit=args.exit,
        **dict(args.option),
    )


def _export_options(args: argparse.Namespace) -> ExportOptions:
    fabrication = Fabrication(
        cell_size=args.cell_size,
        wall_thickness=args.wall_thickness,
        wall_height=args.wall_height,
        base_thickness=args.base_thickness,
        margin=args.margin,
    )
    solid_solution: SolutionMode = args.solution if args.solution in SOLUTION_MODES else "none"
    solid = SolidOptions(
        solution=solid_solution, solution_width=args.solution_width, solution_depth=args.solution_depth
    )
    return ExportOptions(
        solution=args.solution != "none",
        heatmap=args.heatmap,
        charset=args.charset,
        fabrication=fabrication,
        solid=solid,
    )


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
    defaults = Fabrication()
    solid.add_argument("--cell-size", type=float, default=defaults.cell_size, help="grid pitch (default %(default)s)")
    solid.add_argument("--wall-thickness", type=float, default=defaults.wall_thickness, help="default %(default)s")
    solid.add_argument(
        "--wall-height", type=float, default=defaults.wall_height, help="above the base, default %(default)s"
    )
    solid.add_argument(
        "--base-thickness", type=float, default=defaults.base_thickness, help="0 = walls only, default %(default)s"
    )
    solid.add_argument(
        "--margin", type=float, default=defaults.margin, help="floor beyond the outer walls, default %(default)s"
    )
    solid.add_argument("--solution-width", type=float, help="groove/ridge width (default 40%% of the corridor)")
    solid.add_argument(
        "--solution-depth", type=float, default=0.6, help="groove depth or ridge height, default %(default)s"
    )
    printer = parser.add_argument_group("printability report")
    printer.add_argument("--printer", help=f"bed preset: {', '.join(PRINTERS)}")
    printer.add_argument("--bed", type=parse_bed_arg, help="printable volume WxD[xH] in mm, e.g. 250x210x220")
    printer.add_argument("--nozzle", type=float, default=0.4, help="nozzle diameter, default %(default)s")
    printer.add_argument("--ball", type=float, help="ball diameter for a rolling-ball maze")
    printer.add_argument("--force", action="store_true", help="export even with walls thinner than the nozzle")


def parse_bed_arg(text: str) -> tuple[float, float, float]:
    try:
        return parse_bed(text)
    except ParameterError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _print_settings(args: argparse.Namespace) -> PrintSettings:
    if not (args.nozzle > 0 and math.isfinite(args.nozzle)):
        raise ParameterError(f"nozzle must be a positive number of mm, got {args.nozzle}")
    if args.ball is not None and not (args.ball > 0 and math.isfinite(args.ball)):
        raise ParameterError(f"ball must be a positive number of mm, got {args.ball}")
    return PrintSettings(printer=args.printer, bed=args.bed, nozzle=args.nozzle, ball=args.ball, force=args.force)


def _write(maze: Maze, outputs: Sequence[str], options: ExportOptions, settings: PrintSettings) -> None:
    contents = {path: render_output(maze, path, options) for path in outputs}
    solids = [path for path in outputs if path.lower().endswith(SOLID_SUFFIXES)]
    if solids:
        report = printability_report(
            maze, options.fabrication, solid_for(maze, options.fabrication, options.solid).body, settings
        )
        stem = solids[0][: solids[0].rfind(".")]
        contents[f"{stem}.printability.json"] = (json.dumps(report, indent=2, ensure_ascii=False) + "\n").encode()
    for path in write_outputs(contents):
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    if solids:
        _print_report(report)


def _print_report(report: dict) -> None:
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
    maze = _maze_from(args)
    print(f"maze {maze.rows}×{maze.cols} {maze.algorithm} seed {maze.seed}")
    if not args.output:
        sys.stdout.write(maze.to_ascii(solution=args.solution != "none", charset=args.charset))
    _write(maze, args.output, _export_options(args), _print_settings(args))


def cmd_export(args: argparse.Namespace) -> None:
    try:
        text = Path(args.maze_file).read_text(encoding="utf-8")
    except OSError as error:
        raise ParameterError(f"cannot read {args.maze_file}: {error.strerror}") from None
    _write(Maze.from_json(text), args.output, _export_options(args), _print_settings(args))


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
    print("formats (by output suffix):")
    for fmt in FORMATS.values():
        print(f"  {fmt.suffix:11} {fmt.description}")


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump), exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"laby3d: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every verb."""
    parser = _Parser(prog="laby3d", description="Perfect mazes to print, cut, view and walk.")
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB", parser_class=_Parser)

    p = verbs.add_parser("generate", help="generate one maze and write outputs (format by suffix)")
    _add_maze_source(p, from_file=False)
    p.add_argument("--output", "-o", action="append", default=[], metavar="PATH", help="output file; repeatable")
    _add_output_flags(p)
    p.set_defaults(run=cmd_generate)

    p = verbs.add_parser("export", help="write outputs for a .maze.json file")
    p.add_argument("maze_file")
    p.add_argument("--output", "-o", action="append", required=True, metavar="PATH", help="output file; repeatable")
    _add_output_flags(p)
    p.set_defaults(run=cmd_export)

    p = verbs.add_parser("show", help="print the maze as text")
    _add_maze_source(p)
    p.add_argument("--solution", action="store_true", help="mark the solution")
    p.add_argument("--charset", choices=("unicode", "ascii"), default="unicode")
    p.add_argument("--sets-after", type=int, metavar="K", help="show Kruskal-style set numbers after K steps")
    p.set_defaults(run=cmd_show)

    p = verbs.add_parser("stats", help="statistics of one maze, or a table per algorithm (--table)")
    _add_maze_source(p)
    p.add_argument("--table", action="store_true", help="compare every algorithm over --seeds mazes")
    p.add_argument("--seeds", type=int, default=20, help="mazes per algorithm for --table (default 20)")
    p.set_defaults(run=cmd_stats)

    p = verbs.add_parser("list", help="algorithms with their options, placements, formats")
    p.set_defaults(run=cmd_list)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; user errors print one line and return 2."""
    args = build_parser().parse_args(argv)
    try:
        args.run(args)
    except Laby3dError as error:
        print(f"laby3d: error: {error}", file=sys.stderr)
        return 2
    return 0
