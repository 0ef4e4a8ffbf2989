// The history behind one (subject, topic) as a graph: each assertion, the ones it SUPERSEDES,
// its source, and the newer sources that QUOTE that source. Switch Browser to the graph view.
// Browser:  :param tenant => 'demo'
//           :param subject => 'lin'
//           :param topic => 'home_address'
MATCH (e:Entity {tenant: $tenant, uid: $subject})-[r:HAS_FACT]->(f:Fact {topic: $topic})
OPTIONAL MATCH p1 = (f)-[:SUPERSEDES]->(:Fact)
OPTIONAL MATCH p2 = (f)-[:FROM]->(s:Source)
OPTIONAL MATCH p3 = (:Source)-[:QUOTES]->(s)
RETURN e, r, f, p1, p2, p3
