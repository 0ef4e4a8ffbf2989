"""The Browser guide is written from its template with graphmem's own queries in it."""

from __future__ import annotations

import html

from graphmem.local import browser_guide
from graphmem.store import queries


def test_every_marker_becomes_the_named_query():
    template = (queries.cypher_dir() / "browser" / "guide.html").read_text(encoding="utf-8")
    names = browser_guide.MARKER.findall(template)
    assert {"as_of", "history", "browser/why_chain"} <= set(names)
    guide = browser_guide.render()
    assert "{{" not in guide
    for name in names:
        body = [line.rstrip() for line in queries.get(name).text.splitlines()
                if line.strip() and not line.lstrip().startswith("//")]
        assert html.escape("\n".join(body), quote=False) in guide, name


def test_the_guide_is_written_owner_only(tmp_path):
    path = browser_guide.write(tmp_path / "guides")
    assert path.name == browser_guide.GUIDE_NAME and path.read_text(encoding="utf-8") == browser_guide.render()
    assert (path.parent.stat().st_mode & 0o777) == 0o700 and (path.stat().st_mode & 0o777) == 0o600
