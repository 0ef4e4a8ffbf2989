// admin/tenants: the names (only the names) of the other tenants with events in this database, for
// the CLI's "no events in tenant 'x'; tenants with events: …" hint. Only the command line, whose
// user holds the database's credentials, asks it; a client bound to a tenant never does
// (graphmem.store.hints).
// Browser:  :param tenant => 'acmee'
//           :param limit => 20
MATCH (h:LedgerHead)
WHERE h.tenant <> $tenant AND h.seq > 0
RETURN h.tenant AS tenant
ORDER BY tenant
LIMIT $limit
