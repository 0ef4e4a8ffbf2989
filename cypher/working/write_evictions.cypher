// Working memory: items that left the session's budget — evicted, or replaced by a summary item.
// The ledger keeps them; they no longer take part in the session's working set.
UNWIND $marks AS m
MATCH (w:WorkingItem {tenant: $tenant, session: m.session, uid: m.uid})
// The item's key, always, by a seek: planned while few items existed, the lookup was a scan of the
// whole (tenant, session) index, every tenant's items, and a plain USING INDEX hint can be met by
// scanning the hinted index (docs/scaling.md, "Many tenants in one database").
USING INDEX SEEK w:WorkingItem(tenant, session, uid)
WHERE w.evicted_at IS NULL
SET w.evicted_at = datetime(m.at), w.evict_reason = m.reason, w.replaced_by = m.replaced_by
