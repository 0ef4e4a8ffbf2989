"""What every ``graphmem`` command shares: the connection options, the store, printing, errors.

A command is a plain function registered with :func:`verb`. The decorator adds the shared
options (``--tenant/-t``, ``--uri``, ``--database``, ``--json``, and ``--actor`` for writes) to its
signature once, opens the client, calls the body with it, prints what the body returns, and turns
a :class:`graphmem.core.errors.GraphMemError` into one line ``Error: …`` and exit status 1 — the one
place errors are caught. Heavy modules (the driver, pydantic models, spaCy, the embedder) are
imported inside bodies, never here: ``import graphmem.interfaces.cli`` stays cheap (docs/cli.md).
"""

from __future__ import annotations

import gc
import inspect
import json
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional

import typer

from ...core.errors import GraphMemError, ValidationError

if TYPE_CHECKING:  # a command's body is typed against the client; importing it here would load the driver
    from ...store.client import GraphMem

UriOpt = typer.Option(None, "--uri", envvar="NEO4J_URI", help="bolt:// or neo4j:// URI (default: the local server)")
DbOpt = typer.Option(None, "--database", envvar="NEO4J_DATABASE", help="database name (default: the server's)")
TenantOpt = typer.Option("default", "--tenant", "-t", help="tenant scope")
JsonOpt = typer.Option(False, "--json", help="print JSON")
ActorOpt = typer.Option(None, "--actor", envvar="GRAPHMEM_ACTOR", help="who writes (default: GRAPHMEM_ACTOR or owner)")


@dataclass
class Opts:
    """The shared options of one call, as the command line gave them."""

    tenant: str = "default"
    uri: Optional[str] = None
    database: Optional[str] = None
    as_json: bool = False
    actor: Optional[str] = None
    lean: bool = False

    def settings(self) -> Any:
        """The connection settings; a ``--uri`` that typer filled in from NEO4J_URI counts as the
        environment's, so an error about it says to check NEO4J_URI, and only a ``--uri`` the
        command line gave says to check that."""
        from ...core.config import env_config
        from ...store.settings import Settings
        from_env = self.uri is not None and self.uri == env_config().neo4j_uri
        return Settings.from_env(uri=None if from_env else self.uri, database=self.database)


def fail(e: BaseException) -> None:
    """Print ``Error: …`` on stderr and exit 1."""
    typer.echo(f"Error: {e}", err=True)
    raise typer.Exit(1)


def import_driver_lean() -> None:
    """Import the Neo4j driver without its optional numpy/pandas hooks (numpy alone costs ~0.2 s of
    a CLI call here). Only for commands that never hand the driver a numpy array (plain reads):
    the driver then simply has no numpy support in this process; numpy itself stays importable."""
    if "neo4j" in sys.modules:
        return
    blocked = [name for name in ("numpy", "pandas", "pyarrow") if name not in sys.modules]
    for name in blocked:
        sys.modules[name] = None  # type: ignore[assignment]  # makes `import numpy` raise ImportError
    try:
        import neo4j  # noqa: F401
    finally:
        for name in blocked:
            sys.modules.pop(name, None)


@contextmanager
def imports_without_gc() -> Iterator[None]:
    """Imports make long-lived objects only: the cyclic GC running during them is wasted work
    (~0.1 s of a CLI call here). What they made is then frozen (moved out of the GC's reach, as
    :func:`gc.freeze` is meant for), or the first collection after the GC is back would walk all
    of it at once (~0.02-0.04 s). Restores the GC's previous state."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was:
            gc.enable()


@contextmanager
def open_store(opts: Opts, tenant: str | None = None, **kw: Any) -> Iterator[GraphMem]:
    """A client bound to ``tenant`` (default the ``--tenant``), closed afterwards."""
    with imports_without_gc():
        if opts.lean:
            import_driver_lean()
        from ...store.client import GraphMem
    # a command's process ends before warmed plans would pay (graphmem.recall.warm): not warmed here
    with GraphMem(opts.settings(), tenant=tenant or opts.tenant, actor=opts.actor, **{"warm": False, **kw}) as store:
        yield store


# Reads whose answer is empty when --tenant or a topic is misspelt: the command checks that the
# tenant has events and the topics exist there (graphmem.store.hints), so a typo is an error with
# a hint ("did you mean home_address?"), not a silent empty answer with status 0. The plain reads
# check only when their answer is empty (a read that answers costs no extra query: docs/cli.md's
# read budget); the commands that print as they go check first.
CHECKED_IF_EMPTY = frozenset({"as-of", "history", "history-values", "why", "path", "assertions", "episodes"})
CHECKED_FIRST = frozenset({"context", "search", "facts", "candidates", "summary"})


def empty(out: Any) -> bool:
    """Whether a read answered nothing: an empty list, an answer that holds nothing, a why without a value."""
    if isinstance(out, list):
        return not out
    if hasattr(out, "holds"):
        return not out.holds
    if hasattr(out, "supersedes_source"):
        return out.value is None and not out.conflict
    return False


def check_read(store: GraphMem, kw: dict[str, Any]) -> None:
    """Refuse a read of a tenant with no events (naming the tenants that have some: the command
    line's user holds the database's credentials) or of a topic the tenant never used."""
    from ...store.hints import check_read as plan
    topics = [kw["topic"]] if isinstance(kw.get("topic"), str) else list(kw.get("path") or [])  # path's topics
    store._run(plan(store.tenant, topics, list_tenants=True))  # the CLI is graphmem's own: it may run a plan


def to_data(obj: Any) -> Any:
    """A result as plain JSON-able data (pydantic models dumped, lists element-wise)."""
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json", exclude_none=True)
    if isinstance(obj, list):
        return [o.model_dump(mode="json", exclude_none=True) if hasattr(o, "model_dump") else o for o in obj]
    return obj


def emit(obj: Any, as_json: bool) -> None:
    """Print a result: JSON with ``--json``; else rows as ``k=v``, a dict as ``k: v`` lines."""
    data = to_data(obj)
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False, default=str))
    elif isinstance(data, list):
        for row in data:
            typer.echo("  ".join(f"{k}={v}" for k, v in row.items()) if isinstance(row, dict) else str(row))
    elif isinstance(data, dict):
        for k, v in data.items():
            typer.echo(f"{k}: {v}")
    else:
        typer.echo(str(data))


def read_input(file: Path) -> str:
    """A file's text, or stdin for ``-``; an unreadable file is a clear error."""
    try:
        return sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    except OSError as e:
        raise ValidationError(f"cannot read {file}: {e}") from e
    except UnicodeDecodeError as e:  # a ValueError the CLI would otherwise print as a traceback
        raise ValidationError(f"{file} is not UTF-8 text: {e}") from e


def json_arg(text: str | None, what: str) -> Any:
    """Parse an option given as JSON text; bad JSON is a ValidationError naming the option."""
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError as e:
        raise ValidationError(f"{what} must be JSON: {e}") from e
    except RecursionError as e:
        raise ValidationError(f"{what} is nested too deeply") from e


_SHARED = {
    "tenant": (str, TenantOpt),
    "uri": (Optional[str], UriOpt),
    "database": (Optional[str], DbOpt),
    "as_json": (bool, JsonOpt),
    "actor": (Optional[str], ActorOpt),
}


def own_params(fn: Callable[..., Any]) -> list[inspect.Parameter]:
    """``fn``'s parameters but ``store`` and ``opts``, with their annotations evaluated for typer.

    ``store`` is annotated with the client (:class:`graphmem.store.client.GraphMem`), imported for
    the type checker only: importing it for real would load the driver into every command, so the
    name stands for a placeholder while the annotations are evaluated."""
    sig = inspect.signature(fn, eval_str=True, locals={"GraphMem": object})
    return [p for p in sig.parameters.values() if p.name not in ("store", "opts")]


def _shared_params(fn: Callable[..., Any], names: list[str]) -> list[inspect.Parameter]:
    own = inspect.signature(fn).parameters
    return [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=_SHARED[n][1], annotation=_SHARED[n][0])
            for n in names if n not in own]


def verb(app: typer.Typer, name: str, *, store: bool = True, tenant: bool = True, actor: bool = False,
         as_json: bool = True, connect: bool = True, lean: bool = False, aliases: tuple[str, ...] = (),
         catch: tuple[type[BaseException], ...] = (), **settings: Any) -> Callable[[Callable[..., Any]], Any]:
    """Register ``fn`` as command ``name`` of ``app`` with the shared options.

    The body is called as ``fn(store, opts, **its_own_options)`` (``fn(opts, …)`` with
    ``store=False``) and what it returns is printed with :func:`emit` (``None`` prints nothing).
    ``aliases`` are hidden other names (old spellings scripts may use); ``catch`` adds exception
    types reported like GraphMemError; ``lean`` imports the driver without numpy (plain reads);
    ``connect=False`` leaves out ``--uri``/``--database`` (commands that open no connection).
    """
    shared = ([n for n, on in (("tenant", tenant), ("uri", connect), ("database", connect), ("as_json", as_json),
                               ("actor", actor)) if on])

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        own = own_params(fn)
        taken = {p.name for p in own}

        def command(**kw: Any) -> None:
            opts = Opts(**{k: kw.pop(k) for k in shared if k not in taken}, lean=lean)
            for k in shared:
                if k in taken:
                    setattr(opts, k, kw[k])
            try:
                if store:
                    with open_store(opts) as s:
                        if name in CHECKED_FIRST:
                            check_read(s, kw)
                        out = fn(s, opts, **kw)
                        if name in CHECKED_IF_EMPTY and empty(out):
                            check_read(s, kw)
                else:
                    out = fn(opts, **kw)
            except (GraphMemError, *catch) as e:  # type: ignore[misc]  # mypy reads a starred tuple as one type
                fail(e)
            if out is not None:
                emit(out, opts.as_json)

        command.__signature__ = inspect.Signature(own + _shared_params(fn, shared))  # type: ignore[attr-defined]
        command.__doc__ = fn.__doc__
        command.__name__ = fn.__name__
        command.__module__ = fn.__module__
        app.command(name, **settings)(command)
        for alias in aliases:
            app.command(alias, hidden=True, **settings)(command)
        return fn
    return deco


class Commands:
    """The commands of one module, defined at module level with ``@cmds("name", …)`` (the options
    of :func:`verb`) and added to a (fresh) app by ``cmds.register(app)``."""

    def __init__(self) -> None:
        self.items: list[tuple[str, Callable[..., Any], dict[str, Any]]] = []

    def __call__(self, name: str, **options: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
            self.items.append((name, fn, options))
            return fn
        return deco

    def register(self, app: typer.Typer, only: str | None = None) -> typer.Typer:
        """Add the commands to ``app``; with ``only``, just the one of that name (or hidden alias)."""
        for name, fn, options in self.items:
            if only is None or only == name or only in options.get("aliases", ()):
                verb(app, name, **options)(fn)
        return app
