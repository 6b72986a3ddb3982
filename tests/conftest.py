"""Shared fixtures: golden files (refresh with ``pytest --update-golden``), external tools, and
one headless Chromium per test module of the walk-through page."""

from __future__ import annotations

import difflib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

GOLDEN = Path(__file__).parent / "golden"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", help="rewrite the golden files from the current output")


@pytest.fixture
def golden(request: pytest.FixtureRequest):
    """``golden(name, text)``: compare with tests/golden/NAME, or rewrite it with --update-golden."""

    def check(name: str, text: str) -> None:
        path = GOLDEN / name
        if request.config.getoption("--update-golden"):
            path.write_text(text, encoding="utf-8")
            return
        assert path.exists(), f"missing golden file {path}; run pytest --update-golden"
        expected = path.read_text(encoding="utf-8")
        if text != expected:
            diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True), "golden", "now"))
            pytest.fail(f"{name} differs from its golden file:\n{diff}")

    return check


def require_tool(name: str) -> str:
    """Path of an external tool; skip without it, or fail when LABY3D_REQUIRE_TOOLS=1."""
    path = shutil.which(name)
    if path is None:
        message = f"{name} is not installed (apt-get install {name}); its check is skipped"
        if os.environ.get("LABY3D_REQUIRE_TOOLS") == "1":
            pytest.fail(f"LABY3D_REQUIRE_TOOLS=1 but {message}")
        pytest.skip(message)
    return path


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Headless Chromium driven over DevTools (tests/devtools.py), one for the test module."""
    from devtools import Browser

    with Browser(require_tool("chromium")) as shared:
        yield shared


@pytest.fixture
def page(chromium: Any) -> Any:
    """The module's browser, reset to an 800×600 desktop window without touch."""
    from pagecheck import view

    view(chromium, 800, 600)
    chromium.events.clear()
    return chromium
