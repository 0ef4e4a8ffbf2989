"""What a fitted context's ``left_out`` must say (docs/recall.md "Budget"): every block left out for
the budget has a true reason — it needed more than was left, or it was ranked after the block that
did, or it is a gap asking about a fact that was passed over."""

from __future__ import annotations

import re
from typing import Any

NEEDS = re.compile(r"budget: needs (\d+) tokens, (-?\d+) were left of \d+$")
AFTER = re.compile(r"budget: ranked after (.+), which did not fit$")
ASKS = re.compile(r"budget: asks about (.+), which did not fit$")


def assert_true_reasons(left_out: list[Any]) -> None:
    """Each reason is one of the three, with its numbers and names consistent."""
    did_not_fit: set[str] = set()
    for x in left_out:
        if not x.reason.startswith("budget:"):
            continue  # working memory's own cap, not the budget's
        if m := NEEDS.match(x.reason):
            need, left = int(m[1]), int(m[2])
            assert need == x.tokens and need > left, x
            did_not_fit.add(x.what)
        elif m := AFTER.match(x.reason) or ASKS.match(x.reason):
            assert m[1] in did_not_fit, (x, did_not_fit)
        else:
            raise AssertionError(f"an untrue or unknown reason: {x}")
