"""The option tables of the README, generated from the option fields (``laby3d schema
--markdown``), so the documentation cannot drift from the options."""

from __future__ import annotations

from typing import Any

from laby3d.options.flags import GROUP_TITLES, choices_of, range_text
from laby3d.options.job import job_flag_fields


def _default(field: Any) -> str:
    value = field.default
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "on" if value else "off"
    return f"`{value:g}`" if isinstance(value, float) else f"`{value}`"


def _allowed(field: Any) -> str:
    choices = choices_of(field)
    if choices is not None:
        return " \\| ".join(f"`{choice}`" for choice in choices) if len(choices) <= 6 else "see `laby3d list`"
    return range_text(field)


def option_tables() -> str:
    """Markdown: one table per section, a row per option (YAML key, CLI flag, default, allowed
    values, meaning)."""
    lines: list[str] = []
    section = None
    for path, field, flags in job_flag_fields():
        here = path.split(".")[0] if "." in path else ""
        if here != section:
            section = here
            title = f"`{here}:` — {GROUP_TITLES[here]}" if here else "job"
            lines += ["", f"**{title}**", "", "| YAML | CLI | default | allowed | meaning |", "|---|---|---|---|---|"]
        description = (field.description or "").replace("|", "\\|")
        flag = ", ".join(f"`{name}`" for name in flags)
        lines.append(f"| `{path}` | {flag} | {_default(field)} | {_allowed(field)} | {description} |")
    return "\n".join(lines).strip() + "\n"
