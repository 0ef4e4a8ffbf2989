// Working memory: one session's state — its budget policy, latest checkpoint, context reads and
// how it closed — merged from the ledger events of one transaction (graphmem.working.working_store).
UNWIND $sessions AS s
MERGE (w:WorkingSession {tenant: $tenant, session: s.session})
ON CREATE SET w.opened_at = datetime(s.first_at), w.status = 'open', w.checkpoints = 0, w.contexts = 0,
              w.context_tokens = 0, w.context_budget = 0, w.context_dropped = 0, w.added = 0
SET w.policy = coalesce(s.policy, w.policy), w.last_seq = s.last_seq, w.last_at = datetime(s.last_at),
    w.checkpoint = CASE WHEN s.checkpoint_seq IS NULL THEN w.checkpoint ELSE s.checkpoint END,
    w.checkpoint_seq = coalesce(s.checkpoint_seq, w.checkpoint_seq),
    w.checkpoint_at = CASE WHEN s.checkpoint_at IS NULL THEN w.checkpoint_at ELSE datetime(s.checkpoint_at) END,
    w.checkpoints = w.checkpoints + s.checkpoints, w.added = w.added + s.added,
    w.contexts = w.contexts + s.contexts, w.context_tokens = w.context_tokens + s.context_tokens,
    w.context_budget = w.context_budget + s.context_budget, w.context_dropped = w.context_dropped + s.context_dropped,
    w.status = coalesce(s.status, w.status),
    w.closed_at = CASE WHEN s.closed_at IS NULL THEN w.closed_at ELSE datetime(s.closed_at) END,
    w.outcome = coalesce(s.outcome, w.outcome), w.task = coalesce(s.task, w.task),
    w.wrong_memory = coalesce(s.wrong_memory, w.wrong_memory), w.report = coalesce(s.report, w.report)
