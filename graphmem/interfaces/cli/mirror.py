"""Which command mirrors which public client method, and which option which keyword: the contract
tests/unit/test_cli_mirror.py checks and docs/cli.md lists.

A public method ``name`` of :class:`graphmem.GraphMem` is the command ``name`` with ``_`` written
``-`` (``as_of`` → ``graphmem as-of``); a method of ``mem.playbooks`` is ``graphmem playbook …``
and one of ``mem.working(session)`` is ``graphmem working …``, named the same way. A command's
arguments and options are the method's parameters, by the same names (``valid_at`` →
``--valid-at``). Only the differences are listed here, each with its reason.
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


# Options of every command that are no keyword of the method: the connection, and how to print.
CONNECTION = {"tenant": "the client's tenant (GraphMem(tenant=…))", "uri": "the connection's settings",
              "database": "the connection's settings", "as_json": "how the command prints"}
# The client's own keyword a command may give whether or not its method takes it (a method that
# takes it needs the option): ``--actor`` is GraphMem(actor=…), who signs what the command writes.
CLIENT_OPTIONS = {"actor": "GraphMem(actor=…): who signs the command's writes"}
# Parameters of the object a group's methods belong to: ``graphmem working add SESSION …`` is
# ``mem.working(session).add(…)``.
OWNER_PARAMETERS = {"WorkingMemory": ("session",)}
# Methods that hand ``**kw`` on to another one: their keywords are that one's, but for those listed.
# None today: WorkingMemory.context declares GraphMem.context's keywords (issue #46).
FORWARDS: dict[str, tuple[str, tuple[str, ...]]] = {}

_FILE = "FILE holds them (a JSON array or JSON lines; '-' reads stdin): a command line takes no objects"
_PAGE = "with --limit the command is mem.events_page, one page; without it mem.events, whose page size is invisible"

# How a command's parameters differ from its method's, by method: a key names the parameters
# (``-name``: a keyword with no option; ``+name``: an option that is no keyword), the value says why.
OPTION_DIFFERENCES: dict[str, dict[str, str]] = {
    "GraphMem.apply": {"-event +file": _FILE},
    "GraphMem.apply_many": {"-events +file": _FILE},
    "GraphMem.apply_bulk": {"-events +files": _FILE + "; several files, or a temporal-KG folder",
                            "-progress": "a callback: the command draws a progress bar with it",
                            "+kind": "--format: import reads events or temporal-KG files"},
    "GraphMem.ingest_bulk": {"-messages +file": _FILE, "-progress": "a callback: the command prints at the end"},
    "GraphMem.add": {"-messages +file": _FILE},
    "GraphMem.apply_user_page": {"-text +file": "FILE is the edited page ('-' reads stdin)"},
    "GraphMem.events": {"-batch +limit": _PAGE},
    "GraphMem.drop_tenant": {"+yes": "--yes: the command refuses to delete a tenant without it"},
    "GraphMem.erase": {"+confirm +cancel +show": "erase also confirms, cancels or shows an erase request "
                                                 "(the older spelling of confirm-erase, cancel-erase, erase-request)"},
    "GraphMem.round_trip": {"+runs": "the command times several round trips"},
    "GraphMem.user_page": {"+out": "--out writes the page to a file"},
    "WorkingMemory.add": {"+budget_tokens +strategy +warn_ratio +keep_recent +summary_ratio":
                          "mem.working(session, …)'s budget policy, which the add records"},
    "WorkingMemory.close": {"+given": "the outcome may come as an argument (working close s1 success)"},
}


def differences(method: str) -> tuple[set[str], set[str]]:
    """The keywords of ``method`` ("Owner.name") its command leaves out, and the options it adds."""
    names = " ".join(OPTION_DIFFERENCES.get(method, {})).split()
    return {n[1:] for n in names if n[0] == "-"}, {n[1:] for n in names if n[0] == "+"}


def command_for(owner: str, method: str) -> str | None:
    """The command (words after ``graphmem``) that mirrors ``owner.method``; None if it has none."""
    key = f"{owner}.{method}"
    if key in NOT_COMMANDS:
        return None
    if key in RENAMED:
        return RENAMED[key]
    return " ".join(w for w in (GROUPS[owner], method.replace("_", "-")) if w)
