// admin/await_index: wait (up to $seconds) until an index graphmem.store.upgrade recreated is populated and
// online, so the first recall after an upgrade searches all of the store. Database-wide.
// Browser:  :param name => 'memory_text'
//           :param seconds => 300
CALL db.awaitIndex($name, $seconds)
