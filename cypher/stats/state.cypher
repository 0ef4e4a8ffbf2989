// stats: the tenant's state now — candidates waiting for a person, conflicts that hold now,
// summaries marked stale, working sessions still open.
CALL () {
  MATCH (f:Fact {tenant: $tenant})
  WHERE f.uid IS NOT NULL AND f.status = 'candidate' AND f.confirmed_at IS NULL AND f.rejected_at IS NULL AND f.retracted_at IS NULL
    AND (f.expires_at IS NULL OR f.expires_at > datetime($now))
  RETURN count(f) AS candidates
}
CALL () {
  MATCH (e:Entity {tenant: $tenant})-[h:HOLDS]->(:Fact)
  WHERE e.uid IS NOT NULL AND h.conflict AND h.recorded_at <= datetime($now) AND (h.superseded_at IS NULL OR h.superseded_at > datetime($now))
    AND h.valid_from <= datetime($now) AND (h.valid_to IS NULL OR h.valid_to > datetime($now))
  RETURN count(DISTINCT [e.uid, h.topic, h.env]) AS conflicts
}
CALL () {
  MATCH (m:Summary {tenant: $tenant})
  WHERE m.uid IS NOT NULL AND m.stale = true
  RETURN count(m) AS stale_summaries
}
CALL () {
  MATCH (w:WorkingSession {tenant: $tenant})
  WHERE w.session IS NOT NULL AND w.status = 'open'
  RETURN count(w) AS open_sessions
}
RETURN candidates, conflicts, stale_summaries, open_sessions
