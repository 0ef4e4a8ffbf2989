// Mark stale, in the same transaction as the events, every summary built from a slot those events
// touched: the subject's whole-page summary ('*') and the summary of that topic. A stale summary
// is rebuilt (or refused) before it can answer.
UNWIND $slots AS slot
MATCH (m:Summary {tenant: $tenant, subject: slot.subject})
WHERE m.topic IN ['*', slot.topic] AND NOT m.stale
SET m.stale = true, m.stale_seq = $seq
