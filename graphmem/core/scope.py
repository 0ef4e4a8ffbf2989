"""Tenant binding: a client is bound to one tenant and can touch nothing else.

Three gates, each raising :class:`~graphmem.core.errors.TenantError` before anything is written:

* :func:`bind_tenant` wraps every public method of the clients (graphmem.store.faces, graphmem.store.api): a
  ``tenant=`` keyword naming another tenant is refused (the bound tenant itself is accepted and
  dropped, so docs/format.md dicts that repeat it still work);
* :func:`check_event_tenant` refuses an event whose ``tenant`` field names another tenant
  (``apply``, ``apply_many``, ``apply_bulk``, ``ingest``…);
* :func:`check_call` is run by both clients on every query before it reaches the driver (reads
  and each query inside a write transaction): a ``$tenant`` parameter other than the bound tenant
  aborts the plan (inside a transaction, which then rolls back). The one other name it lets
  through is the bound tenant's own :func:`shadow_tenant`, the scratch space a rebuild replays
  into and empties again in its transaction (graphmem.store.shadow).

``for_tenant`` stays the one explicit way to get a client for another tenant (a new binding).
"""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, TypeVar

from .errors import TenantError, ValidationError
from .fields import MAX_ID, clean_text

__all__ = ["bind_tenant", "check_call", "check_event_tenant", "check_tenant", "shadow_tenant"]

C = TypeVar("C", bound=type)


def check_tenant(tenant: Any) -> str:
    """A tenant name is checked like an identifier (graphmem.core.fields): a non-blank string of at
    most :data:`MAX_ID` characters, valid UTF-8, no NUL byte. It is kept as given (not stripped), so
    a tenant written before this check reads the same. Why: the name is every query's scope and the
    key of the tenant's ledger head; a lone surrogate failed in the driver as a bare
    ``UnicodeEncodeError``, and a NUL or a 300-character name was taken silently."""
    if not isinstance(tenant, str) or not tenant.strip():
        raise ValidationError("tenant must be a non-empty string")
    try:
        clean_text(tenant, "tenant", MAX_ID)
    except ValueError as e:
        raise ValidationError(f"{e} (a tenant is a non-empty string of at most {MAX_ID} characters)") from e
    return tenant


def _refuse(bound: str, asked: Any, where: str) -> TenantError:
    return TenantError(f"this client is bound to tenant {bound!r}; {where} names tenant {asked!r}. "
                       "Open a client for that tenant instead (GraphMem(tenant=...) or for_tenant(...)).")


def check_event_tenant(bound: str, tenant: Any, where: str = "the event") -> None:
    if tenant is not None and tenant != bound:
        raise _refuse(bound, tenant, where)


def shadow_tenant(tenant: str) -> str:
    """The name a rebuild of ``tenant`` replays the ledger under, inside its own transaction, to
    compare the replay with the projection and write only what differs (graphmem.store.shadow).
    It ends in a NUL, which :func:`check_tenant` refuses, so no real tenant can ever have it; and
    nothing is ever committed under it (the rebuild deletes it before its commit)."""
    return f"{tenant}\x00shadow"


def check_call(bound: str, call: Any) -> None:
    params = getattr(call, "params", None) or {}
    if "tenant" in params and params["tenant"] not in (bound, shadow_tenant(bound)):
        raise _refuse(bound, params["tenant"], f"query {getattr(call, 'name', '?')!r}")


def _guard(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kw: Any) -> Any:
        if "tenant" in kw:
            check_event_tenant(self.tenant, kw.pop("tenant"), f"{method.__name__}(tenant=...)")
        return method(self, *args, **kw)
    return wrapper


def bind_tenant(cls: C) -> C:
    """Wrap every public method defined on ``cls`` with the ``tenant=`` keyword gate."""
    for name, member in list(vars(cls).items()):
        if name.startswith("_") or not inspect.isfunction(member):
            continue
        setattr(cls, name, _guard(member))
    return cls
