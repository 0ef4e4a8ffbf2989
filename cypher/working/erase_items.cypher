// Working memory under erase (graphmem.working.working_store.erase_targets): the items that may be part of
// what is erased — written by the subject, carrying a claim (the code keeps those whose claim names
// the subject), a tool result whose source is erased, or an item the end gate turned into an erased
// source (`keys`: the session and item ids read back from those sources).
MATCH (w:WorkingItem {tenant: $tenant})
WHERE w.session IS NOT NULL AND w.uid IS NOT NULL
  AND (($subject IS NOT NULL AND (w.author = $subject OR w.claim IS NOT NULL)) OR w.source IN $sources
       OR any(k IN $keys WHERE k.session = w.session AND k.uid = w.uid))
RETURN w.session AS session, w.uid AS uid, w.author AS author, w.claim AS claim, w.source AS source
