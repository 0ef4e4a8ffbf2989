// Working memory: the agent used these items (their last-used time orders eviction among equals).
UNWIND $uses AS u
MATCH (w:WorkingItem {tenant: $tenant, session: u.session, uid: u.uid})
SET w.last_used_at = datetime(u.at)
