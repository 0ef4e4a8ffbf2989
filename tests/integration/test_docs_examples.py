"""The python examples of the docs pages run as written, and give what their comments promise.

Each page's ```python blocks run in order in one namespace, with ``mem`` a client on a fresh tenant;
after each block, every line ``<expression>  # <literal>[: words]`` is evaluated again and must
equal the literal. A page listed here whose examples stop running fails the suite."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["docs/playbooks.md"]
PROMISE = re.compile(r"^(?P<expr>\S.*?)\s{2,}#\s*(?P<comment>.+)$")


def promises(block: str) -> list[tuple[str, object]]:
    """The (expression, literal) pairs a block's comments promise."""
    out = []
    for line in block.splitlines():
        m = PROMISE.match(line)
        if not m:
            continue
        try:
            ast.parse(m["expr"], mode="eval")
        except SyntaxError:
            continue
        for text in (m["comment"], m["comment"].split(": ", 1)[0]):
            try:
                out.append((m["expr"], ast.literal_eval(text)))
                break
            except (ValueError, SyntaxError):
                continue
    return out


@pytest.mark.parametrize("page", PAGES)
def test_the_pages_examples_run_as_written(page, store):
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / page).read_text(encoding="utf-8"), re.S)
    assert blocks, f"{page} has no python example"
    namespace: dict = {"mem": store}
    checked = 0
    for i, block in enumerate(blocks):
        exec(compile(block, f"{page} (block {i + 1})", "exec"), namespace)  # noqa: S102 - the page's own code
        for expr, want in promises(block):
            assert eval(expr, namespace) == want, f"{page}: {expr}"  # noqa: S307
            checked += 1
    assert checked, f"{page}: no promised value was checked"
