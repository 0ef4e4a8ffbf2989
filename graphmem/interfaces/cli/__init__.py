"""The ``graphmem`` command: a mirror of the client, verb for verb (docs/cli.md has the table).

Each command parses its options, makes one library call and prints the result (``--json`` for
machines). The shared options (``--tenant``, ``--uri``, ``--database``, ``--json``, ``--actor``)
and the one place errors are caught live in :mod:`graphmem.interfaces.cli.common`; the commands live in
modules by theme, each with a ``register(app)``. Only :class:`graphmem.core.errors.GraphMemError` is
caught: it becomes one line ``Error: …`` and exit status 1. No logic of its own lives here.

A call pays only for its command: :func:`main` loads just the module that owns the command named
on the command line (:data:`COMMANDS`; the full app for ``--help`` or an unknown name), and the
driver, the pydantic models, spaCy and the embedder are imported inside the commands that use
them (tests/unit/test_cli_mirror.py keeps it so). ``app`` is the full command, built on first use.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import os
import sys
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    import typer

__all__ = ["COMMANDS", "MODULES", "app", "build", "entry", "main", "version"]

MODULES = ("local", "writes", "batches", "reads", "governance", "recall", "memories", "playbook", "working", "bench")

# The module that registers each top-level command or group (a unit test checks it against the app).
COMMANDS = {
    **dict.fromkeys(("server", "mcp", "demo", "eval"), "local"),
    **dict.fromkeys(("set", "revoke", "retract", "confirm", "reject", "quote", "add-source", "declare-topic", "topic",
                     "alias"), "writes"),
    **dict.fromkeys(("apply", "import", "ingest", "ingest-bulk", "add", "schema", "rebuild", "sweep", "embed-pending",
                     "drop-tenant"), "batches"),
    **dict.fromkeys(("as-of", "history", "history-values", "why", "path", "episodes", "messages", "assertions", "events",
                     "events-page", "ping", "round-trip", "stats"), "reads"),
    **dict.fromkeys(("erase", "forget", "request-erase", "erase-request", "confirm-erase", "cancel-erase", "verify",
                     "audit"), "governance"),
    **dict.fromkeys(("context", "summary", "user"), "recall"),
    **dict.fromkeys(("search", "facts", "candidates"), "memories"),
    "playbook": "playbook",
    "working": "working",
    **dict.fromkeys(("bench", "bench-extract"), "bench"),
}


def build(modules: Iterable[str] = MODULES, only: str | None = None) -> typer.Typer:
    """The ``graphmem`` command with the commands of ``modules`` (all of them by default).

    With ``only`` (the command named on the command line), a module of plain commands registers
    just that one: typer turns every registered command into a click command before it parses
    (~15 ms for the dozen reads here). The root callback (``--version``, else a no-op) keeps the
    command under its name (typer makes a lone command the root itself)."""
    import typer

    from .common import Commands
    root = typer.Typer(help="graphmem: a temporal memory store for AI agents, kept in Neo4j. Its commands mirror "
                            "the client's methods (docs/cli.md).\n\nExample: graphmem as-of deploy port -t acme --json",
                       no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
    for name in modules:
        register = importlib.import_module(f"{__name__}.{name}").register
        if only is not None and isinstance(getattr(register, "__self__", None), Commands):
            register(root, only=only)
        else:
            register(root)
    @root.callback()
    def _root(show_version: bool = typer.Option(False, "--version", "-V", is_eager=True, callback=_show_version,
                                                help="print graphmem's version and exit")) -> None:
        """graphmem: a temporal memory store for AI agents, kept in Neo4j."""
    return root


def _show_version(value: bool) -> None:
    if value:
        print(f"graphmem {version()}")
        raise SystemExit(0)


def version() -> str:
    """The installed package's version (graphmem.__version__ when run from a source tree)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed
    try:
        return installed("graphmem")
    except PackageNotFoundError:
        from ... import __version__
        return __version__




def __getattr__(name: str) -> Any:
    if name == "app":
        value = globals()["app"] = build()
        return value
    if name in ("_print", "_fail"):  # old private names some callers used
        from . import common
        return common.emit if name == "_print" else common.fail
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: list[str] | None = None) -> None:
    """Run ``graphmem`` with only the module its command needs loaded."""
    try:
        import typer  # noqa: F401  (the `cli` extra)
    except ImportError as e:
        from ...core.extras import missing
        if getattr(e, "name", None) not in ("typer", None):
            raise
        print(f"Error: {missing('cli')}", file=sys.stderr)
        raise SystemExit(1) from e
    from .common import imports_without_gc
    args = sys.argv[1:] if argv is None else argv
    if args[:1] in (["--version"], ["-V"]):  # answered before any command is built
        print(f"graphmem {version()}")
        return
    module = COMMANDS.get(args[0]) if args else None
    with imports_without_gc():
        command = build((module,), only=args[0]) if module else __getattr__("app")
    try:
        command(args=args, prog_name="graphmem")
    finally:
        # The process ends here: frozen objects are left out of the interpreter's final full
        # collection (~0.2 s of a call here); refcounting still frees them and atexit still runs.
        gc.freeze()


def entry() -> None:
    """The ``graphmem`` console script: :func:`main`, then leave without the interpreter's teardown.

    Once the command has printed, tearing the interpreter down (clearing every module, freeing
    every object one by one) only costs time: ~0.03 s of a ``graphmem as-of`` here, a tenth of
    what a shell script pays for a read. The exit handlers still run (logging's flush, a parse
    worker's shutdown), the output is flushed, and the exit status is the command's. An uncaught
    exception still ends the process the usual way, with its traceback. Code that calls
    :func:`main` in-process (tests, ``bench cli``'s probe) is unaffected."""
    try:
        main()
        code = 0
    except SystemExit as e:
        code = _exit_status(e.code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (`graphmem … | head`): nothing left to say
            code = code or 1
    os._exit(code)


def _exit_status(code: object) -> int:
    """What :class:`SystemExit` would have made of ``code``: None is 0, an int itself, anything
    else printed on stderr and 1."""
    if code is None or isinstance(code, int):
        return code or 0
    print(code, file=sys.stderr)
    return 1


if __name__ == "__main__":
    entry()
