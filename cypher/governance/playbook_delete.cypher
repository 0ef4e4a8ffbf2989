// Erase playbook records (graphmem.playbooks.forget): the outcomes and cards an erase reaches go,
// with their relationships. Nothing of them stays to be shown as advice or drafted from again.
CALL () {
  UNWIND $cards AS uid
  MATCH (c:ExperienceCard {tenant: $tenant, uid: uid})
  DETACH DELETE c
  RETURN count(*) AS n
}
CALL () {
  UNWIND $outcomes AS uid
  MATCH (o:Outcome {tenant: $tenant, uid: uid})
  DETACH DELETE o
  RETURN count(*) AS m
}
RETURN n AS cards, m AS outcomes
