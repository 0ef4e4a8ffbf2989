// Working memory: every item of one session (evicted ones too, marked), in the order they were added.
MATCH (w:WorkingItem {tenant: $tenant, session: $session})
RETURN w.uid AS id, w.session AS session, w.type AS type, w.role AS role, w.author AS author, w.text AS text,
       w.importance AS importance, w.tokens AS tokens, w.seq AS seq, toString(w.created_at) AS created_at,
       toString(w.last_used_at) AS last_used_at, w.cites AS cites, w.covers AS covers, w.claim AS claim,
       w.temporary AS temporary, w.source AS source, toString(w.evicted_at) AS evicted_at,
       w.evict_reason AS evict_reason, w.replaced_by AS replaced_by,
       w.relayed_by AS relayed_by
ORDER BY w.seq, w.uid
