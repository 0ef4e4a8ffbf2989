"""Which client method each tool of ``graphmem mcp`` mirrors, and how its arguments differ from the
method's keywords: the contract tests/unit/test_cli_mirror.py checks (as graphmem.interfaces.cli.mirror
is the command line's) and docs/mcp.md describes.

A tool's arguments are its method's parameters, by the same names, except where a difference is
listed here with its reason. Most differences are the server's principals (docs/mcp.md, "Who
speaks"): the tenant, the user and the agent are fixed when the server starts, so no tool lets the
model name a speaker, an author, an actor or a record time.
"""

from __future__ import annotations

# Tool → the method it wraps ("Owner.name"); a tool named like its method is listed too.
TOOLS = {
    "remember": "GraphMem.ingest", "remember_messages": "GraphMem.add", "set_fact": "GraphMem.set",
    "revoke": "GraphMem.revoke", "as_of": "GraphMem.as_of", "why": "GraphMem.why", "history": "GraphMem.history",
    "episodes": "GraphMem.episodes", "context": "GraphMem.context", "forget": "GraphMem.request_erase",
    "search": "GraphMem.search", "facts": "GraphMem.facts", "candidates": "GraphMem.candidates",
    "working_add": "WorkingMemory.add", "working_items": "WorkingMemory.items", "working_use": "WorkingMemory.use",
    "working_checkpoint": "WorkingMemory.checkpoint", "working_resume": "WorkingMemory.resume",
    "working_close": "WorkingMemory.close",
}

# Keywords no tool takes, whatever the method: the server's principals and clock decide them.
PRINCIPALS = {
    "actor": "the server's --agent signs every write",
    "speaker": "who speaks is the server's (--user or --agent); said_by chooses between them",
    "author": "who speaks is the server's (--user or --agent); said_by chooses between them",
    "role": "who speaks is the server's (--user or --agent); said_by chooses between them",
    "user": "the server's --user",
    "relayed_by": "the server marks the user's words as relayed by its agent",
    "drawn_as": "follows said_by: the agent's own words are drawn as inferred",
    "authority": "--trust-agent-writes decides: the agent's own assertions are L2 candidates by default",
    "status": "--trust-agent-writes decides: the agent's own assertions are L2 candidates by default",
    "recorded_at": "the server's clock records: a model never back-dates the ledger",
}

_TUNING = "the recall preset's tuning is the application's choice (docs/configuration.md), not the model's"
_AGENT = "the agent's assertion stays a plain proposal: a person confirms, dates and sources it"

# How a tool's arguments differ from its method's keywords, beyond PRINCIPALS (``-name``: a keyword
# the tool does not take; ``+name``: an argument that is no keyword of the method; ``=name``: an
# argument whose default is not the keyword's).
ARGUMENT_DIFFERENCES: dict[str, dict[str, str]] = {
    "remember": {"-id +message_id": "named for what it identifies; made from the call when absent",
                 "+said_by": "chooses the speaker among the server's principals",
                 "-kind": "a model relays messages", "-reason": "a message needs no reason"},
    "remember_messages": {"-batch_size -embed": "the server's throughput settings, not the model's"},
    "set_fact": {"-object -confidence -evidence -expires_at -ref -session -id -reason": _AGENT},
    "revoke": {"-source -session -id -reason": _AGENT},
    "episodes": {"=limit": "20, not 50: the answer is read into the model's prompt"},
    "context": {"-hops -limit -summary -playbooks -stale_after_days -expiring_within_days -config -gaps": _TUNING},
    "search": {"-config": _TUNING},
    "working_add": {"-id +item_id": "named for what it identifies",
                    "+said_by": "chooses the speaker among the server's principals",
                    "+budget_tokens +strategy +warn_ratio +keep_recent +summary_ratio":
                        "mem.working(session, …)'s budget policy, which the add records"},
    "working_use": {"-ids +item_ids": "a list: a tool's arguments are named, never variadic"},
    "working_checkpoint": {"-id +checkpoint_id": "named for what it identifies"},
}


def differences(tool: str) -> tuple[set[str], set[str], set[str]]:
    """The keywords of ``tool``'s method it leaves out (beyond PRINCIPALS), the arguments it adds,
    and the arguments whose default differs."""
    names = " ".join(ARGUMENT_DIFFERENCES.get(tool, {})).split()

    def marked(mark: str) -> set[str]:
        return {n[1:] for n in names if n[0] == mark}
    return marked("-"), marked("+"), marked("=")
