// Facts about a subject, or with it as their value, and the sources they came from.
MATCH (f:Fact {tenant: $tenant, subject: $subject})
RETURN f.uid AS uid, f.source AS source
UNION
MATCH (e:Entity {tenant: $tenant, uid: $subject})<-[:VALUE]-(f:Fact)
RETURN f.uid AS uid, f.source AS source
