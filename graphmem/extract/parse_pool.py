"""English parses for a bulk import on two cores: a second process parses with this one.

Parsing is most of a transcript import's time (``en_core_web_sm`` runs at roughly a hundred
turns a second on one core). :func:`parse_many` splits the texts into chunks; a worker process
(one, started on first use and kept for the life of this process) takes chunks from the front
while this process parses from the back, until they meet. The worker sends each parse back as
plain arrays (words, spaces, tag, pos, head, dep, entities, morphology) that are rebuilt here as a
``Doc`` on this pipeline's vocabulary: the same annotations the rules read as a local parse gives
(tests/unit/test_parse_pool.py checks the extractor's output is identical either way).

:func:`parse_ahead` starts the worker on texts before they are asked for: the store's bulk path
hands it the next batch's texts, so the worker parses them while this process runs the rules of
the batch before, where it used to wait idle; the :func:`parse_many` that then asks for the same
texts takes up the job (this process parses from the back what the worker has not reached).

The worker is only used for many texts (``MIN_TEXTS``) and, by default, when a core is free
(:func:`enabled`; ``GRAPHMEM_PARSE_WORKERS=0`` never, ``1`` always); if it cannot start or dies,
everything is parsed here. Nothing is downloaded: the worker loads the same installed model.
"""

from __future__ import annotations

import atexit
import os
import pickle
import struct
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Callable, Sequence

from . import matmul

__all__ = ["CHUNK", "MIN_TEXTS", "enabled", "pack", "parse_ahead", "parse_many", "shutdown", "unpack",
           "worker_cpu_seconds"]

CHUNK = 48  # texts a future carries: small enough that the two sides meet evenly
MIN_TEXTS = 96  # fewer texts than this are parsed here: a hand-off would cost more than it saves

_ATTRS: Any = None
_proc: "subprocess.Popen[bytes] | None" = None
_broken = False
worker_texts = 0  # texts the worker has parsed in this process's life (tests, benchmarks)
_lock = threading.Lock()


def _attrs() -> Any:
    global _ATTRS
    if _ATTRS is None:
        from spacy.attrs import DEP, ENT_IOB, ENT_TYPE, HEAD, POS, TAG
        _ATTRS = [TAG, POS, HEAD, DEP, ENT_IOB, ENT_TYPE]
    return _ATTRS


def pack(doc: Any) -> tuple[list[str], list[bool], Any, list[str]]:
    """A parsed doc as plain data (its label hashes are the model's, the same on both sides)."""
    return ([t.text for t in doc], [bool(t.whitespace_) for t in doc], doc.to_array(_attrs()),
            [str(t.morph) for t in doc])


def unpack(vocab: Any, packed: tuple[list[str], list[bool], Any, list[str]]) -> Any:
    """The ``Doc`` :func:`pack` described, on ``vocab``."""
    from spacy.tokens import Doc
    words, spaces, array, morphs = packed
    doc = Doc(vocab, words=words, spaces=spaces)
    if words:
        doc.from_array(_attrs(), array)
        for token, morph in zip(doc, morphs):
            if morph:
                token.set_morph(morph)  # type: ignore[attr-defined]  # spaCy 3's Token has it; its stub does not
    return doc


def _serve(stdin: Any, stdout: Any) -> None:
    """The worker's loop: a pickled list of texts in, their packed parses out, until end of input."""
    from .rules import RuleExtractor
    nlp = RuleExtractor().nlp("en")
    while True:
        texts = _read(stdin)
        if texts is None:
            return
        _write(stdout, [pack(d) for d in matmul.pipe(nlp, texts, batch_size=len(texts) or 1)])


def _write(stream: Any, obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def _read(stream: Any) -> Any:
    head = stream.read(8)
    if len(head) < 8:
        return None
    (size,) = struct.unpack("<Q", head)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the parse worker's stream ended")
    return pickle.loads(data)  # noqa: S301 - our own child process, over its own pipes


def enabled() -> bool:
    """Whether a bulk parse uses the worker. ``GRAPHMEM_PARSE_WORKERS``: ``0`` never, ``1`` always,
    unset (``auto``) when a core is free: more than one core, and the last minute's load average
    at most their number. Not one below it: the load counts this process too (an import in
    progress keeps it near one by itself), and that rule turned the worker off after the first
    conversation of every import on an idle machine. On a saturated machine a second process only
    shares the same CPU and adds its hand-off (measured: no wall gain at load 6-10 on 2 cores)."""
    from ..core.config import env_config
    mode = env_config().parse_workers
    if _broken or mode == "0":
        return False
    if mode == "1":
        return True
    cpus = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (OSError, AttributeError):
        load = 0.0
    return cpus > 1 and load <= cpus


def _worker() -> subprocess.Popen[bytes]:
    global _proc
    if _proc is None or _proc.poll() is not None:
        # A plain child process (not multiprocessing): nothing of the caller's __main__ is re-run.
        _proc = subprocess.Popen([sys.executable, "-m", "graphmem.extract.parse_pool"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, close_fds=True)
        atexit.register(shutdown)
    return _proc


def worker_cpu_seconds() -> float:
    """CPU seconds the worker has used so far (0 when none runs, or off Linux): for benchmarks."""
    proc = _proc
    if proc is None:
        return 0.0
    try:
        fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def shutdown() -> None:
    """Stop the worker (at exit, or for a test): it ends at the end of its input."""
    global _proc
    _cancel_pending()
    with _lock:
        proc, _proc = _proc, None
    if proc is not None:
        try:
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait(timeout=10)
        except Exception:  # noqa: BLE001
            proc.kill()
            proc.wait()


class _Job:
    """One bulk parse: its texts in chunks, the worker taking chunks from the front (a feeder
    thread talks to it) while the caller takes them from the back, until they meet."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.chunks = [texts[i:i + CHUNK] for i in range(0, len(texts), CHUNK)]
        self.packed: dict[int, list[Any]] = {}
        self.bounds = [0, len(self.chunks)]
        self.state = threading.Lock()
        self.feeder = threading.Thread(target=self._feed, name="graphmem-parse-feed", daemon=True)
        self.feeder.start()

    def _take(self, front: bool) -> int | None:
        with self.state:
            if self.bounds[0] >= self.bounds[1]:
                return None
            if front:
                self.bounds[0] += 1
                return self.bounds[0] - 1
            self.bounds[1] -= 1
            return self.bounds[1]

    def _feed(self) -> None:
        global _broken, worker_texts
        with _lock:  # one bulk parse at a time talks to the worker
            try:
                proc = _worker()
            except OSError:
                _broken = True
                return
            while (i := self._take(True)) is not None:
                try:
                    _write(proc.stdin, self.chunks[i])
                    self.packed[i] = _read(proc.stdout)
                    if self.packed[i] is None:
                        raise EOFError("the parse worker ended")
                    worker_texts += len(self.chunks[i])
                except Exception:  # noqa: BLE001 - the worker died: the caller parses what it owed
                    _broken = True
                    self.packed.pop(i, None)
                    return

    def finish(self, nlp: Any, here: Callable[[list[str]], list[Any]]) -> list[Any]:
        """Parse from the back until the two sides meet; the docs of every text, in order."""
        done: dict[int, list[Any]] = {}
        while (i := self._take(False)) is not None:
            done[i] = here(self.chunks[i])
        self.feeder.join()
        for i in range(len(self.chunks)):
            if i not in done:
                done[i] = [unpack(nlp.vocab, p) for p in self.packed[i]] if i in self.packed else here(self.chunks[i])
        return [d for i in range(len(self.chunks)) for d in done[i]]

    def cancel(self) -> None:
        """Take nothing more (the chunk the worker has in hand is waited for)."""
        with self.state:
            self.bounds[1] = self.bounds[0]
        self.feeder.join()


_pending: _Job | None = None  # a parse started ahead (parse_ahead), not yet asked for


def _claim(texts: list[str]) -> _Job | None:
    """The parse started ahead for exactly these texts, or None (one for other texts is cancelled)."""
    global _pending
    job, _pending = _pending, None
    if job is not None and job.texts != texts:
        job.cancel()
        return None
    return job


def _cancel_pending() -> None:
    """Cancel a parse started ahead and never asked for (the next one, or shutdown, replaces it)."""
    global _pending
    job, _pending = _pending, None
    if job is not None:
        job.cancel()


def parse_ahead(texts: Sequence[str]) -> None:
    """Start the worker on texts a later :func:`parse_many` will be given — the store's bulk path
    hands it the next batch's texts, so the worker parses them while this process runs the rules
    of the batch before (it would otherwise wait idle through them). The parses are kept for
    :func:`parse_many` with the same texts; any other call cancels them. Only for many texts
    with the worker enabled, like :func:`parse_many`."""
    global _pending
    texts = list(texts)
    _cancel_pending()
    if len(texts) >= MIN_TEXTS and enabled():
        _pending = _Job(texts)


def parse_many(nlp: Any, texts: Sequence[str], local: Callable[[list[str]], list[Any]] | None = None) -> list[Any]:
    """Docs for ``texts`` in order: parsed by ``nlp`` here, and by the worker when there are many
    (continuing what :func:`parse_ahead` started for them, if it did)."""
    texts = list(texts)
    here = local or (lambda chunk: matmul.pipe(nlp, chunk, batch_size=256))
    job = _claim(texts)
    if job is None:
        if len(texts) < MIN_TEXTS or not enabled():
            return here(texts)
        job = _Job(texts)
    return job.finish(nlp, here)


if __name__ == "__main__":
    _out, sys.stdout = sys.stdout.buffer, sys.stderr  # nothing printed may corrupt the replies
    _serve(sys.stdin.buffer, _out)
