"""One rule for typed text in every output: drawn literally (no formula syntax), and refused up
front, by ``laby3d validate`` and the job's check, where the output's font cannot draw it, with
one line naming the characters. Oracles: pdftotext reads the worksheets and keys back; the
refusals are compared across formats and with the solid's own."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import require_tool

import laby3d
from laby3d.cli import main
from laby3d.draw.strings import STRINGS
from laby3d.draw.worksheet import key_pdf, worksheet_pdf
from laby3d.export.formats import FORMATS
from laby3d.geometry.params import Fabrication
from laby3d.maze.algorithms import ALGORITHMS
from laby3d.mesh.solid import SolidOptions, check_solid
from laby3d.options.build import validated_job
from laby3d.options.worksheet import WorksheetSpec

#: Texts with formula syntax: each must come out as typed.
LITERAL = ["Bob $5 $6", "$\\frac{$", "50 % ^_^ {x} \\alpha", "$x^2$ & $y_1$"]
#: Texts no DejaVu output can draw, and the characters the refusal must name.
UNDRAWABLE = {
    "李明": "李, 明",
    "Ana 🦊": "🦊",
    "Léa ⚡": "⚡",
    "Zoé ♥\ufe0f": "♥\ufe0f",
    "👍🏽 Ben": "👍🏽",
    "🇫🇷 Chloé": "🇫🇷",
    "\u0301Ana": "U+0301",
    "Ana \u0308": "U+0308",
    "Ana\u0007": "U+0007",
    "Ana\ue000": "U+E000",
    "דוד": "ד, ו",
}
DEJAVU_FORMATS = [name for name, fmt in FORMATS.items() if fmt.font == "dejavu" and "label" in fmt.texts]


def pdf_text(data: bytes, tmp_path: Path) -> str:
    tool = require_tool("pdftotext")
    path = tmp_path / "doc.pdf"
    path.write_bytes(data)
    return subprocess.run([tool, "-raw", str(path), "-"], check=True, capture_output=True, text=True).stdout


@pytest.mark.parametrize("typed", LITERAL)
def test_worksheets_and_keys_print_the_text_as_typed(tmp_path: Path, typed: str) -> None:
    maze = laby3d.generate(5, 5, seed=1)
    spec = WorksheetSpec(class_name=typed, instruction=f"Go {typed}")
    sheet = pdf_text(worksheet_pdf([(maze, typed)], spec=spec, lang="en"), tmp_path)
    assert sheet.count(typed) >= 3, sheet  # the name, the class, the instruction
    assert typed in pdf_text(key_pdf([(maze, typed)], spec=spec, lang="en"), tmp_path)


@pytest.mark.parametrize("typed", LITERAL)
def test_the_solid_draws_the_same_text_literally(typed: str) -> None:
    check_solid(SolidOptions(label=typed), Fabrication(margin=10), "square", (12, 12))


@pytest.mark.parametrize(("typed", "named"), UNDRAWABLE.items())
def test_every_dejavu_output_refuses_what_the_font_cannot_draw(typed: str, named: str) -> None:
    """The worksheet, the key, the solid and the laser sheet refuse the same text with the same
    line, naming the characters; the walk-through page shows what a browser can."""
    said = set()
    for name in DEJAVU_FORMATS:
        with pytest.raises(laby3d.ParameterError) as caught:
            validated_job({"names": ["Ana", typed], "formats": [name]}).check()
        assert caught.value.field == "names[1]", name
        assert named in caught.value.detail and "\n" not in caught.value.detail
        said.add(caught.value.detail)
    assert len(said) == 1, said
    with pytest.raises(laby3d.ParameterError) as caught:
        check_solid(SolidOptions(label=typed), Fabrication(), "square", (12, 12))
    assert {caught.value.detail} == said


@pytest.mark.parametrize("typed", ["李明", "Ana 🦊", "דוד", "Zoé ♥\ufe0f"])
def test_the_walk_through_page_shows_any_script(typed: str) -> None:
    """The browser picks a font for any script and draws emoji and right-to-left text."""
    validated_job({"label": typed, "formats": ["html", "scene.json", "js"]}).check()


@pytest.mark.parametrize("typed", ["\u0301Ana", "Ana\u0007", "\u200b"])
def test_the_walk_through_page_refuses_what_is_not_text(typed: str) -> None:
    with pytest.raises(laby3d.ParameterError) as caught:
        validated_job({"label": typed, "formats": ["html"]}).check()
    assert caught.value.field == "label"


def test_worksheet_class_and_instruction_are_checked_too() -> None:
    with pytest.raises(laby3d.ParameterError) as caught:
        validated_job({"worksheet": {"class_name": "2nde 李"}, "formats": ["worksheet.pdf"]}).check()
    assert caught.value.field == "worksheet.class_name" and "李" in caught.value.detail
    with pytest.raises(laby3d.ParameterError) as caught:
        validated_job({"worksheet": {"instruction": "Go 🦊"}, "formats": ["worksheet.pdf"]}).check()
    assert caught.value.field == "worksheet.instruction"
    validated_job({"worksheet": {"class_name": "2nde 李"}, "formats": ["key.pdf", "stl"]}).check()  # not drawn


def test_validate_refuses_a_class_set_name_a_worksheet_cannot_draw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Today's trial: a CJK name printed as empty boxes on the worksheet; now refused up front."""
    config = tmp_path / "class.yaml"
    jobs = "jobs:\n  - name: sheets\n    names: [Ana, 李明, Zoé]\n    formats: [worksheet.pdf, key.pdf]\n"
    config.write_text(jobs, encoding="utf-8")
    assert main(["validate", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert "names[1]" in err and "李, 明" in err and "Traceback" not in err


def test_a_job_without_a_label_on_its_solid_does_not_check_it() -> None:
    validated_job({"label": "李明", "print": {"label_mode": "none"}, "formats": ["stl"]}).check()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_fixed_string_fits_the_font_of_every_output(lang: str) -> None:
    """DejaVu Sans draws every caption, word and algorithm name laby3d writes itself."""
    from laby3d.text_rules import text_problem

    for key, wordings in STRINGS.items():
        assert text_problem(wordings[lang].replace("\n", " "), "dejavu") is None, key
    for algorithm in ALGORITHMS:
        assert text_problem(algorithm.capitalize(), "dejavu") is None
