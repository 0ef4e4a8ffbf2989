"""The tenant's key inside the full-text indexes: one exact token per tenant name.

The full-text indexes (``memory_text``, ``message_text``, ``message_text_cjk``: cypher/schema.cypher)
analyse every property they cover. A tenant name analysed is not the tenant: "Acme", "acme",
"acme." and "ACME!" fold to the same token, "acmes" stems to it under the English analyzer, and a
name with no word character ("***", ":") has no token at all. A Lucene clause on ``tenant`` then
lets look-alike tenants compete for each other's top-k (content never crossed: every hit is
re-checked against the exact tenant, but a tenant's own item could fall out of its results), or
does not scope at all (issue #45, item 6).

:func:`tenant_key` is what every Fact, Source and Entity carries as ``tenant_key`` and what every
full-text leg requires: ``"tk"`` and decimal digits of the name's SHA-256. Letters then digits, all
lower case, no punctuation: the standard, English (stemming, stop words) and CJK (bigrams)
analyzers each keep it as exactly one token, equal to itself. 80 bits of the digest: two tenant
names sharing a key is not expected in any store (and would only share top-k again, as before —
the exact ``tenant`` re-check still holds).
"""

from __future__ import annotations

import hashlib

__all__ = ["TENANT_KEY_PREFIX", "tenant_key"]

TENANT_KEY_PREFIX = "tk"
_BYTES = 10  # 80 bits of the digest: 24 or 25 decimal digits


def tenant_key(tenant: str) -> str:
    """The tenant's full-text key: ``"tk"`` + the decimal value of the first 80 bits of
    SHA-256(tenant as UTF-8). Deterministic, so a rebuild writes the key the projection had.

    >>> tenant_key("acme") == tenant_key("acme"), tenant_key("acme") == tenant_key("Acme")
    (True, False)
    """
    digest = hashlib.sha256(tenant.encode("utf-8")).digest()
    return f"{TENANT_KEY_PREFIX}{int.from_bytes(digest[:_BYTES], 'big')}"
