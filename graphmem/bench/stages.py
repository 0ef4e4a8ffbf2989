"""Where an ingest's CPU goes, by stage: parse, rules, episodes, embedding, and the rest (write).

The bench wraps the functions each stage runs in (:data:`TARGETS`) for the length of a run and
counts the CPU time of the thread that calls them (``time.thread_time``), *exclusive* of the
wrapped calls nested inside (the rules ask for a parse: that time is the parse's). What no
wrapped function covers — validating events, the unit of work, the driver, the behind-commit
thread — is this process's CPU minus the stages: ``write``. The parse worker's CPU
(graphmem/extract/parse_pool.py, another process) is reported on its own. The wrappers cost
~2 µs a call, a few calls a turn: nothing the figures can see.
"""

from __future__ import annotations

import functools
import importlib
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator

__all__ = ["STAGES", "TARGETS", "Stages"]

STAGES = ("parse", "rules", "episodes", "embedding", "write")

# (module, attribute path, stage, how it is bound on its owner)
TARGETS: list[tuple[str, str, str, str]] = [
    ("graphmem.extract.parse_pool", "parse_many", "parse", "function"),
    ("graphmem.extract.parse_pool", "parse_ahead", "parse", "function"),
    ("graphmem.extract.matmul", "parse", "parse", "function"),
    ("graphmem.extract.matmul", "pipe", "parse", "function"),
    ("graphmem.extract.rules", "RuleExtractor._to_parse", "rules", "method"),
    ("graphmem.extract.rules", "RuleExtractor._extract", "rules", "method"),
    ("graphmem.extract.rules", "RuleExtractor._episodes", "episodes", "static"),
]


class Stages:
    """Exclusive thread-CPU seconds by stage while :meth:`counting`."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {s: 0.0 for s in STAGES}
        self._local = threading.local()

    def _wrap(self, fn: Callable[..., Any], stage: str,
              clock: Callable[[], float] = time.thread_time) -> Callable[..., Any]:
        local, seconds = self._local, self.seconds

        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            stack: list[float] = local.__dict__.setdefault("stack", [])
            stack.append(0.0)  # CPU of wrapped calls nested inside this one
            t0 = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                took = clock() - t0
                nested = stack.pop()
                seconds[stage] += took - nested
                if stack:
                    stack[-1] += took
        return timed

    @contextmanager
    def counting(self, embedder: Any = None) -> Iterator["Stages"]:
        """Wrap the stage functions (and ``embedder.embed``) for the block; put them back after."""
        undo: list[Callable[[], None]] = []
        try:
            for module, path, stage, kind in TARGETS:
                owner: Any = importlib.import_module(module)
                *parents, name = path.split(".")
                for p in parents:
                    owner = getattr(owner, p)
                raw = owner.__dict__[name] if kind != "function" else getattr(owner, name)
                fn = raw.__func__ if kind == "static" else raw
                wrapped = self._wrap(fn, stage)
                setattr(owner, name, staticmethod(wrapped) if kind == "static" else wrapped)
                undo.append(functools.partial(setattr, owner, name, raw))
            if embedder is not None and hasattr(embedder, "embed"):
                embed = embedder.embed
                # The whole process's CPU: wordllama's tokenizer encodes a batch on threads of its
                # own, and nothing else runs meanwhile (the vectors are made after the last commit).
                embedder.embed = self._wrap(embed, "embedding", time.process_time)
                undo.append(lambda: delattr(embedder, "embed") if "embed" in vars(embedder)
                            else None)
            yield self
        finally:
            for u in reversed(undo):
                u()

    def report(self, process_cpu: float, turns: int) -> dict[str, float]:
        """CPU ms a turn by stage; ``write`` is what the stages leave of ``process_cpu``."""
        named = sum(v for k, v in self.seconds.items() if k != "write")
        out = {k: v for k, v in self.seconds.items() if k != "write"}
        out["write"] = max(0.0, process_cpu - named)
        return {k: round(v * 1000 / max(turns, 1), 2) for k, v in out.items()}
