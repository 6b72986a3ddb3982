"""Labels on the solid: every real name fits (on the margin or mirrored under the base), the
solid stays one closed body of the exact volume, and the text is the text, checked against
matplotlib's own text layout (tests/labelcheck.py), never against laby3d's numbers."""

from __future__ import annotations

import re
import subprocess
import unicodedata
from pathlib import Path

import numpy as np
import pytest
import shapely
from conftest import require_tool
from hypothesis import given, settings
from hypothesis import strategies as st
from labelcheck import (
    body_count,
    closed_and_oriented,
    compare_with_text,
    corpus,
    flat_region,
    island_corpus,
    oracle_area_em2,
    oracle_cap_height_em,
    read_stl,
    signed_volume,
    welded,
)
from solidcheck import footprint_area, repair_counters

import laby3d
from laby3d.export.meshes import stl_bytes
from laby3d.geometry.label import LabelPlacement
from laby3d.geometry.params import Fabrication
from laby3d.mesh.solid import SolidOptions, check_solid, maze_solid

MARGINS = (0, 5, 6, 8, 10, 14)
MODES = ("engrave", "emboss")
NAMES = corpus()
#: A fast sample of the corpus: every 30th name, plus the names of the issue.
SAMPLE = sorted({*NAMES[::30], "Željko", "Ángel", "Peggy", "François", "Garçon"})
#: Legible capitals, mm (the label module's promise, restated).
LEGIBLE_CAPITALS = 3.0


def label_region(solid_stl: bytes, placement: LabelPlacement, fab: Fabrication, depth: float) -> shapely.Geometry:
    """The label as the written STL shows it (read by numpy-stl): the bottom of the engraving
    (facing up on the margin, down under the base) or the top of the embossed letters."""
    corners, normals = read_stl(solid_stl)
    if placement.side == "bottom":
        return flat_region(corners, normals, z=depth, facing=-1)
    sign = 1 if placement.mode == "emboss" else -1
    return flat_region(corners, normals, z=fab.base_thickness + sign * depth, facing=1)


def check_label(name: str, rows: int, cols: int, margin: float, mode: str, nozzle: float = 0.4) -> LabelPlacement:
    """Build the labelled solid and check it against the oracles; returns where the label went."""
    maze = laby3d.generate(rows, cols, seed=len(name))
    fab = Fabrication(margin=margin)
    solid = maze_solid(maze, fab, SolidOptions(label=name, label_mode=mode, nozzle=nozzle))
    placement = solid.label_placement
    assert placement is not None
    width, depth = fab.outer_size(rows, cols)

    # One closed body, as an STL reader sees it, within the plate.
    body = solid.body
    faces = welded(body.vertices, body.faces)
    assert closed_and_oriented(faces), name
    assert body_count(faces) == 1, name
    assert np.allclose(body.vertices.min(axis=0), 0, atol=1e-9)
    assert np.allclose(body.vertices.max(axis=0), [width, depth, fab.height], atol=1e-9)

    # The text is the text: the label in the written STL is matplotlib's rendering of the name,
    # islands in counters included (Θ, ©), mirrored under the base.
    data = stl_bytes(body, "laby3d label test".ljust(80))
    region = label_region(data, placement, fab, 0.6)
    match = compare_with_text(region, name, mirrored=placement.side == "bottom")
    assert match.disagreement == 0, (name, match)
    assert match.area_ratio == pytest.approx(1, abs=0.01), (name, match)
    assert match.font_size * oracle_cap_height_em() >= LEGIBLE_CAPITALS - 0.01

    # Glyphs inside their box, the box inside the margin strip or under the plate.
    glyphs = placement.mark.glyphs
    box = shapely.box(*placement.mark.box)
    assert box.contains_properly(glyphs), name
    strip = shapely.box(0, 0, width, margin) if placement.side == "margin" else shapely.box(0, 0, width, depth)
    assert strip.contains(box), name
    assert strip.contains(region), name

    # Exact volume (numpy-stl's reading): plate + walls ± the oracle's ink area × depth.
    volume = width * depth * fab.base_thickness + fab.wall_height * footprint_area(maze, fab)
    sign = 1 if placement.mode == "emboss" else -1
    label_volume = 0.6 * oracle_area_em2(name) * match.font_size**2
    corners, _ = read_stl(data)
    written = float(np.einsum("ij,ij->i", corners[:, 0], np.cross(corners[:, 1], corners[:, 2])).sum() / 6)
    assert written == pytest.approx(volume + sign * label_volume, abs=0.01 * label_volume + 1e-3 * volume)

    # Printable: embossed strokes hold a disc of one nozzle width; engraved grooves hold one of
    # half a nozzle, and the counters between them one of a whole nozzle.
    pieces = getattr(glyphs, "geoms", [glyphs])
    if placement.mode == "emboss":
        assert all(not piece.buffer(-nozzle / 2).is_empty for piece in pieces), name
    else:
        assert all(not piece.buffer(-nozzle / 4).is_empty for piece in pieces), name
        counters = [shapely.Polygon(hole) for piece in pieces for hole in piece.interiors]
        assert all(not counter.buffer(-nozzle / 2).is_empty for counter in counters), name
    return placement


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@pytest.mark.parametrize("name", SAMPLE)
def test_sample_names_fit_every_margin(name: str) -> None:
    for margin in MARGINS:
        for mode in MODES:
            check_label(name, 10, 10, margin, mode)


def corpus_cases(index: int) -> list[tuple[int, str]]:
    """The (margin, mode) pairs the corpus's name ``index`` is checked at: under the base
    (margin 0) and on one margin strip, engraved at one and embossed at the other, the strip's
    margin and the modes turning with the index, so that every pair of :data:`MARGINS` and
    :data:`MODES` meets every tenth name (the glyphs are the name's own; where the label goes
    and how big depends on the margin, the mesh on the mode). The sample checks all pairs."""
    strip = MARGINS[1 + index % (len(MARGINS) - 1)]
    modes = MODES if index % 2 == 0 else MODES[::-1]
    return [(0, modes[0]), (strip, modes[1])]


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_every_name_of_the_corpus_fits_its_margins(index: int) -> None:
    for margin, mode in corpus_cases(index):
        check_label(NAMES[index], 10, 10, margin, mode)


def test_the_corpus_meets_every_margin_and_mode() -> None:
    met = {case for index in range(len(NAMES)) for case in corpus_cases(index)}
    assert met == {(margin, mode) for margin in MARGINS for mode in MODES}


def test_corpus_is_large_and_varied() -> None:
    assert len(NAMES) >= 300 and len(set(NAMES)) == len(NAMES)
    text = "".join(NAMES)
    for letters in ("ÁÉÍÓÚ", "ŁŻŚĆ", "ŠŽČŘ", "ŐŰ", "ÅØÆÞ", "İŞĞ", "ễỳạ", "ΑΒΓΩ", "ДЖЩЯ", "gjpqy", "'-"):
        assert any(char in text for char in letters), letters


def test_issue_names_go_where_they_are_legible() -> None:
    """The three reports of the issue: no internal error, one body, and the label where it is legible."""
    assert check_label("Željko", 12, 12, 6, "engrave").side == "bottom"  # 4 mm of room: accents need more
    assert check_label("Ángel", 12, 12, 6, "engrave").side == "bottom"
    assert check_label("Peggy", 12, 12, 10, "engrave").side == "margin"
    assert check_label("Ana", 12, 12, 0, "engrave").side == "bottom"  # no margin: under the base


@pytest.mark.parametrize("text", ["$5 and $6", "$\\frac{$", "50 % ^_^ {x}"])
def test_plain_text_only(text: str) -> None:
    """Dollars, backslashes and braces are characters, not mathtext."""
    check_label(text, 10, 10, 10, "engrave")


@pytest.mark.parametrize(("text", "missing"), [("李明", "李, 明"), ("Zoë 李", "李")])
def test_characters_the_font_lacks_are_named(text: str, missing: str) -> None:
    with pytest.raises(laby3d.ParameterError) as caught:
        maze_solid(laby3d.generate(5, 5, seed=1), Fabrication(margin=8), SolidOptions(label=text))
    assert caught.value.field == "label"
    assert caught.value.detail == f'"{text}": the font has no glyph for {missing}'


@pytest.mark.parametrize(
    ("text", "shown", "reason"),
    [
        ("Ana 🦊", '"Ana 🦊"', "emoji are pictures, not text (🦊)"),
        ("Léa ⚡", '"Léa ⚡"', "emoji are pictures, not text (⚡)"),  # the font has a black bolt for it
        ("Zoé ♥\ufe0f", '"Zoé ♥"', "emoji are pictures, not text (♥\ufe0f)"),
        ("\u0301Ana", '"\u0301Ana"', "accents without a letter (\u25cc\u0301 (U+0301))"),
        ("Ana\u0007", '"Ana\\u0007"', "characters that are not text (U+0007)"),
    ],
)
def test_emoji_lone_accents_and_other_non_text_are_refused(text: str, shown: str, reason: str) -> None:
    """Like a letter the font lacks: refused in one line naming the characters."""
    with pytest.raises(laby3d.ParameterError) as caught:
        maze_solid(laby3d.generate(5, 5, seed=1), Fabrication(margin=8), SolidOptions(label=text))
    assert caught.value.field == "label"
    assert caught.value.detail == f"{shown}: {reason}"


@pytest.mark.parametrize("text", ["© Ana", "Ana ♥", "☺ Zoé"])
def test_symbols_that_are_text_by_default_are_drawn(text: str) -> None:
    check_label(text, 10, 10, 10, "engrave")


@pytest.mark.parametrize(("text", "letters"), [("דוד", "ד, ו"), ("Ana محمد", "م, ح, د")])
def test_right_to_left_letters_are_refused_not_reversed(text: str, letters: str) -> None:
    with pytest.raises(laby3d.ParameterError) as caught:
        check_solid(SolidOptions(label=text), Fabrication(), "square", (12, 12))
    assert caught.value.field == "label"
    assert caught.value.detail == f'"{text}": right-to-left letters are not supported ({letters})'


@pytest.mark.parametrize("text", [" ", "\u00a0\u00a0", "\u3000"])
def test_blank_labels_are_refused(text: str) -> None:
    with pytest.raises(laby3d.ParameterError, match="no visible character") as caught:
        check_solid(SolidOptions(label=text), Fabrication(), "square", (12, 12))
    assert caught.value.field == "label"


@pytest.mark.parametrize(
    ("text", "named"),
    [("\u200b", "U+200B"), ("\ufeff\u200d", "U+FEFF, U+200D"), ("\t", "U+0009"), ("Zo\u200be", "U+200B")],
)
def test_control_and_invisible_characters_are_refused_as_the_readme_says(text: str, named: str) -> None:
    """A tab, a zero-width space, a joiner no script needs: refused naming them (issue 28), no
    longer turned into a space or dropped."""
    with pytest.raises(laby3d.ParameterError, match="characters that are not text") as caught:
        check_solid(SolidOptions(label=text), Fabrication(), "square", (12, 12))
    assert caught.value.field == "label" and f"({named})" in caught.value.detail


def test_a_decomposed_accent_and_a_no_break_space_draw_as_the_plain_name() -> None:
    """A decomposed accent and a no-break space draw the same as the plain NFC name."""
    fab = Fabrication(margin=10)
    maze = laby3d.generate(8, 8, seed=1)
    plain = maze_solid(maze, fab, SolidOptions(label="Zoé")).label_placement
    odd = maze_solid(maze, fab, SolidOptions(label="Zoe\u0301\u00a0")).label_placement
    assert plain is not None and odd is not None
    assert plain.text == odd.text == "Zoé"
    assert plain.mark.glyphs.equals(odd.mark.glyphs)


def test_bottom_label_reads_when_turned_over() -> None:
    """Turned over about the y axis, the engraving under the base is the text, upright."""
    maze = laby3d.generate(8, 8, seed=2)
    solid = maze_solid(maze, Fabrication(), SolidOptions(label="Ryszard"))
    placement = solid.label_placement
    assert placement is not None and placement.side == "bottom" and placement.mode == "engrave"
    match = compare_with_text(placement.mark.glyphs, "Ryszard", mirrored=True)
    assert match.disagreement == 0 and match.area_ratio == pytest.approx(1, abs=0.01)
    mirrored = compare_with_text(placement.mark.glyphs, "Ryszard")  # read from above, it is not the text
    assert mirrored.disagreement > 0.2 * match.area_ratio * oracle_area_em2("Ryszard") * match.font_size**2
    expected = oracle_area_em2("Ryszard") * match.font_size**2
    # The cavity is in the bottom face: faces at z = label depth face down, over the ink's area.
    body = solid.body
    corners = body.vertices[body.faces]
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    ceiling = np.isclose(corners[:, :, 2], 0.6).all(axis=1) & (normals[:, 2] < 0)
    assert normals[ceiling, 2].sum() / -2 == pytest.approx(expected, rel=0.01)


def test_label_position_margin_refuses_with_the_room_needed() -> None:
    """The refusal names a margin; that margin holds the label."""
    maze = laby3d.generate(10, 10, seed=1)
    options = SolidOptions(label="Jürgen", label_position="margin")
    with pytest.raises(laby3d.ParameterError) as caught:
        maze_solid(maze, Fabrication(margin=5), options)
    assert caught.value.field == "label"
    needed = float(re.search(r"needs margin >= ([\d.]+) mm", caught.value.detail).group(1))
    placement = maze_solid(maze, Fabrication(margin=needed + 0.05), options).label_placement
    assert placement is not None and placement.side == "margin"
    assert placement.cap_height == pytest.approx(LEGIBLE_CAPITALS, rel=0.03)


def test_bottom_needs_room_in_the_base() -> None:
    fab = Fabrication(base_thickness=1.2)
    with pytest.raises(laby3d.ParameterError, match=r"must be <= 0.2 mm for the label under the base") as caught:
        maze_solid(laby3d.generate(6, 6, seed=1), fab, SolidOptions(label="Ana", solution="groove", label_depth=0.6))
    assert caught.value.field == "label_depth"
    placement = maze_solid(
        laby3d.generate(6, 6, seed=1), fab, SolidOptions(label="Ana", solution="groove")
    ).label_placement
    assert placement is not None and placement.depth == 0.2 and "--base-thickness 1.6" in placement.warnings[-1]
    with pytest.raises(laby3d.ParameterError, match="bottom engraves the label under the base") as caught:
        check_solid(SolidOptions(label="Ana", label_mode="emboss", label_position="bottom"), fab, "square", (6, 6))
    assert caught.value.field == "label_position"


def test_groove_and_bottom_label_keep_the_solid_sound() -> None:
    maze = laby3d.generate(9, 7, seed=5)
    solid = maze_solid(maze, Fabrication(), SolidOptions(label="Ægir", solution="groove", solution_depth=0.8))
    assert solid.label_placement is not None and solid.label_placement.side == "bottom"
    faces = welded(solid.body.vertices, solid.body.faces)
    assert closed_and_oriented(faces) and body_count(faces) == 1
    parts_volume = sum(signed_volume(part.vertices, part.faces) for part in solid.parts.values())
    assert parts_volume == pytest.approx(signed_volume(solid.body.vertices, solid.body.faces), rel=1e-9)
    for part in solid.parts.values():
        assert closed_and_oriented(welded(part.vertices, part.faces))


def test_a_coarse_nozzle_grows_or_moves_the_text() -> None:
    """A 0.8 mm nozzle is too coarse for embossed strokes on an 8 mm margin (they would be about
    0.5 mm): the label is engraved instead (margin or bottom); a 14 mm margin holds it embossed."""
    assert check_label("Björn", 10, 10, 8, "emboss", nozzle=0.8).mode == "engrave"
    roomy = check_label("Björn", 10, 10, 14, "emboss", nozzle=0.8)
    assert (roomy.side, roomy.mode) == ("margin", "emboss")


def test_too_coarse_a_nozzle_is_refused_with_the_size_needed() -> None:
    with pytest.raises(laby3d.ParameterError, match=r"capitals of [\d.]+ mm for a 3 mm nozzle") as caught:
        maze_solid(laby3d.generate(10, 10, seed=1), Fabrication(), SolidOptions(label="Ana", nozzle=3))
    assert caught.value.field == "label"


def test_job_check_places_the_label_up_front() -> None:
    """check_solid with the maze's size refuses what the solid would refuse."""
    options = SolidOptions(label="Maria da Conceição Gonçalves")
    with pytest.raises(laby3d.ParameterError, match="does not fit"):
        check_solid(options, Fabrication(), "square", (3, 3))
    check_solid(options, Fabrication(), "square", (10, 10))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "margin", "mode"),
    [
        ("Željko", 6, "engrave"),
        ("Peggy", 10, "emboss"),
        ("Ţuţu", 8, "engrave"),
        ("Þórgunnur Ýr Guðjónsdóttir", 14, "emboss"),
        ("Ana", 0, "engrave"),
    ],
)
def test_prusaslicer_info_is_clean(tmp_path: Path, name: str, margin: int, mode: str) -> None:
    slicer = require_tool("prusa-slicer")
    solid = maze_solid(
        laby3d.generate(8, 8, seed=3), Fabrication(margin=margin), SolidOptions(label=name, label_mode=mode)
    )
    path = tmp_path / "label.stl"
    path.write_bytes(stl_bytes(solid.body, "laby3d label test".ljust(80)))
    info = subprocess.run([slicer, "--loglevel", "1", "--info", str(path)], capture_output=True, text=True, timeout=300)
    assert info.returncode == 0 and "number_of_facets" in info.stdout, info.stderr[-500:]
    assert repair_counters(info.stdout) == {}
    assert "manifold = yes" in info.stdout
    assert re.search(r"^number_of_parts =\s+1$", info.stdout, re.M), info.stdout


def test_arrows_on_the_bottom_margin_send_the_label_under_the_base() -> None:
    """An exit arrow in the middle of the bottom margin leaves no room for the label there."""
    maze = laby3d.generate(8, 8, seed=1, placement="explicit", entrance="0,0,W", exit="7,4,S")
    fab = Fabrication(margin=10)
    placement = maze_solid(maze, fab, SolidOptions(label="Jagoda", markers=True)).label_placement
    assert placement is not None and placement.side == "bottom"
    alone = maze_solid(maze, fab, SolidOptions(label="Jagoda")).label_placement
    assert alone is not None and alone.side == "margin"
    with pytest.raises(laby3d.ParameterError, match="clear of the arrows") as caught:
        maze_solid(maze, fab, SolidOptions(label="Jagoda", markers=True, label_position="margin"))
    assert caught.value.field == "label"


# ---- printability checked glyph group by glyph group, shared across a class set ---------------


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
@pytest.mark.parametrize("size", [4.1, 5.17, 7.3])
def test_printability_by_glyph_groups_is_that_of_the_whole_text(size: float) -> None:
    """Glyphs farther apart than a nozzle are checked apart: the answer is the whole text's."""
    from laby3d.geometry.label import _printable, group_printable
    from laby3d.geometry.text import text_shape

    for name in SAMPLE + ["Yusuf", "Arthur Dubois", "Thủy", "rn rn", "AVA", "W.Y.", "i"]:
        shape = text_shape(name)
        for nozzle in (0.4, 0.6):
            for mode in MODES:
                whole = group_printable(shape.polygons, nozzle / size, mode)
                assert _printable(shape, size, mode, nozzle) == whole, (name, nozzle, mode)


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_a_class_sets_shared_checks_place_every_name_as_alone() -> None:
    """Checks shared by the names of a run give each name the placement it gets alone."""
    from laby3d.geometry.label import GlyphChecks, LabelRoom, place_label

    room = LabelRoom(plate=(113.6, 113.6), margin=6)
    checks = GlyphChecks()
    for name in SAMPLE:
        for mode in MODES:
            shared = place_label(name, room, mode=mode, position="auto", nozzle=0.4, checks=checks)
            alone = place_label(name, room, mode=mode, position="auto", nozzle=0.4)
            assert (shared.side, shared.mode, shared.font_size) == (alone.side, alone.mode, alone.font_size), name
            assert shared.mark.box == alone.mark.box


def test_text_drawn_from_threads_at_once_is_the_text_drawn_alone() -> None:
    """The font's glyphs are read once per process, under a lock: threads drawing names at
    once get what one thread gets."""
    from concurrent.futures import ThreadPoolExecutor

    from laby3d.geometry.text import text_shape

    alone = [text_shape(name).polygons for name in SAMPLE]
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(lambda name: text_shape(name).polygons, SAMPLE * 4))
    assert all(shape.equals_exact(alone[i % len(SAMPLE)], 0) for i, shape in enumerate(together))


def test_one_name_that_does_not_fit_among_many_is_named() -> None:
    """A class set whose names share letters and sizes still refuses the one that does not fit."""
    from laby3d.options.build import nested, validated_job

    names = [f"{first} {last}" for first in ("Ana", "Léo", "Inès", "Hugo") for last in ("Petit", "Roux", "Faure")]
    names.insert(7, "Maria da Conceição Gonçalves Figueiredo")
    with pytest.raises(laby3d.ParameterError) as caught:
        validated_job(nested({"name": "class", "names": names, "maze.rows": 3, "maze.cols": 3, "formats": ["stl"]}))
    assert caught.value.field is not None and caught.value.field.endswith("names[7]"), caught.value.field


@settings(max_examples=40, deadline=None)
@given(
    text=st.text(
        alphabet=sorted(set("".join(NAMES)) | set("0123456789.,;:!?&@#%()[]/+=*_~ ")), min_size=1, max_size=24
    ),
    rows=st.integers(1, 12),
    cols=st.integers(1, 12),
    cell_size=st.sampled_from([6.0, 10.0, 14.0]),
    base_thickness=st.sampled_from([1.0, 2.0, 3.0]),
    margin=st.sampled_from([0.0, 3.0, 5.0, 7.5, 12.0]),
    mode=st.sampled_from(MODES),
    position=st.sampled_from(["auto", "margin", "bottom"]),
    nozzle=st.sampled_from([0.25, 0.4, 0.6]),
    solution=st.sampled_from(["none", "groove", "ridge"]),
    markers=st.booleans(),
)
@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_any_label_is_refused_or_sound(
    text, rows, cols, cell_size, base_thickness, margin, mode, position, nozzle, solution, markers
) -> None:
    """Any text, plate and option: a refusal naming a field, or one closed body whose parts add up."""
    maze = laby3d.generate(rows, cols, seed=rows * 100 + cols)
    fab = Fabrication(cell_size=cell_size, base_thickness=base_thickness, margin=margin)
    options = SolidOptions(
        label=text, label_mode=mode, label_position=position, nozzle=nozzle, solution=solution, markers=markers
    )
    try:
        solid = maze_solid(maze, fab, options)
        body = solid.body
    except laby3d.ParameterError as error:
        assert error.field is not None or "markers" in str(error), str(error)
        return
    faces = welded(body.vertices, body.faces)
    assert closed_and_oriented(faces) and body_count(faces) == 1
    width, depth = fab.outer_size(rows, cols)
    assert np.allclose(body.vertices.min(axis=0), 0) and np.allclose(
        body.vertices.max(axis=0), [width, depth, fab.height]
    )
    parts = solid.parts.values()
    assert all(closed_and_oriented(welded(part.vertices, part.faces)) for part in parts)
    total = sum(signed_volume(part.vertices, part.faces) for part in parts)
    assert total == pytest.approx(signed_volume(body.vertices, body.faces), rel=1e-9)


ISLANDS = island_corpus()
#: A fast sample of it: the issue's letters and two words.
ISLAND_SAMPLE = ["Θ", "©", "®", "⊕", "ʘ", "Θεόδωρος", "④ Zoë ⑧"]


@pytest.mark.parametrize("text", ISLAND_SAMPLE)
def test_ink_inside_counters_is_kept(text: str) -> None:
    """Θ is not O, © is not a ring: letters with ink inside a counter, on the margin and under
    the base, engraved and embossed, match matplotlib's rendering."""
    for margin, mode in ((14, "engrave"), (14, "emboss"), (0, "engrave")):
        check_label(text, 12, 12, margin, mode)


@pytest.mark.slow
@pytest.mark.parametrize("text", ISLANDS)
def test_every_letter_with_islands_is_kept(text: str) -> None:
    for margin, mode in ((14, "engrave"), (14, "emboss"), (0, "engrave")):
        check_label(text, 12, 12, margin, mode)


@pytest.mark.slow
@pytest.mark.parametrize("part", range(4))  # a quarter each, so that the suite's workers share them
def test_every_glyph_of_the_font_is_filled_as_freetype_fills_it(part: int) -> None:
    """Every letter, digit, mark of punctuation and symbol DejaVu Sans has (about 5,600) has the
    ink matplotlib's renderer gives it, at an em of 10 mm: no counter filled, no island lost."""
    import matplotlib
    from matplotlib.ft2font import FT2Font

    from laby3d.geometry.text import text_shape

    font = FT2Font(str(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"))
    chars = [chr(code) for code in sorted(font.get_charmap()) if unicodedata.category(chr(code))[0] in "LNPS"]
    assert len(chars) > 5000
    wrong = []
    for char in chars[part::4]:
        try:
            ink = text_shape(char).polygons
        except laby3d.ParameterError:  # refused (right to left, not text): tested elsewhere
            continue
        match = compare_with_text(shapely.affinity.scale(ink, 10, 10, origin=(0, 0)), char, font_size=10)
        if match.disagreement > 0 or abs(match.area_ratio - 1) > 0.01:
            wrong.append(f"{char} U+{ord(char):04X}: {match}")
    assert not wrong, "\n".join(wrong)


def test_a_class_engraves_every_name_on_one_side(tmp_path: Path) -> None:
    """At margin 6 a long name goes under the base while the others fit the margin: the class's
    names then all go under the base (a teacher looks in one place), each solid saying why. The
    oracle reads the STL: an engraving under a 2 mm base cuts up to 0.6 mm from the bed (z = 0.6),
    one on the margin down to 1.4 mm; no other face of these solids lies at either height."""
    import numpy as np
    import yaml
    from stl import mesh as stl_mesh

    from laby3d.batch import expand, run_batch
    from laby3d.config import load_batch

    names = ["Ana", "Ben", "Maximilien-Alexandre Dupont-Lefèvre", "Zoé"]
    config = tmp_path / "class.yaml"
    job = {"name": "c", "seed": 1, "names": names, "print": {"margin": 6}, "formats": ["stl"]}
    config.write_text(yaml.safe_dump({"jobs": [job]}, allow_unicode=True), encoding="utf-8")
    _, jobs = load_batch(config)
    manifest = run_batch(expand(jobs, tmp_path / "out"), tmp_path / "out", workers=1)
    sides = set()
    for entry in manifest["mazes"]:
        z = np.round(stl_mesh.Mesh.from_file(str(tmp_path / "out" / "c" / f"{entry['maze']}.stl")).vectors[:, :, 2], 3)
        under, on_top = bool((z == 0.6).any()), bool((z == 1.4).any())
        assert under != on_top, entry["maze"]
        sides.add("under" if under else "top")
        if entry["maze"] != "c-Maximilien-Alexandre-Dupont-Lefevre":
            assert any("as every name of the class" in w for w in entry["printability"]["warnings"]), entry
    assert sides == {"under"}
