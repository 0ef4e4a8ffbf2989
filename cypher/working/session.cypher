// Working memory: one session's state (policy, latest checkpoint, status), if it exists.
MATCH (w:WorkingSession {tenant: $tenant, session: $session})
RETURN w.session AS session, w.status AS status, w.policy AS policy, w.checkpoint AS checkpoint,
       w.checkpoint_seq AS checkpoint_seq, toString(w.checkpoint_at) AS checkpoint_at, w.checkpoints AS checkpoints,
       toString(w.opened_at) AS opened_at, toString(w.closed_at) AS closed_at, w.outcome AS outcome,
       w.report AS report, w.contexts AS contexts, w.context_tokens AS context_tokens, w.last_seq AS last_seq
