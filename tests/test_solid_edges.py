"""Issue 28, "right at every edge": every design the options allow gives one closed body, or is
refused up front in one line. The designs that broke a solid, then random designs over every
option that shapes it, each STL read back by numpy-stl and checked edge by edge."""

from __future__ import annotations

from pathlib import Path

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
