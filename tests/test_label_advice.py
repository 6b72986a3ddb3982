"""Advice, not refusals: presets with arrows, a groove or an embossed label label every pupil's
maze; whatever is not as asked (a label moved under the base, engraved instead of embossed,
shallower than usual) is a warning in the report and the batch line; a refusal offers the
changes that work, each tried here. The label depth is read back from the written STL."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
from labelcheck import flat_region, read_stl

import laby3d
from laby3d.cli import main
from laby3d.i18n.messages import in_language, recognised
from laby3d.options.build import validated_job
from laby3d.pipeline import RenderContext

#: The class of configs/classroom.yaml.
CLASS = ["Ana", "Ben", "Chloé", "Dmitri", "Élodie Dupont-Lefèvre", "Nguyễn Văn An", "O'Connor", "Željko"]


def reports(data: dict[str, Any]) -> list[tuple[dict[str, Any], bytes]]:
    """Each pupil's printability report and STL, for a job with ``data`` and the class's names."""
    job = validated_job({**data, "names": CLASS, "formats": ["stl"]})
    job.check()
    found = []
    for index, name in enumerate(CLASS):
        context = RenderContext(laby3d.generate(10, 10, seed=index), dataclasses.replace(job, label=name))
        found.append((context.printability, context.render("stl")))
    return found


def engraved_under_base(stl: bytes, depth: float) -> float:
    """Area (mm²) of the engraving's ceiling ``depth`` mm up into the bottom, facing down."""
    corners, normals = read_stl(stl)
    return flat_region(corners, normals, z=depth, facing=-1).area


def test_quick_preset_with_arrows_labels_every_pupil_at_full_depth() -> None:
    """Was: half the class refused over a label_depth nobody set. The arrows are cut into the
    margin, so a label under the base keeps clear of the margin and keeps its 0.6 mm."""
    for report, stl in reports({"preset": "quick", "print": {"margin": 6, "markers": True}}):
        assert report["label"]["depth_mm"] == 0.6
        if report["label"]["side"] == "bottom":
            assert engraved_under_base(stl, 0.6) > 10
            assert any(w.startswith("the label went under the base") for w in report["warnings"])


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_quick_preset_with_a_groove_labels_every_pupil_and_advises_a_thicker_base() -> None:
    """Under the groove the 1.2 mm base keeps 0.4 mm of plate only above a 0.2 mm engraving: the
    label is cut that deep, with a warning naming the base that gives 0.6 mm; that base does."""
    advice = set()
    for report, stl in reports({"preset": "quick", "print": {"solution": "groove"}}):
        assert report["label"]["side"] == "bottom" and report["label"]["depth_mm"] == 0.2
        assert engraved_under_base(stl, 0.2) > 10 and engraved_under_base(stl, 0.6) == 0
        (warning,) = [w for w in report["warnings"] if "deep, not 0.6" in w]
        advice |= set(re.findall(r"--base-thickness ([\d.]+) engraves it 0.6 mm deep", warning))
    (base,) = advice
    for report, stl in reports({"preset": "quick", "print": {"solution": "groove", "base_thickness": float(base)}}):
        assert report["label"]["depth_mm"] == 0.6 and not report["warnings"]
        assert engraved_under_base(stl, 0.6) > 10


def test_a_label_depth_that_cannot_be_cut_is_refused_with_changes_that_work() -> None:
    data = {"preset": "quick", "label": "Ana", "print": {"solution": "groove", "label_depth": 0.6}, "formats": ["stl"]}
    with pytest.raises(laby3d.ParameterError) as caught:
        validated_job(data).check()
    error = caught.value
    assert error.field == "print.label_depth"
    fixes = dict(re.findall(r"--(label-depth|base-thickness) ([\d.]+)", error.detail))
    assert set(fixes) == {"label-depth", "base-thickness"}, error.detail
    for flag, value in fixes.items():
        changed = {**data["print"], flag.replace("-", "_"): float(value)}
        validated_job({**data, "print": changed}).check()  # each suggestion passes
    assert recognised(error.detail) is not None and "pas 0,6" in in_language(error.detail, "fr")


@pytest.mark.slow  # long: CI runs it, a developer's fast suite skips it
def test_an_embossed_label_turned_engraved_is_a_warning() -> None:
    found = {report["label"]["mode"]: report for report, _ in reports({"print": {"margin": 8, "label_mode": "emboss"}})}
    assert set(found) == {"emboss", "engrave"}
    assert not found["emboss"]["warnings"]
    (warning,) = found["engrave"]["warnings"]
    assert warning.startswith("the label is engraved, not embossed: embossed on the margin it needs margin >= ")
    assert recognised(warning) is not None


def test_a_label_under_the_base_for_want_of_any_margin_is_no_warning() -> None:
    """Margin 0 asks for nothing on top: under the base is where the label goes."""
    for report, _ in reports({"preset": "quick"}):
        assert report["label"]["side"] == "bottom" and not report["warnings"]


def test_the_batch_line_says_warn_for_a_moved_label(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "class.yaml"
    config.write_text(
        "jobs:\n  - name: set\n    seed: 1\n    maze: {rows: 8, cols: 8}\n    print: {margin: 8, label_mode: emboss}\n"
        "    names: [Ben, Élodie Dupont-Lefèvre]\n    formats: [stl]\n",
        encoding="utf-8",
    )
    assert main(["batch", str(config), "-j", "1", "--output-dir", str(tmp_path / "out")]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith(("1/2", "2/2"))]
    states = {line.split(": ", 1)[0].split()[-1]: line.split(": ", 1)[1] for line in lines}
    assert states["set-Ben"] == "ok", lines
    (other,) = set(states) - {"set-Ben"}
    assert states[other].startswith("WARN: the label is engraved, not embossed"), lines
