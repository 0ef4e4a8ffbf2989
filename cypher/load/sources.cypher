// Some sources by id (a set's author and time come from its source).
UNWIND $uids AS uid
MATCH (s:Source {tenant: $tenant, uid: uid})
RETURN s.uid AS uid, s.kind AS kind, s.at AS at, s.text AS text, s.author AS author, s.expires_at AS expires_at,
       s.relayed_by AS relayed_by
