"""``graphmem import``: load files into a tenant through the bulk API, and say what happened.

Two kinds of file:

* **events** — JSON Lines (or a JSON array) of docs/format.md events, or of transcript rows: messages
  for the extractor, either ``{"role", "content", "name"?, "id"?, "created_at"?}`` (the OpenAI /
  LangChain shape: ``role`` decides who speaks, ids are made when absent, unknown fields are
  ignored — graphmem.store.transcripts) or ``{"id", "speaker", "text", "at"?, "session"?, "about"?}``
  (an unknown field is rejected with its line);
* **temporal-KG** — ``train.txt`` / ``valid.txt`` / ``test.txt`` of YAGO11k or WIKIDATA12k (docs/data.md)
  with ``entity2id.txt`` and ``relation2id.txt`` beside them; every relation is declared many-valued.
  A folder stands for the fact files in it (or in the folders inside it).

Malformed events are rejected with their line and reason before anything is written; the rest go
through ``apply_bulk``. If the store refuses an event (say, a record time running back), its
batch is replayed one event at a time so that only the refused events are rejected.

An outage is not a reject. When Neo4j stops answering (:class:`~graphmem.core.errors.ConnectionError_`)
the import stops at once — no per-event replay against a server that is gone, which used to take
the driver's 30-second retry window per event — and the summary says how far it got
(:attr:`ImportSummary.interrupted`); the CLI then exits non-zero with "re-run to resume". Resuming
is safe because every event the import applies carries an idempotency id: its own, else one made
from the file name, the line and the event's content (``import:<file>:<line>:<digest>``), so a
re-run of the same files applies what did not land and skips what did.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

from ..store.api import utcnow
from ..core.errors import ConnectionError_, GraphMemError, ValidationError
from ..core.models import MAX_ID, parse_event
from ..bench.temporal_kg import find_files, load as load_kg
from ..store.transcripts import is_transcript_row, message_event

if TYPE_CHECKING:
    from ..store.client import GraphMem

__all__ = ["ImportSummary", "detect", "import_files"]


@dataclass
class ImportSummary:
    files: list[str] = field(default_factory=list)
    events: int = 0
    facts: int = 0
    seconds: float = 0.0
    rejects: list[dict[str, Any]] = field(default_factory=list)
    interrupted: str | None = None  # the outage that stopped the import; None when it ran to the end
    resume_from: str | None = None  # where the first event not known to have landed is (file:line)

    @property
    def ok(self) -> bool:
        """Everything was imported: nothing rejected, no outage."""
        return not self.rejects and self.interrupted is None

    def to_json(self) -> dict[str, Any]:
        return {"files": self.files, "events": self.events, "facts": self.facts, "seconds": round(self.seconds, 2),
                "events_per_s": round(self.events / self.seconds, 1) if self.seconds else None,
                "rejected": len(self.rejects), "rejects": self.rejects[:100],
                "interrupted": self.interrupted, "resume_from": self.resume_from}


def detect(path: Path) -> str:
    """'kg' for a temporal-KG file (tab-separated, id maps beside it), else 'events'."""
    if path.with_name("entity2id.txt").is_file() and path.suffix == ".txt":
        return "kg"
    return "events"


def _events_from_json(path: Path, summary: ImportSummary) -> Iterator[tuple[str, Any]]:
    text = path.read_text(encoding="utf-8")
    if text.lstrip().startswith("["):
        try:
            items = list(enumerate(json.loads(text), 1))
        except RecursionError as e:
            raise ValidationError(f"{path.name}: nested too deeply to be a list of events") from e
    else:
        items = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                items.append((n, json.loads(line)))
            except ValueError as e:
                summary.rejects.append({"where": f"{path.name}:{n}", "reason": f"not JSON: {e}"})
            except RecursionError:
                summary.rejects.append({"where": f"{path.name}:{n}", "reason": "nested too deeply to be an event"})
    now = utcnow()
    for position, (n, item) in enumerate(items):
        # a transcript row ({role, content…} or {id, speaker, text…}) is a message for the extractor;
        # a row it refuses is rejected with its line, the rest still load
        if is_transcript_row(item):
            try:
                item = message_event(item, now, position)
            except GraphMemError as e:
                summary.rejects.append({"where": f"{path.name}:{n}", "reason": str(e)})
                continue
        yield f"{path.name}:{n}", item


def _events_from_kg(path: Path, summary: ImportSummary) -> Iterator[tuple[str, Any]]:
    kg = load_kg(path)
    for reason, count in kg.skipped.items():
        summary.rejects.append({"where": path.name, "reason": f"{count} lines skipped: {reason}"})
    for rel in kg.relations:
        yield f"{path.name}:topic", {"op": "topic", "name": rel, "cardinality": "many"}
    for i, fact in enumerate(kg.facts, 1):
        yield f"{path.name}:{i}", fact.event()


def import_files(store: GraphMem, paths: list[Path], *, kind: str = "auto", batch_size: int = 2000,
                 progress: Callable[[int, int], None] | None = None) -> ImportSummary:
    """Import files into ``store``'s tenant; ``progress(done, total)`` is called as batches land."""
    from_folders = {q for p in map(Path, paths) if p.is_dir() for q in find_files([p])}
    paths = [q for p in map(Path, paths) for q in (find_files([p]) if p.is_dir() else [p])]
    summary = ImportSummary(files=[str(p) for p in paths])
    items: list[tuple[str, Any]] = []
    for path in paths:
        k = kind if kind != "auto" else "kg" if path in from_folders else detect(path)
        source = _events_from_kg if k == "kg" else _events_from_json
        for where, raw in source(path, summary):
            try:
                items.append((where, _with_id(parse_event(raw), where)))
            except GraphMemError as e:
                summary.rejects.append({"where": where, "reason": str(e)})
    total, done = len(items), 0
    t0 = time.perf_counter()
    for start in range(0, total, batch_size):
        batch = items[start:start + batch_size]
        try:
            results = store.apply_bulk([e for _, e in batch], batch_size=batch_size)
        except ConnectionError_ as e:
            _interrupt(summary, e, batch[0][0])
            break
        except GraphMemError:
            results = []
            for where, event in batch:  # find the refused events; keep the others
                try:
                    results.append(store.apply(event))
                except ConnectionError_ as e:
                    _interrupt(summary, e, where)
                    break
                except GraphMemError as err:
                    summary.rejects.append({"where": where, "reason": f"{type(err).__name__}: {err}"})
        summary.events += sum(not r.duplicate for r in results)
        summary.facts += sum(len(r.facts) for r in results if not r.duplicate)
        if summary.interrupted is not None:
            break
        done += len(batch)
        if progress is not None:
            progress(done, total)
    if summary.interrupted is None and any(e.op == "message" for _, e in items) and store.embedder is not None:
        store.embed_pending()  # transcripts: their text is recall's too
    summary.seconds = time.perf_counter() - t0
    return summary


def _with_id(event: Any, where: str) -> Any:
    """``event`` with an idempotency id: its own, else one made of where it is and what it says,
    so that re-running an interrupted import skips the events that landed."""
    if getattr(event, "id", None):
        return event
    digest = hashlib.sha256(event.model_dump_json().encode()).hexdigest()
    ident = f"import:{where}:{digest[:16]}"
    if len(ident) > MAX_ID:  # a very long file name: the digest of both, still unique per line
        ident = "import:" + hashlib.sha256(f"{where}\n{digest}".encode()).hexdigest()
    return event.model_copy(update={"id": ident})


def _interrupt(summary: ImportSummary, e: GraphMemError, where: str) -> None:
    summary.interrupted = str(e)
    summary.resume_from = where
