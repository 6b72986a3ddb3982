"""The ``laby3d`` command line: a thin layer of flags over the Python API."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from laby3d.errors import Laby3dError, ParameterError
from laby3d.export.formats import FORMATS, ExportOptions, render_output
from laby3d.export.writer import write_outputs
from laby3d.maze.algorithms import ALGORITHMS
from laby3d.maze.generate import generate
from laby3d.maze.model import Maze
from laby3d.maze.placement import PLACEMENTS


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
    return ExportOptions(solution=args.solution, heatmap=args.heatmap, charset=args.charset)


def _add_picture_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--solution", action="store_true", help="draw the solution in pictures and text")
    parser.add_argument("--heatmap", action="store_true", help="colour pictures by distance from the entrance")
    parser.add_argument("--charset", choices=("unicode", "ascii"), default="unicode", help="text art characters")


def _write(maze: Maze, outputs: Sequence[str], options: ExportOptions) -> None:
    contents = {path: render_output(maze, path, options) for path in outputs}
    for path in write_outputs(contents):
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")


def cmd_generate(args: argparse.Namespace) -> None:
    maze = _maze_from(args)
    print(f"maze {maze.rows}×{maze.cols} {maze.algorithm} seed {maze.seed}")
    if not args.output:
        sys.stdout.write(maze.to_ascii(solution=args.solution, charset=args.charset))
    _write(maze, args.output, _export_options(args))


def cmd_export(args: argparse.Namespace) -> None:
    try:
        text = Path(args.maze_file).read_text(encoding="utf-8")
    except OSError as error:
        raise ParameterError(f"cannot read {args.maze_file}: {error.strerror}") from None
    _write(Maze.from_json(text), args.output, _export_options(args))


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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every verb."""
    parser = argparse.ArgumentParser(prog="laby3d", description="Perfect mazes to print, cut, view and walk.")
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB")

    p = verbs.add_parser("generate", help="generate one maze and write outputs (format by suffix)")
    _add_maze_source(p, from_file=False)
    p.add_argument("--output", "-o", action="append", default=[], metavar="PATH", help="output file; repeatable")
    _add_picture_flags(p)
    p.set_defaults(run=cmd_generate)

    p = verbs.add_parser("export", help="write outputs for a .maze.json file")
    p.add_argument("maze_file")
    p.add_argument("--output", "-o", action="append", required=True, metavar="PATH", help="output file; repeatable")
    _add_picture_flags(p)
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
