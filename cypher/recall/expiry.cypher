// recall/expiry: when the facts behind the answers a context's gap leg judges expire, by uid, in one
// round trip for every slot the task asks about (graphmem.recall.gaps). The answers (as_of_many) do
// not carry it; reading each held slot's every assertion for it cost a round trip a slot, growing
// with the slot's history — 65 ms a question at 20,000 turns (docs/scaling.md).
// Browser:  :param tenant => 'demo'
//           :param uids => ['f-1']
UNWIND $uids AS uid
MATCH (f:Fact {tenant: $tenant, uid: uid})
RETURN f.uid AS uid, f.expires_at AS expires_at
