// Working memory under erase: the ledger events to redact, by their seq.
UNWIND $seqs AS seq
MATCH (v:Event {tenant: $tenant, seq: seq})
RETURN v.seq AS seq, v.op AS op, v.payload AS payload, v.facts AS facts
