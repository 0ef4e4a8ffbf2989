"""graphmem's optional parts (pyproject extras) and the error that names the one to install.

``pip install graphmem`` is the library; the command line, the MCP server and the heavier
embedders are extras (docs/configuration.md has the table). Code that needs one imports it
through :func:`require`, which turns a missing package into a
:class:`~graphmem.core.errors.MissingExtraError` such as::

    graphmem's CLI needs the `cli` extra: pip install 'graphmem[cli]'

Example::

    >>> from graphmem.core.extras import require
    >>> bm25s = require("bench", "bm25s")  # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import MissingExtraError

__all__ = ["EXTRAS", "missing", "require"]

#: extra → (what needs it, the modules it provides)
EXTRAS: dict[str, tuple[str, tuple[str, ...]]] = {
    "cli": ("graphmem's CLI", ("typer", "rich")),
    "mcp": ("graphmem's MCP server", ("mcp",)),
    "langchain": ("graphmem's LangChain chat history", ("langchain_core",)),
    "vectors": ("the 'minilm' embedder", ("sentence_transformers",)),
    "bench": ("graphmem bench's plots and BM25 baseline", ("matplotlib", "bm25s")),
    "graphiti": ("graphmem bench graphiti", ("graphiti_core",)),
    "model": ("the model extractor", ("httpx",)),
    "otel": ("OpenTelemetry export", ("opentelemetry",)),
}


def missing(extra: str, hint: str = "") -> MissingExtraError:
    """The error saying that ``extra`` is not installed (``hint``: what else the user may do)."""
    what, modules = EXTRAS[extra]
    message = f"{what} needs the `{extra}` extra: pip install 'graphmem[{extra}]'"
    return MissingExtraError(message + (f" {hint}" if hint else ""), extra=extra, module=modules[0])


def require(extra: str, module: str | None = None, hint: str = "") -> ModuleType:
    """Import ``module`` (default: the extra's first module); if it (not something inside it) is
    missing, raise :func:`missing`'s error, chained to the ImportError."""
    name = module or EXTRAS[extra][1][0]
    try:
        return importlib.import_module(name)
    except ImportError as e:
        absent = getattr(e, "name", None)
        if absent and not (name == absent or name.startswith(absent + ".")):
            raise  # the package is there but broken inside: its own error says more
        raise missing(extra, hint) from e
