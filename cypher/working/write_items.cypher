// Working memory (graphmem.working.working): the items a session added — turns, tool results, decisions,
// hypotheses, instructions, todos, summaries — written by the ledger event that added them.
// Times arrive as ISO 8601 text.
UNWIND $items AS i
MERGE (w:WorkingItem {tenant: $tenant, session: i.session, uid: i.uid})
SET w.type = i.type, w.role = i.role, w.author = i.author, w.text = i.text, w.importance = i.importance,
    w.tokens = i.tokens, w.seq = i.seq, w.created_at = datetime(i.at), w.last_used_at = datetime(i.at),
    w.cites = i.cites, w.covers = i.covers, w.claim = i.claim, w.temporary = i.temporary, w.source = i.source,
    w.evicted_at = null, w.evict_reason = null, w.replaced_by = null,
    w.relayed_by = i.relayed_by
