"""The Neo4j Browser guide (``:play http://127.0.0.1:7476/graphmem.html``), written from its template.

``cypher/browser/guide.html`` is a Browser guide (slides with runnable blocks) whose ``{{name}}``
markers stand for named queries; :func:`render` puts each query's text in its place, comments
left out, so the guide shows exactly what graphmem sends. ``graphmem server start`` writes the
result under ``GRAPHMEM_HOME`` and the local server serves it on the Browser's HTTP port + 2, on
loopback, with the CORS header the Browser needs to fetch a guide (docs/browser.md).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from ..store import queries

__all__ = ["GUIDE_NAME", "guide_port", "render", "write"]

GUIDE_NAME = "graphmem.html"
MARKER = re.compile(r"\{\{([\w/]+)\}\}")


def guide_port(http_port: int) -> int:
    """Where the guide is served: the Browser's HTTP port + 2 (7476 beside 7474)."""
    return http_port + 2


def render() -> str:
    """The guide's HTML, every ``{{name}}`` replaced by that query's text (HTML-escaped)."""
    template = (queries.cypher_dir() / "browser" / "guide.html").read_text(encoding="utf-8")

    def query(m: re.Match[str]) -> str:
        text = queries.get(m.group(1)).text
        lines = [line.rstrip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("//")]
        return html.escape("\n".join(lines), quote=False)

    return MARKER.sub(query, template)


def write(folder: Path) -> Path:
    """Write the guide into ``folder`` (created, owner-only); returns the file."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = folder / GUIDE_NAME
    path.write_text(render(), encoding="utf-8")
    path.chmod(0o600)  # like everything under GRAPHMEM_HOME: owner-only (the launcher serves it)
    return path
