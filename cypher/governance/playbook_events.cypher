// The ledger's playbook transitions (draft, activate, reject, rollback, promotion request…) about
// some cards: an erase redacts them with the cards.
MATCH (v:Event {tenant: $tenant, op: 'playbook'})
WHERE v.seq IS NOT NULL AND any(t IN $targets WHERE v.payload CONTAINS ('"target": "' + t + '"'))
RETURN v.seq AS seq, v.op AS op, v.payload AS payload, v.facts AS facts
