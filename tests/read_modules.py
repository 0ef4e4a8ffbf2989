"""The modules a plain CLI read (``graphmem as-of``) has no use for: the other commands' modules, the
layers above the store, the write path (the events' models and the unit of work: a read parses no
event), pydantic-settings' sources (graphmem.core.config is a plain model), the NLP stack, numpy, rich (typer's help only). tests/unit/test_cli_cost.py checks what main() imports
for as-of before it connects, tests/integration/test_cli_read_cost.py what a real call loaded."""

from __future__ import annotations

NOT_FOR_A_READ = ("graphmem.interfaces.cli.writes", "graphmem.interfaces.cli.batches",
                  "graphmem.interfaces.cli.governance", "graphmem.interfaces.cli.recall",
                  "graphmem.interfaces.cli.playbook", "graphmem.interfaces.cli.working",
                  "graphmem.interfaces.cli.bench", "graphmem.interfaces.cli.local", "graphmem.recall",
                  "graphmem.extract", "graphmem.working", "graphmem.playbooks", "graphmem.governance",
                  "graphmem.bench", "graphmem.local", "graphmem.core.events",
                  "graphmem.store.projection.unit_of_work", "pydantic_settings", "dotenv", "rich", "numpy", "pandas",
                  "spacy", "wordllama", "mcp", "neomodel")


def unneeded(loaded: set[str]) -> list[str]:
    """The modules of ``loaded`` that are, or are inside, one of NOT_FOR_A_READ."""
    return sorted(m for m in loaded if any(m == n or m.startswith(n + ".") for n in NOT_FOR_A_READ))
