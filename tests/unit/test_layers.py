"""Layers as folders (issue #16): each module lives in a layer package, and layers import only what
their ``__init__`` docstring allows. Read from the sources with ``ast``: nothing is imported."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "graphmem"
LAYERS = ['bench', 'core', 'extract', 'governance', 'interfaces', 'local', 'playbooks', 'recall', 'store', 'working']
TOP_LEVEL = ['graphmem', 'graphmem.examples']  # graphmem/__init__.py and the shipped examples
FEATURES = {"core", "store", "extract", "recall", "working", "playbooks", "governance"}
MAY_IMPORT = {
    "core": {"core"},
    "store": {"core", "store"},
    "extract": {"core", "extract"},
    "recall": FEATURES, "working": FEATURES, "playbooks": FEATURES, "governance": FEATURES,
    "local": {"core", "store", "local"},
    "bench": FEATURES | {"local", "bench"},
    "interfaces": FEATURES | {"local", "bench", "interfaces"},
}
# The store's facade composes the feature layers: the shared API, the public operations defined
# once (surface), the typed faces generated from them, the objects the clients hand out (working
# memory, playbooks), and the clients that run them.
FACADE = {"graphmem.store.api", "graphmem.store.surface", "graphmem.store.faces", "graphmem.store.objects",
          "graphmem.store.client",
          "graphmem.store.aio", "graphmem.store.surface.governance", "graphmem.store.surface.reads",
          "graphmem.store.surface.recall", "graphmem.store.surface.memories"}
# Known crossings of the rule above, as found when the layers were made (issue #16 item 3 removes the
# write path's): a new one fails the test.
KNOWN_CROSSINGS = {
    ('graphmem.store.transcripts', 'graphmem.recall.vectors'),
}


def _modules():
    for f in sorted(ROOT.rglob("*.py")):
        rel = f.relative_to(ROOT.parent).with_suffix("")
        parts = list(rel.parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts = parts[:-1]
        yield ".".join(parts), is_pkg, ast.parse(f.read_text(encoding="utf-8"))


MODULES = list(_modules())
KNOWN_MODULES = {m for m, _, _ in MODULES}


def _imports(name: str, is_pkg: bool, tree: ast.Module):
    """(imported module, imported name or None) for every graphmem import in a module."""
    pkg = name.split(".") if is_pkg else name.split(".")[:-1]
    known = KNOWN_MODULES
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("graphmem."):
                    yield a.name, None
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(pkg[: len(pkg) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if not base.startswith("graphmem"):
                continue
            for a in node.names:
                sub = f"{base}.{a.name}"
                yield (sub, None) if sub in known else (base, a.name)


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def test_every_module_lives_in_a_layer():
    loose = [m for m, _, _ in MODULES if _layer(m) is None and m not in TOP_LEVEL]
    assert loose == [], f"modules outside the layer folders: {loose}"


def test_layers_import_only_what_they_may():
    crossings = set()
    for name, is_pkg, tree in MODULES:
        layer = _layer(name)
        if layer is None or name in FACADE:
            continue
        for target, _ in _imports(name, is_pkg, tree):
            other = _layer(target)
            if other is not None and other not in MAY_IMPORT[layer]:
                crossings.add((name, target))
    new = sorted(crossings - KNOWN_CROSSINGS)
    assert new == [], f"imports across layers the layer may not make: {new}"


def test_core_imports_no_other_layer():
    for name, is_pkg, tree in MODULES:
        if _layer(name) == "core":
            others = [t for t, _ in _imports(name, is_pkg, tree) if _layer(t) not in ("core", None)]
            assert others == [], f"{name} imports {others}"


def test_no_new_private_imports_across_modules():
    found = set()
    for name, is_pkg, tree in MODULES:
        for target, imported in _imports(name, is_pkg, tree):
            if imported and imported.startswith("_") and not imported.startswith("__") and target != name:
                found.add((name, f"{target}.{imported}"))
    assert sorted(found) == [], f"imports of another module's private names: {sorted(found)}"
