"""Issue 28, "right at every edge": every design the options allow gives one closed body, or is
refused up front in one line. The designs that broke a solid, then random designs over every
option that shapes it, each STL read back by numpy-stl and checked edge by edge."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from shapedcheck import body_count, edge_problems, read_stl

from laby3d.cli import main


def test_the_18_by_10_wilson_design_of_issue_28_is_one_closed_body(tmp_path: Path, capsys) -> None:
    """``--rows 18 --cols 10 --algorithm wilson --seed 379084 --placement hardest --margin 6``
    crashed with "the solid is not closed": earcut's floor had a triangle whose side ran through
    two corners of the walls (a crack), which the area check let through."""
    out = tmp_path / "x.stl"
    args = ["--rows", "18", "--cols", "10", "--algorithm", "wilson", "--seed", "379084", "--placement", "hardest"]
    code = main(["generate", *args, "--margin", "6", "-o", str(out)])
    assert code == 0, capsys.readouterr().err
    _, triangles = read_stl(out)
    assert edge_problems(triangles) == 0 and body_count(triangles) == 1


#: What a random design may ask of its solid: every option that shapes it.
CELL_SIZES = (6.0, 8.0, 10.0, 12.5)
WALLS = (1.2, 1.6, 2.0, 3.0)
BASES = (0.0, 1.0, 1.6, 2.0, 3.0)
MARGINS = (0.0, 3.0, 4.0, 6.0, 8.0, 10.0)
#: Labels, one design in four (test_labels.py tries hundreds of names; a label's printability
#: checks cost a second where the rest of a design costs a tenth).
LABELS = (None, None, None, None, None, None, "Ana", "Zoë", "Θ©")
PLACEMENTS = ("corners", "hardest", "center", "opposite-sides")


def random_design(index: int) -> tuple[dict, dict]:
    """Design ``index``: the maze (shape, size, algorithm, seed, placement) and its solid's
    options (sizes, base 0, margin, solution, label and where, arrows), drawn from its own seed."""
    from laby3d.maze.algorithms import ALGORITHMS
    from laby3d.tessellation import SHAPES

    rng = np.random.default_rng(index)

    def pick(values):
        return values[int(rng.integers(len(values)))]

    shape = pick(tuple(SHAPES))
    kind = SHAPES[shape]
    rows = int(rng.integers(max(kind.min_rows, 1), 13 if kind.uses_cols else 11))
    cols = int(rng.integers(max(kind.min_cols, 1), 13)) if kind.uses_cols else None
    algorithms = sorted(name for name, found in ALGORITHMS.items() if shape in found.carvers or "any" in found.carvers)
    maze = {
        "shape": shape,
        "rows": rows,
        "cols": cols,
        "algorithm": pick(algorithms),
        "seed": int(rng.integers(2**31)),
        "placement": pick(PLACEMENTS),
    }
    base = pick(BASES)
    solid = {
        "cell_size": pick(CELL_SIZES),
        "wall_thickness": pick(WALLS),
        "wall_height": pick((4.0, 8.0)),
        "base_thickness": base,
        "margin": pick(MARGINS) if base > 0 else 0.0,
        "solution": pick(("none", "groove", "ridge")),
        "markers": bool(rng.integers(2)),
        "label": pick(LABELS),
        "label_mode": pick(("engrave", "emboss")),
        "label_position": pick(("auto", "margin", "bottom")),
    }
    return maze, solid


def solid_or_refusal(tmp_path: Path, index: int) -> str | None:
    """Build design ``index``'s STL as ``laby3d generate`` would (the job's checks first) and read
    it back: None when it is one closed body (every edge used once each way, one connected piece,
    numpy-stl's reading) and every 3MF part closed, or when the design is refused up front in one
    line naming an option; else what went wrong."""
    from laby3d.errors import ParameterError
    from laby3d.maze.generate import generate
    from laby3d.options.build import job_from_options
    from laby3d.pipeline import RenderContext

    spec, options = random_design(index)
    label = options.pop("label")
    if label is not None:
        options["label"] = label
    else:
        options.pop("label_mode"), options.pop("label_position")
    try:
        maze = generate(
            spec["rows"],
            spec["cols"],
            shape=spec["shape"],
            algorithm=spec["algorithm"],
            seed=spec["seed"],
            placement=spec["placement"],
        )
        job = job_from_options(options, formats=["stl"], size=(maze.rows, maze.cols), shape=maze.shape)
        job.check()
        context = RenderContext(maze, job)
        data = context.render("stl")
        parts = context.solid.parts
    except ParameterError as error:
        if error.field is None or "\n" in str(error):
            return f"design {index} {spec} {options}: an unclear refusal: {error!r}"
        return None
    except Exception as error:  # noqa: BLE001 - any other error is what this test looks for
        return f"design {index} {spec} {options}: {error!r}"
    path = tmp_path / f"{index}.stl"
    path.write_bytes(data)
    _, triangles = read_stl(path)
    problems, bodies = edge_problems(triangles), body_count(triangles)
    open_parts = [name for name, part in parts.items() if not part.is_closed()]
    if problems or bodies != 1 or open_parts:
        return f"design {index} {spec} {options}: {problems} edge problems, {bodies} bodies, open parts {open_parts}"
    path.unlink()
    return None


def test_random_designs_are_one_closed_body_or_refused(tmp_path: Path) -> None:
    """40 random designs over every option that shapes the solid (the slow suite runs 2,000 more)."""
    failures = [found for index in range(40) if (found := solid_or_refusal(tmp_path, index)) is not None]
    assert not failures, "\n".join(failures)


@pytest.mark.slow
@pytest.mark.parametrize("batch", range(10))
def test_thousands_of_random_designs_are_one_closed_body_or_refused(tmp_path: Path, batch: int) -> None:
    """2,000 random designs (numbers 40 to 2,039), 200 a batch, each one closed body or refused."""
    first = 40 + 200 * batch
    failures = [
        found for index in range(first, first + 200) if (found := solid_or_refusal(tmp_path, index)) is not None
    ]
    assert not failures, f"{len(failures)} of 200 designs:\n" + "\n".join(failures[:20])
