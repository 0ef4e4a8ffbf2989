// graphmem schema: uniqueness constraints (each also an index) and the indexes the hot paths use.
// Idempotent; run by `graphmem schema install`, by the client on first connect, or paste it into
// Neo4j Browser (one statement at a time, or with the multi-statement editor).
CREATE CONSTRAINT entity_key IF NOT EXISTS FOR (e:Entity) REQUIRE (e.tenant, e.uid) IS UNIQUE;
CREATE CONSTRAINT topic_key IF NOT EXISTS FOR (t:Topic) REQUIRE (t.tenant, t.name) IS UNIQUE;
CREATE CONSTRAINT source_key IF NOT EXISTS FOR (s:Source) REQUIRE (s.tenant, s.uid) IS UNIQUE;
CREATE CONSTRAINT fact_key IF NOT EXISTS FOR (f:Fact) REQUIRE (f.tenant, f.uid) IS UNIQUE;
CREATE CONSTRAINT event_key IF NOT EXISTS FOR (v:Event) REQUIRE (v.tenant, v.seq) IS UNIQUE;
CREATE CONSTRAINT ledger_head_key IF NOT EXISTS FOR (h:LedgerHead) REQUIRE h.tenant IS UNIQUE;
CREATE INDEX fact_slot IF NOT EXISTS FOR (f:Fact) ON (f.tenant, f.subject, f.topic, f.env);
CREATE INDEX fact_ref IF NOT EXISTS FOR (f:Fact) ON (f.tenant, f.ref);
CREATE INDEX fact_subject IF NOT EXISTS FOR (f:Fact) ON (f.tenant, f.subject);
CREATE INDEX event_idempotency IF NOT EXISTS FOR (v:Event) ON (v.tenant, v.event_id);
CREATE INDEX event_recorded IF NOT EXISTS FOR (v:Event) ON (v.tenant, v.recorded_at);
CREATE INDEX holds_slot IF NOT EXISTS FOR ()-[h:HOLDS]-() ON (h.topic, h.env);
CREATE INDEX related_slot IF NOT EXISTS FOR ()-[r:RELATED]-() ON (r.topic, r.env);
CREATE CONSTRAINT outcome_key IF NOT EXISTS FOR (o:Outcome) REQUIRE (o.tenant, o.uid) IS UNIQUE;
CREATE CONSTRAINT card_key IF NOT EXISTS FOR (c:ExperienceCard) REQUIRE (c.tenant, c.uid) IS UNIQUE;
CREATE CONSTRAINT workflow_key IF NOT EXISTS FOR (w:Workflow) REQUIRE (w.tenant, w.name) IS UNIQUE;
CREATE CONSTRAINT workflow_version_key IF NOT EXISTS FOR (v:WorkflowVersion) REQUIRE (v.tenant, v.uid) IS UNIQUE;
CREATE INDEX outcome_task IF NOT EXISTS FOR (o:Outcome) ON (o.tenant, o.task);
CREATE INDEX card_signature IF NOT EXISTS FOR (c:ExperienceCard) ON (c.tenant, c.signature);
CREATE INDEX approval_at IF NOT EXISTS FOR (a:Approval) ON (a.tenant, a.at);
CREATE INDEX fact_expiry IF NOT EXISTS FOR (f:Fact) ON (f.tenant, f.expires_at);
// Recall (graphmem.recall.recall): one full-text index over what a task may name — fact values, topics,
// evidence, source text, entity ids and names. `tenant_key` (graphmem.core.tenant_key: one exact token per
// tenant name under every analyzer) is indexed too, so the Lucene query itself is scoped to the tenant (and the
// query re-checks the exact tenant on every hit). `tenant` stays indexed for clients of the version before,
// whose queries name it, while a store is upgraded (graphmem.store.upgrade recreates an index without the key).
CREATE FULLTEXT INDEX memory_text IF NOT EXISTS FOR (n:Fact|Source|Entity) ON EACH [n.tenant, n.tenant_key, n.value, n.topic, n.evidence, n.text, n.uid, n.name];
CREATE INDEX fact_seq IF NOT EXISTS FOR (f:Fact) ON (f.tenant, f.seq);
CREATE INDEX source_seq IF NOT EXISTS FOR (s:Source) ON (s.tenant, s.seq);
CREATE INDEX fact_session IF NOT EXISTS FOR (f:Fact) ON (f.tenant, f.session);
CREATE CONSTRAINT summary_key IF NOT EXISTS FOR (m:Summary) REQUIRE (m.tenant, m.uid) IS UNIQUE;
CREATE INDEX summary_subject IF NOT EXISTS FOR (m:Summary) ON (m.tenant, m.subject);
CREATE CONSTRAINT embedding_state_key IF NOT EXISTS FOR (x:EmbeddingState) REQUIRE x.tenant IS UNIQUE;
// Episodic recall (graphmem.recall.recall, messages as recall items): source text and its author under an
// English analyzer (stemming, stop words) and, for Chinese and Japanese, under the CJK analyzer
// (character bigrams). Both index `tenant_key` so a Lucene query is scoped before it ranks (`tenant` as above).
CREATE FULLTEXT INDEX message_text IF NOT EXISTS FOR (s:Source) ON EACH [s.tenant, s.tenant_key, s.text, s.author] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX message_text_cjk IF NOT EXISTS FOR (s:Source) ON EACH [s.tenant, s.tenant_key, s.text] OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk'}};
CREATE INDEX source_session IF NOT EXISTS FOR (s:Source) ON (s.tenant, s.session);
// Working memory (graphmem.working.working): a session's items and state, keyed inside the tenant.
CREATE CONSTRAINT working_session_key IF NOT EXISTS FOR (w:WorkingSession) REQUIRE (w.tenant, w.session) IS UNIQUE;
CREATE CONSTRAINT working_item_key IF NOT EXISTS FOR (w:WorkingItem) REQUIRE (w.tenant, w.session, w.uid) IS UNIQUE;
CREATE INDEX working_item_author IF NOT EXISTS FOR (w:WorkingItem) ON (w.tenant, w.author);
CREATE INDEX working_item_session IF NOT EXISTS FOR (w:WorkingItem) ON (w.tenant, w.session);
CREATE INDEX outcome_at IF NOT EXISTS FOR (o:Outcome) ON (o.tenant, o.at);
// Episodes (what a person did, and when): one per (tenant, uid); read by person and by time.
CREATE CONSTRAINT episode_key IF NOT EXISTS FOR (ep:Episode) REQUIRE (ep.tenant, ep.uid) IS UNIQUE;
CREATE INDEX episode_who IF NOT EXISTS FOR (ep:Episode) ON (ep.tenant, ep.who);
CREATE INDEX episode_start IF NOT EXISTS FOR (ep:Episode) ON (ep.tenant, ep.start);
