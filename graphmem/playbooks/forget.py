"""What an erase does to playbooks (called inside the erase's transaction by
graphmem.governance.governance, beside working memory's ``erase_targets``).

An erase of a subject reaches, besides its facts and sources:

* every task **outcome** that names the subject as a word (its task, area, steps or errors —
  "lin" in "send lin's parcel", not in "linen"; see working_store's ``_names``) or that the end
  gate recorded for a working session the erase touches (the outcome of session S is
  ``o-wm-<sha256(S)>``);
* every **experience card** drawn from such an outcome (its ``EVIDENCE``) or whose words name the
  subject — whatever its status: a draft, an active card, a rejected or superseded version;
* the ledger's **playbook events** about those cards (draft, activate, reject, rollback…), which
  are redacted with the rest (their detail carries the card's signature).

The outcomes and cards are deleted outright: they are records, not a projection of the ledger, so
nothing would bring them back, and a card drafted from the subject's task must not keep giving
its steps as advice. An erase of one source reaches the outcomes of the working sessions that
source came from (through the same session rule), not cards by their words.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Callable

from ..store.ops import run_query
from ..store.queries import Steps

__all__ = ["erase_playbooks", "outcome_of_session", "playbook_targets"]


def outcome_of_session(session: str) -> str:
    """The uid the end gate gives a working session's outcome (graphmem.working.endgate)."""
    return f"o-wm-{hashlib.sha256(session.encode()).hexdigest()[:24]}"


def _names(subject: str | None) -> Callable[[str], bool]:
    """Whether a text names ``subject`` as a word, any case (the rule of working memory's erase)."""
    if not subject:
        return lambda _text: False
    word = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(subject) + r"(?![A-Za-z0-9_])", re.IGNORECASE)
    return lambda text: bool(word.search(text))


def _sessions(events: list[dict[str, Any]]) -> set[str]:
    """The working sessions of some ledger rows (working events carry their session)."""
    found = set()
    for ev in events:
        try:
            payload = json.loads(ev["payload"]) if ev.get("payload") else {}
        except ValueError:
            continue
        if isinstance(payload, dict) and isinstance(payload.get("session"), str):
            found.add(payload["session"])
    return found


def playbook_targets(tenant: str, subject: str | None, working_events: list[dict[str, Any]]) -> Steps[dict[str, Any]]:
    """The outcomes, cards and playbook ledger rows an erase reaches (see the module docstring):
    ``{"outcomes": [...], "cards": [...], "events": [ledger rows]}``."""
    named = _names(subject)
    by_session = {outcome_of_session(s) for s in _sessions(working_events)}
    rows = yield from run_query("governance/playbook_records", tenant)
    outcomes = {r["uid"] for r in rows if r["kind"] == "outcome"
                and (r["uid"] in by_session or any(named(w) for w in r["words"] if w))}
    cards = {r["uid"] for r in rows if r["kind"] == "card"
             and (set(r["evidence"] or []) & outcomes or any(named(w) for w in r["words"] if w))}
    events = (yield from run_query("governance/playbook_events", tenant, targets=sorted(cards))) if cards else []
    return {"outcomes": sorted(outcomes), "cards": sorted(cards), "events": events}


def erase_playbooks(tenant: str, targets: dict[str, Any]) -> Steps[dict[str, int]]:
    """Delete the outcomes and cards :func:`playbook_targets` found; returns how many of each."""
    if not targets["outcomes"] and not targets["cards"]:
        return {"cards": 0, "outcomes": 0}
    rows = yield from run_query("governance/playbook_delete", tenant, cards=targets["cards"],
                                outcomes=targets["outcomes"])
    return {"cards": int(rows[0]["cards"]), "outcomes": int(rows[0]["outcomes"])} if rows else {"cards": 0, "outcomes": 0}
