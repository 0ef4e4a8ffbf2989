"""Score an extractor against a labelled set: precision and recall per rule family.

A labelled file is JSON lines, one sentence each (tests/data/extraction/*.jsonl)::

    {"text": "...", "lang": "en", "family": "statement", "register": "chat", "speaker": "lin",
     "at": "2026-09-28T10:00:00Z", "about": null, "session": null,
     "context": [{"uid", "topic", "value", "valid_from", "subject", "valid_to", "env", "seq"}],
     "expect": [{"op": "set", "subject", "topic", "value", ...}, {"op": "revoke", ...},
                {"op": "retract", "fact"}, {"op": "claim", "subject", "topic", "value", "at"}]}

``expect: []`` means the sentence asserts nothing. A drawn event matches an expected one when
op, subject, topic and value agree (values compare as docs/format.md says: case-insensitive, a leading
"the" and trailing punctuation ignored); when the label gives ``valid_from``, ``valid_to``, ``at``,
``env``, ``status``, ``authority`` or ``session``, those must agree too (dates by day; a missing
``status`` means confirmed). Rows with ``"role": "assistant"`` or ``"tool"`` are skipped (and
counted) while the message model has no role to gate on. A quote's claims count as ``claim`` events dated at the quoted source;
the ``source`` and ``quote`` wrappers themselves are not counted.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable

from ..core.models import MessageEvent
from .roles import keep_drawn
from .rules import PriorFact

__all__ = ["score", "load"]

_DATE_KEYS = ("valid_from", "valid_to", "at", "effective")
_PLAIN_KEYS = ("env", "authority", "session")


def _norm(v: Any) -> str:
    s = str(v).strip().rstrip(".,;:!?。，；：！？").strip().lower()
    return re.sub(r"^the\s+", "", s)


def _time(v: str) -> datetime:
    t = datetime.fromisoformat(v.replace("Z", "+00:00"))
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


def load(path: str | Path) -> list[dict[str, Any]]:
    rows = []
    for i, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except ValueError as e:
                raise ValueError(f"{path}:{i}: not JSON: {e}") from e
    return rows


def _drawn(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    sources = {e["id"]: e for e in events if e.get("op") == "source"}
    for e in events:
        if e["op"] == "quote":
            at = sources.get(e["quotes"], {}).get("at")
            out += [{"op": "claim", **c, "at": at} for c in e.get("claims", [])]
        elif e["op"] != "source":
            out.append(e)
    return out


def _matches(got: dict[str, Any], want: dict[str, Any]) -> bool:
    if got.get("op") != want.get("op"):
        return False
    if want["op"] == "retract":
        return got.get("fact") == want.get("fact")
    for k in ("subject", "topic"):
        if got.get(k) != want.get(k):
            return False
    if ("value" in want or "value" in got) and _norm(got.get("value", "")) != _norm(want.get("value", "")):
        return False
    for k in _DATE_KEYS:
        have = got.get(k) or (got.get("effective") if k == "valid_from" and got.get("op") == "revoke" else None)
        if k in want and (have or "")[:10] != want[k][:10]:
            return False
    for k in _PLAIN_KEYS:
        if k in want and got.get(k) != want[k]:
            return False
    if want["op"] == "set" and got.get("status", "confirmed") != want.get("status", "confirmed"):
        return False
    return True


def score(extractor: Any, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per family: expected, drawn, matched, precision, recall; and the sentences that missed."""
    fam: dict[str, dict[str, int]] = defaultdict(lambda: {"sentences": 0, "expected": 0, "drawn": 0, "matched": 0})
    misses: list[dict[str, Any]] = []
    for i, r in enumerate(rows):
        role = r.get("role") or "user"
        # an assistant's or a tool's turn speaks as its role, as mem.add stores a row without a name
        m = MessageEvent(op="message", id=f"L{i}", at=_time(r["at"]),
                         speaker=r.get("speaker", "lin") if role == "user" else role,
                         text=r["text"], about=r.get("about"), session=r.get("session"),
                         drawn_as="stated" if role == "user" else "inferred")
        ctx = [PriorFact(uid=p["uid"], subject=p.get("subject", m.speaker), topic=p["topic"], env=p.get("env"),
                         value=p["value"], valid_from=_time(p["valid_from"]),
                         valid_to=_time(p["valid_to"]) if p.get("valid_to") else None,
                         author=p.get("subject", m.speaker), seq=p.get("seq", 1)) for p in r.get("context", [])]
        got = _drawn(_as_stored(extractor.extract(m, ctx), m))
        want = r["expect"]
        used: set[int] = set()
        matched = 0
        for w in want:
            j = next((j for j, g in enumerate(got) if j not in used and _matches(g, w)), None)
            if j is not None:
                used.add(j)
                matched += 1
        f = fam[r.get("family", "other")]
        f["sentences"] += 1
        f["expected"] += len(want)
        f["drawn"] += len(got)
        f["matched"] += matched
        if matched < len(want) or matched < len(got):
            misses.append({"text": r["text"], "family": r.get("family"), "expected": want,
                           "drawn": [{k: v for k, v in g.items() if k not in ("evidence", "source", "confidence")}
                                     for g in got]})
    total = {"sentences": 0, "expected": 0, "drawn": 0, "matched": 0}
    for f in fam.values():
        for k in total:
            total[k] += f[k]
    out = {name: _ratios(f) for name, f in sorted(fam.items())}
    out["all"] = _ratios(total)
    return {"families": out, "misses": misses}


def _as_stored(drawn: list[dict[str, Any]], m: MessageEvent) -> list[dict[str, Any]]:
    """What the write path keeps of a non-person's message (graphmem.extract.roles.keep_drawn, as
    StoreApi applies it): its events, each ``set`` / ``revoke`` an L2 candidate. A person's pass as drawn."""
    if m.drawn_as == "stated":
        return drawn
    kept = keep_drawn(drawn, m.speaker, m.drawn_as)
    return [{**e, "authority": "L2", "status": "candidate"} if e.get("op") in ("set", "revoke") else e for e in kept]


def _ratios(f: dict[str, int]) -> dict[str, Any]:
    p = f["matched"] / f["drawn"] if f["drawn"] else 1.0
    r = f["matched"] / f["expected"] if f["expected"] else 1.0
    return {**f, "precision": round(p, 3), "recall": round(r, 3)}
