// admin/tenant_state: whether a tenant has any events, and which of some topics it has never used —
// what the CLI checks before a read, so that a misspelt --tenant or topic is an error with a hint
// instead of a silent empty answer (graphmem.store.hints). The tenant's topic names are read only
// when one of $topics is unknown (to suggest the closest).
// Browser:  :param tenant => 't-addr'
//           :param topics => ['home_adress']
OPTIONAL MATCH (h:LedgerHead {tenant: $tenant})
WITH coalesce(h.seq, 0) AS head,
     [x IN $topics WHERE NOT EXISTS { MATCH (:Topic {tenant: $tenant, name: x}) }] AS unknown
RETURN head, unknown,
       CASE WHEN size(unknown) = 0 THEN []
            ELSE COLLECT { MATCH (t:Topic {tenant: $tenant}) WHERE t.name IS NOT NULL
                           RETURN t.name ORDER BY t.name LIMIT 5000 } END AS topics
