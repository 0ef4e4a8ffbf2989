"""What ``graphmem bench`` asks of the store: the temporal-KG facts it loads (and their replicas),
the plain-Python ground truth it checks answers against, and the random questions, three-hop
chains and conversation turns it draws from them. No timing here (graphmem.bench.kg_phases
measures); kept apart so the workload can be read on its own and drawn in the same order from
the same seed."""

from __future__ import annotations

import random
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, Iterator

from ..core.errors import ConfigurationError
from ..store.client import GraphMem
from .temporal_kg import KGFact, find_files, load, year_start

__all__ = ["KGData", "Questions", "chunks", "data_files", "default_files", "load_messages", "three_hop_chains"]

SPEAKERS = ("ana", "bo", "chen", "dara")
Question = tuple[str, str, datetime]


def default_files() -> list[Path]:
    """The files under ``GRAPHMEM_TEMPORAL_KG``; without it, a ConfigurationError saying where to get them."""
    from ..core.config import env_config
    folder = env_config().temporal_kg
    if not folder:
        raise ConfigurationError(
            "no temporal-KG data: pass --data DIR (or set GRAPHMEM_TEMPORAL_KG) with YAGO11k/WIKIDATA12k from "
            "the data folder of github.com/xiongsiheng/TILP (see docs/data.md), or try the small generated "
            "sample: --data tests/data/temporal-kg")
    return data_files([folder])


def data_files(data: list[Path] | None) -> list[Path]:
    """``--data`` (folders or files) resolved to fact files; nothing given: :func:`default_files`."""
    if not data:
        return default_files()
    try:
        return find_files(data)
    except FileNotFoundError as e:
        raise ConfigurationError(str(e)) from e


class KGData:
    """The facts, their replicas, and the plain-Python ground truth."""

    def __init__(self, files: list[Path]) -> None:
        self.facts: list[KGFact] = []
        self.skipped: dict[str, int] = {}
        for f in files:
            kg = load(f)
            self.facts.extend(kg.facts)
            for k, v in kg.skipped.items():
                self.skipped[k] = self.skipped.get(k, 0) + v
        self.relations = sorted({f.relation for f in self.facts})
        self.index: dict[tuple[str, str], list[KGFact]] = {}

    def restrict(self, facts: list[KGFact]) -> None:
        """Ground truth over exactly the facts that were loaded into the tenant asked."""
        self.index = {}
        for fact in facts:
            self.index.setdefault((fact.subject, fact.relation), []).append(fact)

    def expected(self, subject: str, relation: str, t: datetime) -> set[str]:
        """Ground truth, straight from the text files: objects whose [start, end] year range holds t."""
        return {f.object for f in self.index.get((subject, relation), [])
                if year_start(f.start) <= t < year_start(f.end + 1)}


class Questions:
    """Random as-of questions about the loaded facts: a (subject, relation) pair, and a time inside,
    at the edges of or just outside one of its intervals."""

    def __init__(self, data: KGData, facts: list[KGFact], rng: random.Random) -> None:
        self.data, self.rng = data, rng
        self.keys = sorted({(f.subject, f.relation) for f in facts})

    def __call__(self) -> Question:
        rng = self.rng
        s, r = self.keys[rng.randrange(len(self.keys))]
        group = self.data.index[(s, r)]
        f = group[rng.randrange(len(group))]
        kind = rng.randrange(5)
        year = {0: f.start, 1: f.end, 2: f.end + 1, 3: max(1, f.start - 1)}.get(kind, rng.randint(f.start, f.end))
        t = year_start(min(year, 9998)) if kind in (0, 2) else datetime(min(year, 9998), 7, 1, tzinfo=timezone.utc)
        return s, r, t


def chunks(facts: list[KGFact], n: int, size: int) -> Iterator[tuple[int, list[KGFact]]]:
    """``n`` facts in chunks of about ``size``, replica by replica (replica k = the data again, in
    tenant …-rk). A replica's facts are split evenly (61,039 at 20,000: three of ~20,346), so no
    chunk is a small remainder: in the 1M run of session 13 the fifteen 1,039-fact remainders ran
    at a median 0.19 of raw (a call of one batch overlaps nothing), against 0.49 for the rest."""
    done = 0
    while done < n:
        replica, offset = divmod(done, len(facts))
        left = min(len(facts) - offset, n - done)  # what this replica still has to give
        calls = max(1, round(left / size))
        for i in range(calls):
            take = left // calls + (1 if i < left % calls else 0)
            yield replica, facts[offset:offset + take]
            offset += take
            done += take


def load_messages(mem: GraphMem, facts: list[KGFact], n: int, chunk: int, rng: random.Random,
                  log: Callable[[str], None]) -> float:
    """``n`` conversation turns about the loaded facts, as message events into the first tenant, so
    context() ranks over messages too. Each carries ``drawn: []`` (nothing extracted): this measures
    recall over stored turns at scale, not the extractor (``graphmem bench-extract`` does that).
    Returns the seconds the writes took."""
    start = datetime(2025, 1, 1, tzinfo=timezone.utc)
    seconds = 0.0
    for lo in range(0, n, chunk):
        batch = []
        for i in range(lo, min(n, lo + chunk)):
            f = facts[rng.randrange(len(facts))]
            speaker = SPEAKERS[i % len(SPEAKERS)]
            text = (f"{speaker} said {f.subject.replace('_', ' ')} {f.relation} {f.object.replace('_', ' ')} "
                    f"from {f.start} to {f.end}, if I remember right.")
            batch.append({"op": "message", "id": f"bench-m{i}", "speaker": speaker, "about": f.subject,
                          "session": f"s{i // 200}", "at": (start + timedelta(minutes=i)).isoformat(),
                          "text": text, "drawn": []})
        t0 = time.perf_counter()
        mem.apply_bulk(batch, batch_size=chunk)
        seconds += time.perf_counter() - t0
        log(f"messages {min(n, lo + chunk):,}/{n:,} ({min(n, lo + chunk) / seconds:,.0f}/s)")
    return seconds


def _chain_from(s: str, by_subject: dict[str, list[KGFact]], rng: random.Random,
                fan: int) -> tuple[str, list[str], datetime] | None:
    """The first chain from ``s`` whose three intervals share a year, over at most ``fan`` facts a hop."""
    def sample(xs: list[KGFact]) -> list[KGFact]:
        return xs if len(xs) <= fan else rng.sample(xs, fan)

    for f1 in sample(by_subject[s]):
        for f2 in sample(by_subject.get(f1.object, [])):
            for f3 in sample(by_subject.get(f2.object, [])):
                lo, hi = max(f1.start, f2.start, f3.start), min(f1.end, f2.end, f3.end)
                if lo <= hi:
                    return (s, [f1.relation, f2.relation, f3.relation],
                            datetime(rng.randint(lo, hi), 7, 1, tzinfo=timezone.utc))
    return None


def three_hop_chains(facts: list[KGFact], rng: random.Random, n: int) -> list[tuple[str, list[str], datetime]]:
    """Chains s -r1-> a -r2-> b -r3-> c whose three intervals share a year, found in the data.

    The search looks at a bounded sample of each hop's facts: hub entities (countries, clubs)
    have thousands, and an exhaustive walk is cubic in them.
    """
    by_subject: dict[str, list[KGFact]] = {}
    for f in facts:
        by_subject.setdefault(f.subject, []).append(f)
    chains: list[tuple[str, list[str], datetime]] = []
    starts = list(by_subject)
    rng.shuffle(starts)
    for s in starts:
        found = _chain_from(s, by_subject, rng, fan=12)
        if found:
            chains.append(found)
            if len(chains) >= n:
                return chains
    distinct = len(chains)
    while chains and len(chains) < n:  # fewer distinct chains than asked: repeat them
        chains.append(chains[len(chains) % distinct])
    return chains
