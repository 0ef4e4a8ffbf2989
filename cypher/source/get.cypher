// One source by id.
MATCH (s:Source {tenant: $tenant, uid: $uid})
RETURN s.uid AS uid, s.kind AS kind, s.at AS at, s.text AS text, s.author AS author
