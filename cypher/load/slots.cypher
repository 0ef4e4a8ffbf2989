// Every assertion of some slots (subject, topic, env), what the temporal rules resolve over, each
// with its live segments: those not over in record time as of $after (the ledger's last record
// time) — current ones (superseded_at IS NULL or later) and ones an expiry has scheduled.
// One row per slot that has facts, its facts collected: the driver unpacks one record per slot
// instead of one per fact and one per segment, and the slot costs one read, not two.
// A segment of a slot always points at one of the slot's own facts, so each fact's few HOLDS
// edges are walked (from the subject entity); starting from the subject would walk every segment
// the subject has, in every topic.
// Times come back as ISO text: the driver unpacks text far faster than temporal values.
WITH datetime($after) AS after
UNWIND $slots AS s
MATCH (f:Fact {tenant: $tenant, subject: s.subject, topic: s.topic, env: s.env})
RETURN s.key AS key, collect({
         uid: f.uid, seq: f.seq, kind: f.kind, value: f.value, is_entity: f.is_entity,
         valid_from: toString(f.valid_from), valid_to: toString(f.valid_to), recorded_at: toString(f.recorded_at),
         authority: f.authority, session: f.session, status: f.status,
         confirmed_at: toString(f.confirmed_at), rejected_at: toString(f.rejected_at),
         retracted_at: toString(f.retracted_at), author: f.author, said_at: toString(f.said_at), quoted: f.quoted,
         source: f.source, ref: f.ref, expires_at: toString(f.expires_at),
         asserted_authority: f.asserted_authority, promoted_at: toString(f.promoted_at),
         withheld_at: toString(f.withheld_at), restored_at: toString(f.restored_at),
         segments: [(f)<-[h:HOLDS]-(e:Entity)
                    WHERE e.uid = s.subject AND h.topic = s.topic AND h.env = s.env
                      AND (h.superseded_at IS NULL OR h.superseded_at > after)
                    | {seg: h.seg, valid_from: toString(h.valid_from), valid_to: toString(h.valid_to),
                       conflict: h.conflict, recorded_at: toString(h.recorded_at),
                       superseded_at: toString(h.superseded_at), expires_at: toString(h.expires_at)}]}) AS facts
