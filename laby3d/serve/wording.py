"""The printability figures as the class pages show them, in the class's language: the pupil's
report rows, the teacher's columns and the class totals, written by :mod:`laby3d.i18n`
(``50,9 g``, ``environ 3 h 35 min``, ``Totaux :``). Stored summaries stay language-free."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from laby3d.i18n import colon, duration_text, in_language, quantity_text
from laby3d.serve.page import strings


def figures(summary: Mapping[str, Any], lang: str) -> dict[str, str]:
    """Size, print time and filament of one summary as text (``""`` when unknown)."""
    size = summary.get("size_mm")
    seconds = summary.get("print_seconds")
    grams = summary.get("filament_g")
    return {
        "size": " × ".join(f"{round(v)}" for v in size) + " mm" if size else "",
        "time": duration_text(seconds, lang) if seconds is not None else "",
        "filament": quantity_text(grams, "g", lang, digits=1) if grams is not None else "",
    }


def for_page(summary: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """The summary with its figures (``texts``), the pupil's report rows (``rows``: label,
    value) and its warnings in ``lang``."""
    text, shown = strings(lang), figures(summary, lang)
    rows = [[colon(text["size"], lang), shown["size"]]] if shown["size"] else []
    if summary.get("printer"):
        rows.append([colon(summary["printer"], lang), text["fits"] if summary.get("fits") else text["fits_not"]])
    rows += [[colon(text[key], lang), shown[name]] for key, name in (("time", "time"), ("filament", "filament"))]
    rows = [row for row in rows if row[1]]
    warnings = [in_language(warning, lang) for warning in summary.get("warnings") or []]
    return {**summary, "texts": shown, "rows": rows, "warnings": warnings}


def totals_text(summaries: Iterable[Mapping[str, Any]], lang: str) -> str:
    """``Totaux : 3 labyrinthes · environ 3 h 05 min d'impression · 152 g de filament``."""
    listed = list(summaries)
    seconds = sum(s.get("print_seconds") or 0 for s in listed)
    grams = sum(s.get("filament_g") or 0 for s in listed)
    text = strings(lang)
    mazes = text["mazes"] if len(listed) != 1 else text["mazes"].removesuffix("s")  # mazes, labyrinthes
    parts = [f"{len(listed)} {mazes}"]
    parts.append(f"{duration_text(seconds, lang)} {text['of_printing']}")
    parts.append(f"{quantity_text(grams, 'g', lang, digits=0)} {text['of_filament']}")
    return f"{colon(text['totals'], lang)} {' · '.join(parts)}"


def status_text(status: str, lang: str) -> str:
    """A pupil's stored status (``ok``, ``WARN: …``, ``invalid: …``, ``updating…``, ``joined``)
    as the teacher's list shows it in ``lang``: ``ATTENTION : …``, ``invalide : …``."""
    text = strings(lang)
    kind, sep, detail = status.partition(": ")
    if sep and kind in ("WARN", "invalid"):
        return f"{colon(text['status_' + kind.lower()], lang)} {in_language(detail, lang)}"
    return {"updating…": text["updating"] + "…", "joined": text["status_joined"]}.get(status, status)
