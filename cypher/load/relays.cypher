// Which of these sources are words an agent relayed as their author's, and by which agent
// (graphmem.core.relay): only the relayed ones come back. Reads whose query does not reach the
// source (a view resolved in Python, recall's items) ask it once for all their sources.
// Browser:  :param tenant => 't1'
//           :param uids => ['m2']
UNWIND $uids AS uid
MATCH (s:Source {tenant: $tenant, uid: uid})
WHERE s.relayed_by IS NOT NULL
RETURN s.uid AS uid, s.relayed_by AS relayed_by
