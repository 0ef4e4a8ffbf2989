"""A real `graphmem as-of` process against Neo4j, checked without a clock: one connection, the
schema marker check and the read (two queries, no connectivity probe), three of the query files
read, and none of the modules a read does not use (tests/read_modules.py). The wall
time is a benchmark: `graphmem bench cli --runs 10 --breakdown` (docs/cli.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.read_modules import unneeded

# The command run in-process, with the driver's Bolt log counted and what was loaded printed at exit.
PROBE = """import atexit, collections, json, logging, sys
sent = collections.Counter()
class Count(logging.Handler):
    def emit(self, record):
        words = record.getMessage().split()
        if len(words) > 2 and words[1] == "C:":
            sent[words[2]] += 1
logging.getLogger("neo4j").addHandler(Count())
logging.getLogger("neo4j").setLevel(logging.DEBUG)
def report():
    from graphmem.store import queries
    print(json.dumps({"sent": sent, "modules": sorted(m for m in sys.modules if sys.modules[m] is not None),
                      "query_files": queries._load.cache_info().currsize,
                      "registry_built": queries._registry.cache_info().currsize}), file=sys.stderr)
atexit.register(report)
from graphmem.interfaces.cli import main
main(sys.argv[1:])
"""


def test_an_as_of_call_runs_two_queries_on_one_connection_and_loads_no_more(store, neo4j_target):
    store.set("deploy", "port", "8080")
    env = dict(os.environ, NEO4J_URI=neo4j_target.settings.uri)
    if neo4j_target.settings.password is not None:
        env["NEO4J_PASSWORD"] = neo4j_target.settings.password.get_secret_value()
    if neo4j_target.settings.database:
        env["NEO4J_DATABASE"] = neo4j_target.settings.database
    proc = subprocess.run([sys.executable, "-P", "-c", PROBE, "as-of", "deploy", "port", "-t", store.tenant],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.splitlines()[:2] == ["subject: deploy", "topic: port"] and "value: 8080" in proc.stdout
    seen = json.loads(proc.stderr.strip().splitlines()[-1])
    sent = seen["sent"]
    assert sent.get("HELLO") == 1, sent  # one connection, no verify_connectivity before it
    assert sent.get("RUN") == 2, sent  # the schema marker check and the read, nothing else
    # schema.cypher (its version is the marker's), the marker check, the read: not the ~110 files
    assert seen["query_files"] == 3 and seen["registry_built"] == 0
    assert not unneeded(set(seen["modules"])), unneeded(set(seen["modules"]))
