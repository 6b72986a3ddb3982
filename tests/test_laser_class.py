"""Engraved text on laser kits, read back from the written files: names, layer numbers and
labels kept 1.5 mm from each part's outer cut."""

from __future__ import annotations

import pytest
from kitcheck import assemble, ink_to_outer_cut, read_pieces

import laby3d
from laby3d.export.laser import laser_files
from laby3d.geometry.laser import LaserOptions, class_sheets, laser_sheets
from laby3d.geometry.params import Fabrication


@pytest.mark.parametrize(
    ("shape", "size", "fab"),
    [
        ("square", (6, 8), Fabrication(cell_size=10, wall_thickness=3, margin=6)),
        ("square", (5, 6), Fabrication(cell_size=10, wall_thickness=2, margin=4)),
        ("theta", (5, None), Fabrication(cell_size=12, wall_thickness=2, margin=6)),
        ("hex", (5, 6), Fabrication(cell_size=12, wall_thickness=2, margin=6)),
        ("triangle", (5, 6), Fabrication(cell_size=12, wall_thickness=2, margin=6)),
    ],
)
def test_engraved_names_and_numbers_keep_1_5_mm_from_the_outer_cut(shape: str, size, fab: Fabrication) -> None:
    """Read back from the class sheets' SVG: every part's engraved ink (its pupil's name, its
    layer number) at least 1.5 mm from that part's outer cut (plywood chars along a cut, and a
    name by the edge is what sanding takes first), names still legible."""
    names = ["Chloé", "Gaëlle", "Jyoti"]  # accents above, descenders below
    options = LaserOptions(mode="stack", top=True, ball=3, kerf=0.15)
    pupils = [(name, laby3d.generate(*size, shape=shape, seed=k)) for k, name in enumerate(names)]
    files = laser_files(class_sheets(pupils, fab, options), suffix="svg", metadata={})
    pieces = read_pieces(files, [*names, "1", "2", "3", "4", "5"])
    assert len(assemble(pieces, names)) == len(names)  # one legible name per part
    for piece in pieces:
        assert ink_to_outer_cut(piece) >= 1.5 - 1e-6, (piece.material, [r.text for r in piece.readings])
        assert all(r.cap_height >= 2.5 - 0.05 for r in piece.readings)


@pytest.mark.parametrize("shape", ["square", "hex"])
def test_a_kit_label_keeps_1_5_mm_from_the_outer_cut(shape: str) -> None:
    maze = laby3d.generate(6, 8, shape=shape, seed=4)
    fab = Fabrication(cell_size=12, wall_thickness=2, margin=6)
    options = LaserOptions(mode="stack", top=True, ball=3, kerf=0.1, label="Zoé", registration_holes=3)
    sheets = laser_sheets(maze, fab, options)
    pieces = read_pieces(laser_files(sheets, suffix="svg", metadata={}), [f"Zoé  ·  seed {maze.seed}", *"1234"])
    assert any(r.text.startswith("Zoé") for piece in pieces for r in piece.readings)
    assert min(ink_to_outer_cut(piece) for piece in pieces) >= 1.5 - 1e-6
