"""The one name rule (laby3d.filenames, laby3d.text_rules): a typed name folds the same way for
the batch's duplicate check, the class server's pupils and file names, and is refused by the same
rule everywhere. The expectations are written by hand in tests/data/name_folding.txt (no
transliteration library computes them)."""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

import pytest

import laby3d
from laby3d.filenames import folded, safe_name
from laby3d.options.build import validated_job
from laby3d.options.job import check_names
from laby3d.serve.identity import checked_name, name_key
from laby3d.text_rules import text_problem

CORPUS = Path(__file__).parent / "data" / "name_folding.txt"


def _unescaped(text: str) -> str:
    """``\\t``, ``\\uXXXX`` and ``\\UXXXXXXXX`` as the characters they name."""
    return re.sub(
        r"\\(t|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})",
        lambda found: "\t" if found[1] == "t" else chr(int(found[1][1:], 16)),
        text,
    )


def corpus(kind: str) -> list[list[str]]:
    """The lines of one kind, split at ``→`` or ``|`` (escapes read)."""
    rows = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.startswith(f"{kind}: "):
            rows.append([_unescaped(part.strip(" ")) for part in re.split(r" → | \| ", line[len(kind) + 2 :])])
    return rows


def test_the_corpus_has_the_names_of_the_issue() -> None:
    typed = {name for kind in ("file", "same", "apart", "refused", "kept") for row in corpus(kind) for name in row}
    for name in ("Lætitia Œillet", "Søren Kierkegaard", "Groß", "Ilgın", "Đorđe", "O'Connor", "OConnor"):
        assert name in typed
    assert any("\u00a0" in name for name in typed) and any("\t" in name for name in typed)
    assert any("\u200d" in name for name in typed)


@pytest.mark.parametrize(("typed", "expected"), corpus("file"))
def test_file_names_transliterate_every_letter(typed: str, expected: str) -> None:
    assert safe_name(typed) == expected


@pytest.mark.parametrize("names", corpus("same"), ids=lambda names: names[0])
def test_names_that_fold_alike_are_one_pupil_everywhere(names: list[str]) -> None:
    """The server's key, the batch's duplicate check and the file name agree (case aside)."""
    assert len({name_key(checked_name(name)) for name in names}) == 1
    assert len({safe_name(name).casefold() for name in names}) <= len(names)
    for first, second in combinations(names, 2):
        with pytest.raises(laby3d.ParameterError) as caught:
            check_names([first, second])
        assert caught.value.field == "names[1]"


@pytest.mark.parametrize("names", corpus("apart"), ids=lambda names: names[0])
def test_different_names_stay_apart(names: list[str]) -> None:
    assert len({folded(name) for name in names}) == len(names)
    assert len({safe_name(name).casefold() for name in names}) == len(names)
    check_names(names)


@pytest.mark.parametrize(("typed", "named"), corpus("refused"))
def test_control_and_needless_invisible_characters_are_refused_alike(typed: str, named: str) -> None:
    """The class server's name check and the batch's say the same line, naming the character."""
    with pytest.raises(laby3d.ParameterError) as server:
        checked_name(typed)
    with pytest.raises(laby3d.ParameterError) as batch:
        check_names(["Zoé", typed])
    assert server.value.field == "name" and batch.value.field == "names[1]"
    assert server.value.detail == batch.value.detail
    assert named in server.value.detail and "not text" in server.value.detail
    with pytest.raises(laby3d.ParameterError):
        validated_job({"label": typed, "formats": ["html"]}).check()


@pytest.mark.parametrize(("typed",), corpus("kept"))
def test_joiners_a_script_needs_are_kept(typed: str) -> None:
    assert checked_name(typed) == typed
    assert text_problem(typed, "browser") is None
    check_names([typed, "Zoé"])


def test_a_no_break_space_reads_as_a_space() -> None:
    assert checked_name("Léa\u00a0M.") == "Léa M."
    check_names(["Léa\u00a0M.", "Ana"])
    validated_job({"label": "Léa\u00a0M.", "formats": ["stl"]}).check()


def test_a_name_with_no_letter_is_refused_by_the_batch_too() -> None:
    with pytest.raises(laby3d.ParameterError, match="no letter or digit") as caught:
        check_names(["Ana", "🦊"])
    assert caught.value.field == "names[1]"


def test_validate_names_every_bad_name_of_a_class_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Ten bad names took ten rounds of validate; now each is named on its own line in one run, the
    good ones are not, and the exit is an error. The bad ones are bad by construction, one of each
    kind: blank, emoji, a fold of an earlier name, no letter, a control character, too wide for
    the solid's plate, an exact repeat."""
    import yaml

    from laby3d.cli import main

    bad = {1: "", 2: "Zoé 🦊", 4: "ana", 5: "!!!", 6: "Tab\there", 7: "W" * 58, 9: "Ben", 10: "   "}
    good = {0: "Ana", 3: "Léo", 8: "Ben", 11: "Chloé"}
    names = [{**bad, **good}[index] for index in range(12)]
    config = tmp_path / "class.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                "defaults": {"formats": ["stl", "svg"], "maze": {"rows": 4, "cols": 4}},
                "jobs": [{"name": "class", "names": names}],
            }
        ),
        encoding="utf-8",
    )
    assert main(["validate", str(config)]) == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert out == "" and len(lines) == len(bad), err
    said = [int(re.search(r"\.names\[(\d+)\]: ", line).group(1)) for line in lines]  # type: ignore[union-attr]
    assert said == sorted(bad), err
    assert all(line.startswith("laby3d: error: class.yaml: jobs[0] (class).names[") for line in lines)
