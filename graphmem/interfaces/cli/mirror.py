"""Which command mirrors which public client method: the contract tests/unit/test_cli_mirror.py
checks and docs/cli.md lists.

A public method ``name`` of :class:`graphmem.GraphMem` is the command ``name`` with ``_`` written
``-`` (``as_of`` → ``graphmem as-of``); a method of ``mem.playbooks`` is ``graphmem playbook …``
and one of ``mem.working(session)`` is ``graphmem working …``, named the same way. Only the
differences are listed here, each with its reason.
"""

from __future__ import annotations

# Objects whose methods have a group of commands: class name → group.
GROUPS = {"GraphMem": "", "Playbooks": "playbook", "WorkingMemory": "working"}

# Methods whose command has another name (the command line's older or more natural one).
RENAMED = {
    "GraphMem.install_schema": "schema",
    "GraphMem.ensure_schema": "schema",          # installs when the marker is missing; schema always may (idempotent)
    "GraphMem.apply_many": "apply",              # apply takes a file of one or many events
    "GraphMem.apply_bulk": "import",             # with a progress bar; also reads temporal-KG files
    "GraphMem.events_page": "events",            # events --after N --limit M (events-page is a hidden alias)
    "GraphMem.user_page": "user show",
    "GraphMem.apply_user_page": "user apply",
    "GraphMem.working_sessions": "working list",
    "GraphMem.playbooks": "playbook",            # the group of mem.playbooks' methods
}

# Public members with no command, and why (the whole list: keep it small).
NOT_COMMANDS = {
    "GraphMem.close": "each command opens and closes its own client",
    "GraphMem.for_tenant": "a command is bound to one tenant: give --tenant",
    "GraphMem.bookmark_manager": "a process-local object; each command is its own process",
    "GraphMem.embedder": "a property: choose the embedder with GRAPHMEM_EMBEDDER",
    "GraphMem.warm_plans": "plans live on the server: a long-lived client warms them when it connects",
}


def command_for(owner: str, method: str) -> str | None:
    """The command (words after ``graphmem``) that mirrors ``owner.method``; None if it has none."""
    key = f"{owner}.{method}"
    if key in NOT_COMMANDS:
        return None
    if key in RENAMED:
        return RENAMED[key]
    return " ".join(w for w in (GROUPS[owner], method.replace("_", "-")) if w)
