"""Checks the people-written extraction sets and prints their counts per language and family.

Usage: python tests/data/extraction/people_check.py [FILE ...]
(default: every people-*.jsonl beside this script). Exits 1 on any defect.
"""
from __future__ import annotations

import collections
import json
import re
import sys
from datetime import date, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROW_KEYS = {"text", "lang", "family", "register", "speaker", "at", "expect"}
OPTIONAL = {"about", "context", "session", "note", "role"}
OPS = {"set": {"subject", "topic", "value"}, "revoke": {"subject", "topic"}, "retract": {"fact"},
       "claim": {"subject", "topic", "value", "at"}}
ITEM_KEYS = {"op", "subject", "topic", "value", "valid_from", "valid_to", "env", "status", "authority", "fact",
             "session", "at"}
DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def check(path: Path) -> tuple[collections.Counter[tuple[str, str]], list[str]]:
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    errors: list[str] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        where = f"{path.name}:{n}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            errors.append(f"{where}: not JSON: {e}")
            continue
        missing, extra = ROW_KEYS - row.keys(), row.keys() - ROW_KEYS - OPTIONAL
        if missing or extra:
            errors.append(f"{where}: missing {sorted(missing)} extra {sorted(extra)}")
        if row.get("lang") not in ("en", "zh"):
            errors.append(f"{where}: lang {row.get('lang')!r}")
        if row.get("role", "user") not in ("user", "assistant", "tool"):
            errors.append(f"{where}: role {row.get('role')!r}")
        datetime.fromisoformat(row["at"].replace("Z", "+00:00"))
        uids = {c["uid"] for c in row.get("context", [])}
        for item in row["expect"]:
            op = item.get("op")
            if op not in OPS or not OPS[op] <= item.keys() or not item.keys() <= ITEM_KEYS:
                errors.append(f"{where}: bad expect item {item}")
            for key in ("valid_from", "valid_to", "at"):
                if key in item and not DAY.match(item[key]):
                    errors.append(f"{where}: {key} {item[key]!r} is not an ISO day")
            if "valid_from" in item and "valid_to" in item and item["valid_to"] <= item["valid_from"]:
                errors.append(f"{where}: valid_to <= valid_from")
            if op == "retract" and item["fact"] not in uids:
                errors.append(f"{where}: retract of unknown fact {item['fact']}")
            if item.get("authority") == "L0" and item.get("session") != row.get("session"):
                errors.append(f"{where}: L0 without the row's session")
        for key in ("valid_from", "valid_to"):
            for c in row.get("context", []):
                if c.get(key) is not None:
                    date.fromisoformat(c[key])
        counts[(row["lang"], row["family"])] += 1
    return counts, errors


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or sorted(HERE.glob("people-*.jsonl"))
    bad = 0
    for path in paths:
        if not path.exists():
            continue
        counts, errors = check(path)
        for e in errors:
            print(e)
        bad += len(errors)
        families = sorted({f for _, f in counts})
        print(f"\n{path.name}: {sum(counts.values())} rows")
        print(f"{'family':<12} {'en':>4} {'zh':>4}")
        for f in families:
            print(f"{f:<12} {counts[('en', f)]:>4} {counts[('zh', f)]:>4}")
        print(f"{'total':<12} {sum(v for (l, _), v in counts.items() if l == 'en'):>4} "
              f"{sum(v for (l, _), v in counts.items() if l == 'zh'):>4}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
