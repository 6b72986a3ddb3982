"""French: every option field and choice has its translation, every error the option layer and
the form can give is said in French (and unchanged in English), numbers and durations are
written the French way, and ``--lang fr`` makes the CLI's help and errors French."""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import re
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest

from laby3d import cli
from laby3d.errors import ParameterError
from laby3d.i18n import Message, in_language
from laby3d.i18n.formatting import duration_text, number_text, quantity_text
from laby3d.i18n.messages import NUMBER_VALUES, SENTENCES, recognised
from laby3d.options import job_flag_fields
from laby3d.options.base import Checked, Limits, Section, checked_value, option
from laby3d.options.flags import choices_of
from laby3d.options.translations import FRENCH, choice_label, label
from laby3d.serve.fields import MAX_SIDE, design_data, job_for

#: Words that give away an English sentence left in a French one.
ENGLISH_WORDS = re.compile(r"\b(must|got|needs?|should|is not|the|of|with|at least|at most)\b")


def test_every_option_field_has_a_french_label_and_help() -> None:
    paths = [path for path, _, _ in job_flag_fields()]
    missing = [path for path in paths if path not in FRENCH]
    assert not missing, f"options without a French entry in laby3d/options/translations.py: {missing}"
    assert set(FRENCH) == set(paths), f"entries for no option: {sorted(set(FRENCH) - set(paths))}"
    for path, field, _ in job_flag_fields():
        text = FRENCH[path]
        assert text.label.strip() and text.help.strip(), path
        assert text.help != field.description, f"{path}: the French help is the English one"
        assert not ENGLISH_WORDS.search(text.help.replace("laby3d list", "")), f"{path}: {text.help!r}"


def test_every_choice_has_a_french_label() -> None:
    for path, field, _ in job_flag_fields():
        choices = choices_of(field) or ()
        table = FRENCH[path].choices
        assert sorted(table) == sorted(str(choice) for choice in choices), path
        for choice in choices:
            assert table[str(choice)].strip(), (path, choice)


def test_english_labels_are_the_field_names_and_choices_the_values() -> None:
    assert label("print.wall_thickness", "en") == "wall thickness"
    assert label("maze.rows", "fr") == "lignes"
    assert choice_label("print.solution", "groove", "en") == "groove"
    assert [choice_label("print.solution", c, "fr") for c in ("none", "groove", "ridge")] == [
        "aucune",
        "rainure",
        "relief",
    ]


@dataclasses.dataclass(frozen=True, kw_only=True)
class _Section(Section):
    count: int = option(1, description="a count")


@dataclasses.dataclass(frozen=True, kw_only=True)
class _Required(Section):
    side: str = option(description="a side")


def _refusal(annotation: Any, value: Any) -> str:
    """What the option checker says of ``value`` as an ``annotation`` (a section: its data)."""
    with pytest.raises(ParameterError) as caught:
        if isinstance(annotation, type) and issubclass(annotation, Section):
            annotation.from_data(value)
        else:
            checked_value(annotation, value)
    return caught.value.detail


#: Each refusal of the option fields' checker: (type, a value it refuses, the English laby3d has
#: always printed for it).
REFUSALS: dict[str, tuple[Any, Any, str]] = {
    "greater_than": (Annotated[float, Limits(gt=0)], 0, "must be > 0, got 0"),
    "greater_than_equal": (Annotated[float, Limits(ge=0.1)], 0, "must be >= 0.1, got 0"),
    "less_than": (Annotated[int, Limits(lt=5)], 7, "must be < 5, got 7"),
    "less_than_equal": (Annotated[float, Limits(le=2.5)], 3, "must be <= 2.5, got 3"),
    "text_as_whole_number": (int, "abc", "must be a whole number, got 'abc'"),
    "fraction": (int, 1.5, "must be a whole number, got 1.5"),
    "boolean_as_whole_number": (int, True, "must be a whole number, got True"),
    "text_as_number": (float, "x", "must be a number, got 'x'"),
    "list_as_number": (float, [], "must be a number, got []"),
    "infinite": (float, float("inf"), "must be a finite number, got inf"),
    "text_as_boolean": (bool, "maybe", "must be true or false, got 'maybe'"),
    "one_as_boolean": (bool, 1, "must be true or false, got 1"),
    "number_as_text": (str, 5, "must be text, got 5"),
    "not_a_list": (list[int], 5, "must be a list, got 5"),
    "not_a_section": (_Section, 5, "must be a mapping of options, got 5"),
    "not_a_mapping": (dict[str, int], 5, "must be a mapping, got 5"),
    "text_too_long": (Annotated[str, Limits(max_length=3)], "abcd", "must be at most 3 characters, got 'abcd'"),
    "text_too_short": (Annotated[str, Limits(min_length=1)], "", "must be at least 1 character(s), got ''"),
    "list_too_long": (Annotated[list[int], Limits(max_length=1)], [1, 2], "must have at most 1 items, got [1, 2]"),
    "list_too_short": (Annotated[list[int], Limits(min_length=1)], [], "must have at least 1 item(s), got []"),
    "not_a_choice": (Literal["none", "groove"], "x", "must be one of 'none', 'groove', got 'x'"),
    "unknown_key": (_Section, {"cuont": 1}, "is not a known key"),
    "required": (_Required, {}, "is required"),
}


@pytest.mark.parametrize("kind", REFUSALS)
def test_the_checkers_refusals_in_english_and_french(kind: str) -> None:
    annotation, value, english = REFUSALS[kind]
    detail = _refusal(annotation, value)
    assert detail.startswith(english)  # the English wording has not changed
    french = in_language(detail, "fr")
    assert french != str(detail)
    assert not ENGLISH_WORDS.search(french), french


def test_a_rule_of_a_types_own_says_its_own_words() -> None:
    def refuse(value: str) -> str:
        raise ParameterError(Message("exit_is_entrance"))

    assert _refusal(Annotated[str, Checked(refuse)], "N").startswith("must differ from the entrance")


def test_a_message_is_its_english_text_and_survives_pickling() -> None:
    message = Message("compare", sign="<=", limit=2.5, value="3")
    assert message == "must be <= 2.5, got 3"
    assert f"--x {message}" == "--x must be <= 2.5, got 3"
    again = pickle.loads(pickle.dumps(ParameterError(message, field="x").detail))
    assert (again, again.kind) == (message, "compare")
    assert message.said_in("fr") == "doit être ≤ 2,5, pas 3"


def test_every_sentence_reads_back_from_its_english() -> None:
    """Each template, filled with sample values, is recognised as itself (no other template
    takes its sentences), and its French says every value."""
    for kind, (english, french) in SENTENCES.items():
        names = re.findall(r"\{(\w+)\}", english)
        values = {name: "7.5" if name in NUMBER_VALUES else "'sample'" for name in names}
        values |= {"sign": ">="} if "sign" in values else {}
        found = recognised(english.format(**values))
        assert found is not None and found.kind == kind, (kind, found and found.kind)
        assert set(re.findall(r"\{(\w+)\}", french)) == set(names), kind


CLASS_DEFAULTS: dict[str, Any] = {}
#: Designs the class form can send that the library refuses, each with the field at fault.
BAD_DESIGNS: list[tuple[dict[str, Any], str]] = [
    ({"print.wall_thickness": 12}, "print.wall_thickness"),
    ({"print.margin": 3, "print.base_thickness": 0}, "print.margin"),
    ({"print.cell_size": 60, "maze.rows": 100, "maze.cols": 100}, "print.cell_size"),
    ({"print.bed": "big"}, "print.bed"),
    ({"print.wall_thickness": 0.3}, "print.wall_thickness"),
    ({"label": "Ana", "print.base_thickness": 0}, "label"),
    ({"label": "Ana", "print.label_depth": 1.9}, "print.label_depth"),
    ({"label": "Ana", "print.label_position": "bottom", "print.label_depth": 1.8}, "print.label_depth"),
    ({"label": "Ana", "print.label_position": "bottom", "print.label_mode": "emboss"}, "print.label_position"),
    (
        {"label": "Ana Dupont", "print.solution": "groove", "print.label_depth": 1.2, "maze.rows": 20},
        "print.label_depth",
    ),
    ({"label": "  "}, "label"),
    ({"label": "שלום"}, "label"),
    ({"label": "\u2603"}, "label"),
    ({"label": "Ana 🦊"}, "label"),
    ({"label": "\u0301Ana"}, "label"),
    ({"label": "Ana\u0007"}, "label"),
    ({"label": "A very long label for a tiny maze", "maze.rows": 3, "maze.cols": 3}, "label"),
    (
        {"label": "A very long label", "maze.rows": 3, "maze.cols": 3, "print.label_mode": "emboss"},
        "label",
    ),
    (
        {
            "label": "A very long label",
            "maze.rows": 3,
            "maze.cols": 3,
            "print.markers": True,
            "print.margin": 5,
            "print.label_position": "margin",
        },
        "label",
    ),
    ({"label": "W" * 60, "print.nozzle": 2, "print.wall_thickness": 4}, "label"),
    ({"print.markers": True}, "print.markers"),
    ({"print.markers": True, "print.margin": 5, "print.base_thickness": 0.5}, "print.markers"),
    ({"print.solution": "groove", "print.solution_width": 9}, "print.solution_width"),
    ({"print.solution": "groove", "print.base_thickness": 0}, "print.solution"),
    ({"print.solution": "groove", "print.solution_depth": 1.8}, "print.solution_depth"),
    ({"print.solution": "ridge", "print.solution_depth": 9}, "print.solution_depth"),
    ({"print.printer": "prusa"}, "print.printer"),
    ({"maze.placement": "explicit"}, "maze.placement"),
    ({"maze.placement": "explicit", "maze.entrance": "0;0", "maze.exit": "1,1,E"}, "maze.entrance"),
    ({"maze.placement": "explicit", "maze.entrance": "0,99,W", "maze.exit": "1,1,E"}, "maze.entrance"),
    ({"maze.placement": "explicit", "maze.entrance": "5,5,W", "maze.exit": "1,1,E"}, "maze.entrance"),
    ({"maze.placement": "explicit", "maze.entrance": "0,0,W", "maze.exit": "0,0,W"}, "maze.exit"),
    ({"maze.policy": "newest"}, "maze.policy"),
    ({"maze.algorithm": "growing_tree", "maze.policy": "fastest"}, "maze.policy"),
    ({"maze.algorithm": "growing_tree", "maze.policy": "newest:x"}, "maze.policy"),
    ({"maze.algorithm": "growing_tree", "maze.policy": "newest:0"}, "maze.policy"),
    ({"maze.algorithm": "growing_tree", "maze.policy": ","}, "maze.policy"),
    ({"maze.rows": MAX_SIDE + 1}, "maze.rows"),
    ({"maze.rows": 0}, "maze.rows"),
    ({"maze.rows": 2.5}, "maze.rows"),
    ({"print.nozzle": "wide"}, "print.nozzle"),
    ({"print.solution": "deep"}, "print.solution"),
    ({"print.force": "maybe"}, "print.force"),
    ({"maze.shape": "hex", "maze.rows": 4, "maze.cols": 4, "print.wall_thickness": 4.5}, "print.wall_thickness"),
    (
        {"maze.shape": "hex", "maze.rows": 4, "maze.cols": 4, "print.solution": "groove", "print.solution_width": 2},
        "print.solution_width",
    ),
    ({"maze.shape": "theta", "maze.rows": 4, "label": "Ana", "print.label_position": "margin"}, "print.label_position"),
]


@pytest.mark.parametrize(("design", "field"), BAD_DESIGNS, ids=[str(d) for d, _ in BAD_DESIGNS])
def test_every_refusal_the_form_can_show_is_french(design: dict[str, Any], field: str) -> None:
    with pytest.raises(ParameterError) as caught:
        job_for(design_data(design), defaults=CLASS_DEFAULTS, locks={}, formats=["stl"])
    error = caught.value
    assert error.field == field
    french = in_language(error.detail, "fr")
    assert recognised(error.detail) is not None, f"no French for {error.detail!r}"
    assert not ENGLISH_WORDS.search(french.replace("'", " ")), french


@pytest.mark.parametrize(
    "values", [{"print.nozzle": [1]}, {"print.paint": 1}, {"print.nozzle": "x" * 300}], ids=["list", "key", "long"]
)
def test_the_class_apps_own_refusals_are_french(values: dict[str, Any]) -> None:
    with pytest.raises(ParameterError) as caught:
        design_data(values)
    assert isinstance(caught.value.detail, Message)
    assert not ENGLISH_WORDS.search(in_language(caught.value.detail, "fr"))


def test_the_memory_budget_refusal_is_french() -> None:
    from laby3d.options.build import validated_job

    with pytest.raises(ParameterError) as caught:
        validated_job({"maze": {"rows": 2000, "cols": 2000}, "formats": ["stl"]})
    french = in_language(caught.value.detail, "fr")
    assert "Mo" in french and "1 " not in french.split("Mo")[0][-3:], french
    assert not ENGLISH_WORDS.search(french), french


def test_french_numbers_durations_and_colons() -> None:
    # Independent oracle: French typography as written by hand.
    assert quantity_text(50.94, "g", "fr", digits=1) == "50,9 g"
    assert duration_text(3 * 3600 + 35 * 60, "fr") == "environ 3 h 35 min"
    assert duration_text(3 * 3600 + 35 * 60, "en") == "about 3 h 35 min"
    assert number_text(1234.5, "fr") == "1234,5"
    assert in_language("would need about 1,234 MB", "fr") == "would need about 1,234 MB"  # unknown: unchanged


def test_english_is_unchanged_by_in_language() -> None:
    sentence = "must be < cell_size (10 mm) so corridors stay open, got 12"
    assert in_language(sentence, "en") == sentence
    assert in_language(sentence, "fr") == "doit être < cell_size (10 mm) pour que les couloirs restent ouverts, pas 12"


def test_cli_help_is_french_with_lang_fr(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["generate", "--help", "--lang", "fr"])
    french = capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.main(["generate", "--help"])
    english = capsys.readouterr().out
    for path, field, _ in job_flag_fields():
        if path.startswith(("maze.", "print.")) or path == "seed":
            first_words = " ".join(FRENCH[path].help.split()[:3])
            assert first_words in " ".join(french.split()), path
            assert " ".join((field.description or "").split()[:4]) in " ".join(english.split()), path
    assert "[défaut : 1,6]" in french  # wall_thickness
    assert french.startswith("utilisation : laby3d generate") and "afficher cette aide et quitter" in french
    assert english.startswith("usage: laby3d generate") and "labyrinthe" not in english
    assert "ridge = relief" in " ".join(french.split())


def test_a_french_generate_reports_its_solid_in_french(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--lang fr is the language of the command's own lines, whatever the files: the maze, the
    files written and the solid's report (size, mass, label, print time, printers) are French."""
    monkeypatch.chdir(tmp_path)
    args = ["generate", "--rows", "5", "--cols", "5", "--seed", "1", "--label", "Léa", "--margin", "8"]
    assert cli.main([*args, "--printer", "mini", "--lang", "fr", "-o", "m.stl"]) == 0
    french = capsys.readouterr().out
    lines = [line.replace("m.stl", "").replace("m.printability.json", "") for line in french.splitlines()]
    assert len(lines) == 7, french
    assert not [line for line in lines if ENGLISH_WORDS.search(line)], french
    assert "étanche, 1 seul corps" in french and "g de PLA" in french and "texte « Léa » : gravé sur la marge" in french
    assert "durée d’impression sur la mini : environ 1 h" in french and "tient sur le plateau de la mini" in french
    assert cli.main([*args, "-o", "m.stl"]) == 0
    english = capsys.readouterr().out
    assert "watertight, 1 body" in english and "label 'Léa': engraved on the margin, capitals" in english
    assert cli.main([*args, "--label-mode", "emboss", "--lang", "fr", "-o", "m.stl"]) == 0
    embossed = capsys.readouterr().out
    assert "texte « Léa » : en relief sur la marge" in embossed and "mm de hauteur" in embossed, embossed


@pytest.mark.parametrize("verb", [None, *cli.VERBS])
def test_every_verbs_help_is_french_with_lang_fr(verb: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    """What a French teacher reads in ``laby3d --help --lang fr`` and each verb's help: no
    English sentence (the verbs, their own arguments and argparse's words), the verbs all there."""
    with pytest.raises(SystemExit):
        cli.main([*([verb] if verb else []), "--help", "--lang", "fr"])
    french = capsys.readouterr().out
    english = [line for line in french.splitlines() if ENGLISH_WORDS.search(line.replace("laby3d list", ""))]
    assert not english, english
    if verb is None:
        assert all(f"    {name}  " in french for name in cli.VERBS)
        verbs = next(a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction))
        assert tuple(verbs.choices) == cli.VERBS


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "--rows"],
        ["generate", "--rows", "3", "--bogus", "3"],
        ["generate", "--shape", "circle"],
        ["generate", "--show-solution=3"],
        ["show", "--sets-after", "x"],
        ["stats", "--table", "--seeds", "many"],
        ["import", "-o", "m.png"],
    ],
)
def test_argparses_own_refusals_are_french_with_lang_fr(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """A command line argparse itself refuses (a value missing, an unknown flag, a choice that is
    not one) gets one line, in French, when --lang fr is typed."""
    with pytest.raises(SystemExit) as stopped:
        cli.main([*args, "--lang", "fr"])
    line = capsys.readouterr().err
    assert stopped.value.code == 2 and line.startswith("laby3d: erreur : ") and line.count("\n") == 1, line
    assert not ENGLISH_WORDS.search(line.replace("--help", "")) and "argument " not in line, line
    with pytest.raises(SystemExit):
        cli.main(args)
    assert capsys.readouterr().err.startswith("laby3d: error: ")


@pytest.mark.parametrize("table", [False, True])
def test_stats_are_said_in_french_with_lang_fr(table: bool, capsys: pytest.CaptureFixture[str]) -> None:
    """A teacher's statistics of one maze, or the table per algorithm, in French: labels,
    decimal commas; the English keys and points otherwise."""
    args = ["stats", "--rows", "6", "--cols", "7", *(["--table", "--seeds", "2"] if table else ["--seed", "3"])]
    assert cli.main([*args, "--lang", "fr"]) == 0
    french = capsys.readouterr().out
    assert not [line for line in french.splitlines() if ENGLISH_WORDS.search(line)], french
    assert ("culs-de-sac %" if table else "culs-de-sac (% des cases)") in french and re.search(r"\d,\d", french)
    assert cli.main(args) == 0
    english = capsys.readouterr().out
    assert ("dead ends %" if table else "dead_end_percent") in english and not re.search(r"\d,\d", english)


def test_cli_errors_are_french_with_lang_fr(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["generate", "--lang", "fr", "--wall-thickness", "0.1"]) == 2
    assert capsys.readouterr().err == "laby3d: erreur : --wall-thickness doit être ≥ 0,2, pas 0,1\n"
    assert cli.main(["generate", "--wall-thickness", "0.1"]) == 2
    assert capsys.readouterr().err == "laby3d: error: --wall-thickness must be >= 0.2, got 0.1\n"


@pytest.mark.parametrize(
    ("args", "french"),
    [
        (["generate", "--entrance", "0,0,W", "-o", "m.stl"], "--entrance n’a d’effet qu’avec « placement: explicit »"),
        (["generate", "--ball", "4", "-o", "m.png"], "--ball n’a pas d’effet sur les fichiers demandés (png)"),
        (["generate", "--ball", "4"], "--ball n’a pas d’effet sans fichier de sortie (-o)"),
        (["export", "m.scene.json", "--seed", "3", "-o", "m.stl"], "--seed n’a pas d’effet avec export :"),
    ],
)
def test_options_a_verb_cannot_honour_are_refused_in_french(
    args: list[str], french: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main([*args, "--lang", "fr"]) == 2
    assert capsys.readouterr().err.startswith(f"laby3d: erreur : {french}")


#: Designs whose solid the report warns about: thin walls and narrow corridors (with a suggested
#: fix), a ball too big for the corridors and the walls, a solid too large for its printer.
WARNED_DESIGNS = [
    {"print.wall_thickness": 0.5, "print.cell_size": 1.2},
    {"print.ball": 9, "print.wall_height": 4},
    {"maze.rows": 30, "maze.cols": 30, "print.printer": "mini"},
    {"maze.rows": 60, "maze.cols": 60, "print.cell_size": 30},
    {"maze.shape": "hex", "maze.rows": 4, "maze.cols": 4, "print.ball": 6},
    {"maze.shape": "theta", "maze.rows": 4, "print.ball": 7.5, "print.wall_height": 10},
    {"maze.shape": "hex", "maze.rows": 4, "maze.cols": 4, "print.wall_thickness": 0.5, "print.cell_size": 2.5},
]


@pytest.mark.parametrize("design", WARNED_DESIGNS, ids=[str(d) for d in WARNED_DESIGNS])
def test_the_reports_warnings_are_french(design: dict[str, Any]) -> None:
    from laby3d.serve.classroom import DesignRequest, summary_of
    from laby3d.serve.wording import for_page
    from laby3d.serve.work import preview

    summary = summary_of(preview(DesignRequest(design=design_data(design), defaults={}, locks={}))["report"])
    assert summary["warnings"]
    for warning, french in zip(summary["warnings"], for_page(summary, "fr")["warnings"], strict=True):
        assert recognised(warning) is not None, f"no French for {warning!r}"
        assert not ENGLISH_WORDS.search(french), french
