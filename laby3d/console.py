"""The terminal side of the CLI: text that every console encoding can show, one-line errors of
bounded length, and standard output failures (a full disk, a closed pipe) told apart from bugs.

Encodings: laby3d keeps the encoding the console (or the pipe, or the file) already has, which is
what its reader decodes, and replaces only the characters that encoding lacks: ``×`` by ``x``,
``→`` by ``->``, box drawing by ``+-|``, accents dropped when the bare letter exists (``é`` →
``e``), anything else as a ``\\u`` escape (:data:`ERRORS`). Forcing UTF-8 instead would turn
every ``×`` and ``─`` into mojibake on a cp1252 or cp850 console and in a Windows pipe read in
the ANSI code page. Text art falls back to the ASCII charset (``+--+``) when the console cannot
draw boxes (:func:`can_draw_boxes`).

Signals: Ctrl-C raises ``KeyboardInterrupt`` and, within :func:`stop_signals`, SIGTERM (``kill``,
a job scheduler) and SIGHUP (the terminal closed) raise :class:`Stopped`, so that any command
ends through its clean-up (temporaries removed, workers stopped, the folder's lock released) and
prints one line, whatever moment the signal comes.
"""

from __future__ import annotations

import codecs
import signal
import sys
import threading
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn, TextIO

#: Longest error line the CLI prints (a value quoted in it is shortened first, laby3d.quoting).
MAX_MESSAGE = 300
#: Name of the codec error handler that writes look-alikes (registered on import).
ERRORS = "laby3d-console"
#: Characters laby3d writes and their ASCII look-alikes.
LOOK_ALIKES = {
    "×": "x",
    "→": "->",
    "←": "<-",
    "…": "...",
    "–": "-",
    "—": "-",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "«": '"',
    "»": '"',
    "•": "*",
    "≥": ">=",
    "≤": "<=",
    "µ": "u",
    "³": "3",
    "²": "2",
    "°": " deg",
    "\u00a0": " ",
    "\u202f": " ",
}
_BOX_HORIZONTAL = "─╴╶"
_BOX_VERTICAL = "│╵╷"
#: What text art draws with the unicode charset (laby3d.draw.ascii).
BOX_CHARACTERS = "─│┌┐└┘├┤┬┴┼╴╵╶╷•"


def look_alike(character: str) -> str:
    """An ASCII stand-in for ``character`` (``\\uXXXX`` when there is none).

    >>> look_alike("×"), look_alike("é"), look_alike("┼"), look_alike("☃")
    ('x', 'e', '+', '\\\\u2603')
    """
    if character in LOOK_ALIKES:
        return LOOK_ALIKES[character]
    if character in _BOX_HORIZONTAL:
        return "-"
    if character in _BOX_VERTICAL:
        return "|"
    if "\u2500" <= character <= "\u257f":
        return "+"
    bare = unicodedata.normalize("NFKD", character).encode("ascii", "ignore").decode()
    if bare:
        return bare
    return character.encode("ascii", "backslashreplace").decode()


def _replace(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(look_alike(char) for char in error.object[error.start : error.end]), error.end


codecs.register_error(ERRORS, _replace)


def set_up_streams() -> None:
    """Standard output and error write look-alikes for what their encoding lacks, instead of
    failing (``PYTHONIOENCODING=ascii``, a cp1252 pipe) or escaping (Python's default for
    standard error); a handler the user chose (``PYTHONIOENCODING=ascii:replace``) is kept."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) in ("strict", "backslashreplace", None):
            try:
                reconfigure(errors=ERRORS)
            except (ValueError, OSError):
                pass  # a stream already written to in an odd state: left as it is


def can_draw_boxes(stream: Any = None) -> bool:
    """Whether ``stream`` (default standard output) can encode text art's box drawing."""
    encoding = getattr(stream if stream is not None else sys.stdout, "encoding", None) or "utf-8"
    try:
        BOX_CHARACTERS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def one_line(message: str, limit: int = MAX_MESSAGE) -> str:
    """``message`` on one line of at most ``limit`` characters: a longer one loses its middle
    (``…`` marks it), since its start names the file or field and its end says what to do.

    >>> one_line("a\\nb")
    'a b'
    >>> text = one_line("cannot use " + "d/" * 500 + "x: use a new folder such as y")
    >>> len(text), text[:14], text[-20:]
    (300, 'cannot use d/d', 'new folder such as y')
    """
    flat = " ".join(message.split("\n"))
    if len(flat) <= limit:
        return flat
    tail = (limit - 1) * 2 // 5
    return flat[: limit - 1 - tail] + "…" + flat[len(flat) - tail :]


class StandardOutputError(OSError):
    """Standard output could not be written (not a closed pipe: that one is BrokenPipeError)."""


class GuardedOutput:
    """Standard output whose write failures raise :class:`StandardOutputError` (or
    :class:`BrokenPipeError`), so the CLI tells them from a bug."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise StandardOutputError(error.errno, error.strerror) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise StandardOutputError(error.errno, error.strerror) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class Stopped(BaseException):
    """The process was asked to stop (SIGTERM, SIGHUP): it unwinds as Ctrl-C does."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


#: Signals that stop a command as Ctrl-C does (where the platform has them).
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextmanager
def stop_signals() -> Iterator[None]:
    """For the block, :data:`STOP_SIGNALS` raise :class:`Stopped` (only in the main thread, where
    Python delivers signals); the previous handlers come back after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(number: int, frame: Any) -> NoReturn:
        raise Stopped(number)

    previous = {number: signal.signal(number, stop) for number in STOP_SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextmanager
def stops_deferred() -> Iterator[list[int]]:
    """For the block, Ctrl-C and :data:`STOP_SIGNALS` are noted in the list yielded, not raised:
    code that catches every exception (a C extension building its tables) cannot turn the stop
    into its own error; the caller ends after the block. Main thread only."""
    noted: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield noted
        return

    def note(number: int, frame: Any) -> None:
        noted.append(number)

    previous = {number: signal.signal(number, note) for number in (signal.SIGINT, *STOP_SIGNALS)}
    try:
        yield noted
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextmanager
def signals_held() -> Iterator[None]:
    """Ctrl-C and :data:`STOP_SIGNALS` ignored for the block (the last line of a stopped run
    is printed whole, however many times Ctrl-C is pressed); main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.signal(number, signal.SIG_IGN) for number in (signal.SIGINT, *STOP_SIGNALS)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
