"""``python -m laby3d`` and the ``laby3d`` command: the CLI (:func:`laby3d.cli.main`), which ends on
one line when Ctrl-C or a kill comes at any moment, its imports and the interpreter's exit included
(only the interpreter's own start, before any of laby3d is read, is Python's)."""

import signal
import sys


def run() -> int:
    """Run the CLI as a program: a Ctrl-C (status 130), SIGTERM or SIGHUP (128 + its number) while
    it is still importing its modules ends it with one line once the imports are done (well under
    a second), as later; none comes through while the interpreter exits."""
    try:
        from laby3d.console import stops_deferred
    except KeyboardInterrupt:
        return _stopped_importing(signal.SIGINT)
    with stops_deferred() as stops:  # noted, not raised: an extension may wrap one in its own error
        from laby3d.cli import main
    if stops:
        return _stopped_importing(stops[0])
    status = main()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the status is known: the exit itself is not interrupted
    return status


def _stopped_importing(number: int) -> int:
    """The one line of a command stopped before it did anything, in the language typed."""
    typed = " ".join(sys.argv[1:])
    french = "--lang fr" in typed or "--lang=fr" in typed
    print(
        f"laby3d: {'interrompu ; rien n’a été écrit' if french else 'interrupted; nothing was written'}",
        file=sys.stderr,
    )
    return 128 + number


if __name__ == "__main__":
    sys.exit(run())
