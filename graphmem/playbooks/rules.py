"""The rules of playbooks that need no store (docs/design.md §5, §7): the deterministic drafter of
L3 cards (:func:`draft_from_outcomes`), the static check and the replay a promotion request must
pass, and the content hash an approver approves. Kept apart from the plans so each rule can be
read and tested on plain data.

Validation rules are strings: ``must: <step>``, ``never: <step>``, ``output: <name>``.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CONTENT_KEYS", "CheckReport", "content_hash", "draft_from_outcomes", "parse_rules", "replay",
           "static_check"]

CONTENT_KEYS = ("text", "scenario", "inputs", "outputs", "tool_permissions", "validation_rules")
RULE = re.compile(r"^\s*(must|never|output)\s*:\s*(\S.*?)\s*$", re.IGNORECASE)


def content_hash(fields: dict[str, Any]) -> str:
    """The hash of a version's content: what an approver approves."""
    blob = json.dumps({k: fields.get(k) for k in CONTENT_KEYS}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


@dataclass
class CheckReport:
    """A check's verdict and, when it fails, what is wrong."""

    passed: bool
    problems: list[str] = field(default_factory=list)

    def text(self) -> str:
        return "ok" if self.passed else "; ".join(self.problems)


def parse_rules(rules: list[str]) -> list[tuple[str, str]]:
    """The rules that parse, as (kind, step): kind is must, never or output."""
    out = []
    for r in rules:
        m = RULE.match(r)
        if m:
            out.append((m.group(1).lower(), m.group(2)))
    return out


def static_check(fields: dict[str, Any], evidence: list[dict[str, Any]]) -> CheckReport:
    """Schema and consistency of a promotion request's fields."""
    problems = []
    for name in ("text", "scenario"):
        if not isinstance(fields.get(name), str) or not fields[name].strip():
            problems.append(f"{name} is empty")
    for name in ("inputs", "outputs", "validation_rules"):
        v = fields.get(name)
        if not isinstance(v, list) or not v or not all(isinstance(x, str) and x.strip() for x in v):
            problems.append(f"{name} must be a non-empty list of strings")
    tools = fields.get("tool_permissions")
    if not isinstance(tools, list) or not all(isinstance(x, str) and re.fullmatch(r"[\w.:-]+", x) for x in tools):
        problems.append("tool_permissions must be stated as a list of tool names (it may be empty)")
    rules = fields.get("validation_rules") or []
    parsed = parse_rules(rules)
    if len(parsed) != len(rules):
        bad = [r for r in rules if not RULE.match(r)]
        problems.append(f"validation rules must read 'must: …', 'never: …' or 'output: …': {bad}")
    must = {x for k, x in parsed if k == "must"}
    never = {x for k, x in parsed if k == "never"}
    if must & never:
        problems.append(f"a step cannot be both required and forbidden: {sorted(must & never)}")
    for k, x in parsed:
        if k == "output" and x not in (fields.get("outputs") or []):
            problems.append(f"validation names output {x!r} that the outputs do not list")
    if not evidence:
        problems.append("no evidence: a promotion needs the outcomes the card was drawn from")
    return CheckReport(not problems, problems)


def replay(rules: list[str], evidence: list[dict[str, Any]]) -> CheckReport:
    """Replay the card's recorded examples against the rules: every success must satisfy them."""
    parsed = parse_rules(rules)
    successes = [e for e in evidence if e.get("outcome") == "success"]
    if not successes:
        return CheckReport(False, ["no successful example to replay"])
    problems = []
    for e in successes:
        steps = list(e.get("steps") or [])
        for kind, step in parsed:
            if kind == "must" and step not in steps:
                problems.append(f"example {e.get('uid')}: required step {step!r} missing")
            if kind == "never" and step in steps:
                problems.append(f"example {e.get('uid')}: forbidden step {step!r} taken")
    return CheckReport(not problems, problems)


def draft_from_outcomes(task: str, outcomes: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A card from a task's outcomes, oldest first: needs a failure followed by a success."""
    last_success = max((i for i, o in enumerate(outcomes) if o["outcome"] == "success"), default=None)
    if last_success is None:
        return None
    failures = [o for o in outcomes[:last_success] if o["outcome"] != "success"]
    if not failures:
        return None
    good = list(outcomes[last_success]["steps"])
    avoid: list[str] = []
    for f in failures:
        for s in f["steps"]:
            if s not in good and s not in avoid:
                avoid.append(s)
    errors: list[str] = []
    for f in failures:
        for err in f.get("errors") or []:
            if err not in errors:
                errors.append(err)
    wins = sum(o["outcome"] == "success" for o in outcomes)
    return {"signature": task, "preconditions": [f"seen: {e}" for e in errors],
            "recommended_steps": good, "avoid_steps": avoid,
            "validation": [f"must: {s}" for s in good] + [f"never: {s}" for s in avoid],
            "confidence": round(min(0.9, wins / len(outcomes)), 3),
            "evidence": [o["uid"] for o in outcomes]}
