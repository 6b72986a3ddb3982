"""No English word where a French pupil or teacher looks (issue 27, item 4): every French text of
every catalogue (error sentences, option labels, helps and choices, the class pages, the walk-through
page, the documents, the download buttons) is read word by word against a list of English words
written here, independently of the catalogues.

What a user types stays as typed, but must read as a name, not as a word of the sentence: a flag
(``--rows``), a dotted or underscored option (``print.bed``, ``cell_size``), a file or format
(``README.txt``, ``.stl``), a value in quotes (« square », '0,0,W'), a command in guillemets
(« laby3d list »). A bare ``rows`` inside French (« rows est le nombre d’anneaux ») is English.
"""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

#: English words a French sentence has no business holding. None is also a French word laby3d's texts
#: use (option, page, zone, minute, part, division, queue, stats are both, and left out), but « file »,
#: which French uses only as « file d’attente » (taken out before reading).
ENGLISH_WORDS = frozenset(
    """
    the and of or to in is are be been was has have had it its this that these those which who what when where
    with without from by for into onto at than then only also not no yes cannot can could would should must may
    might will shall do does did done make makes made use used using give given get got set see try wait again
    please your you we our they their there here each every any some all more less most least too very over under
    between above below up down out off about after before until while if else other another same such one two
    new old first last next file files folder maze mazes wall walls row rows col cols column columns cell cells
    entrance exit seed seeds width height depth size sizes side sides shape algorithm placement explicit margin
    label labels name names count step steps opened rejected drawn taken print printer printers printing bed
    nozzle ball skirt thickness layer layers groove ridge engrave engraved emboss embossed none true false
    center bottom top auto square hex hexagon circle heart star ring text outline braid room lines line stack
    kerf sheet sheets default boxes cut score quick coaster newest oldest random preview previews download
    downloads worksheet key lesson handout class pupil pupils teacher design designs save saved draft render
    renders lock locks token server list batch show generate validate schema serve number numbers
    error errors warning warnings bug internal request requests value values
    growing tree hunt kill sidewinder backtracker binary recursive trail hint overview timer paper
    per answer picture pictures solid solids plates time times
    """.split()
)
#: Proper nouns and names of things, taken out before reading (a font, programs, HTTP headers).
PROPER_NAMES = (
    "DejaVu Sans Bold",
    "Content-Type",
    "Sec-Fetch-Site",
    "Origin",
    "LightBurn",
    "boxes.py",
    "PrusaSlicer",
    "Letter (US)",
    "True",  # Python's constants, as the exercise's form writes them
    "False",
    "None",
)
_NAMES_AS_TYPED = re.compile(
    r"«[^»]{0,60}»"  # a quoted value or command: « square », « laby3d list »
    r"|(?<![\w’'])'[^'\n]{1,60}'(?![\w])"  # a value in ASCII quotes: '0,0,W', 'ligne,colonne,côté'
    r"|\{\w+\}"  # a value filled in
    r"|--?[a-zA-Z][\w-]*"  # a flag: --rows, -o
    r"|\S*[\w\]\)][._:/=\\][\w\[(]\S*"  # print.bed, cell_size, README.txt, kerf/2, text:MOT, newest:0.75
    r"|\.\w+"  # a format: .stl
    r"|\w*[_\d]\w*"  # cell_size, mk4, 3MF
    r"|file d’attente|file d'attente"
)
_WORD = re.compile(r"[^\W\d_]+")


def english_words(french: str) -> list[str]:
    """The English words of a French text, names as typed taken out.

    >>> english_words("theta (rond : rows est le nombre d’anneaux)")
    ['rows']
    >>> english_words("« theta » : les lignes sont les anneaux (--rows, cell_size, '0,0,W', .stl)")
    []
    """
    for name in PROPER_NAMES:
        french = french.replace(name, " ")
    french = _NAMES_AS_TYPED.sub(" ", french)
    return [word for word in _WORD.findall(french.replace("’", " ").replace("'", " ")) if word.lower() in ENGLISH_WORDS]


def _catalogue_texts() -> list[tuple[str, str]]:
    """Every French text of every catalogue, as (where, text)."""
    from laby3d.draw.strings import STRINGS as DOCUMENTS
    from laby3d.i18n.messages import SENTENCES
    from laby3d.options.translations import FRENCH, FRENCH_FORMATS, FRENCH_SECTIONS
    from laby3d.serve.page import STRINGS as PAGES

    texts = [(f"messages.{kind}", french) for kind, (_, french) in SENTENCES.items()]
    for path, entry in FRENCH.items():
        texts += [(f"options.{path}.label", entry.label), (f"options.{path}.help", entry.help)]
        texts += [(f"options.{path}.choices.{value}", shown) for value, shown in entry.choices.items()]
    texts += [(f"sections.{section or 'job'}", title) for section, title in FRENCH_SECTIONS.items()]
    for name, (caption, description) in FRENCH_FORMATS.items():
        texts += [(f"formats.{name}.caption", caption), (f"formats.{name}.description", description)]
    texts += [(f"pages.{key}", row["fr"]) for key, row in PAGES.items()]
    texts += [(f"documents.{key}", row["fr"]) for key, row in DOCUMENTS.items()]
    walk = json.loads(resources.files("laby3d.export.web").joinpath("strings.json").read_text(encoding="utf-8"))
    texts += [(f"walk.{key}", row["fr"]) for key, row in walk.items() if isinstance(row, dict)]
    return texts


def test_the_word_list_finds_what_the_teacher_found() -> None:
    """The issue's own examples are caught, and French with names as typed is not."""
    for english in (
        "cannot be engraved on the maze: x",
        "rows est le nombre d’anneaux",
        "choisies (entrance, exit)",
        "voir laby3d list",
        "step,row,col,side",
    ):
        assert english_words(english), english
    assert not english_words("choisies (champs « entrée » et « sortie ») ; voir « laby3d list »")


def test_every_catalogue_is_read() -> None:
    texts = _catalogue_texts()
    kinds = {where.split(".")[0] for where, _ in texts}
    assert kinds == {"messages", "options", "sections", "formats", "pages", "documents", "walk"}
    assert len(texts) > 600


def test_no_french_text_holds_an_english_word() -> None:
    found = [f"{where}: {english_words(text)} in {text!r}" for where, text in _catalogue_texts() if english_words(text)]
    assert not found, f"{len(found)} French texts hold English words:\n" + "\n".join(found)


@pytest.mark.parametrize("name", ["pupil.js", "teacher.js", "form.js"])
def test_the_class_pages_scripts_write_no_english_sentence(name: str) -> None:
    """A script puts texts of the page's catalogue (``text.…``) into the page, never its own
    English words (a thrown error's message would be shown to the pupil)."""
    script = resources.files("laby3d.serve.static").joinpath(name).read_text(encoding="utf-8")
    code = re.sub(r"/\*.*?\*/|//[^\n]*", " ", script, flags=re.DOTALL)
    literals = re.findall(r'"((?:[^"\\\n]|\\.)*)"', code) + re.findall(r"'((?:[^'\\\n]|\\.)*)'", code)
    sentences = [literal for literal in literals if re.search(r"[A-Za-z]{2,} [a-z]{2,}", literal)]
    shown = [s for s in sentences if not re.fullmatch(r"[#.\w\[\]=\" >:-]+", s) and english_words(s)]
    assert not shown, shown
