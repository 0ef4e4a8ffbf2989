"""The local server's jars and launcher: Maven resolves Neo4j Community, its HTTP server module,
Neo4j Browser and APOC core from Maven Central into the local Maven cache
(``docker/neo4j-local/pom.xml``) and compiles the small launcher, once — again only when the pom
or the launcher's sources change (a stamp of their hash). Apart from graphmem.local.server
because it is the one step that downloads; starting and stopping the JVM never does."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

from ..core.config import env_config
from ..core.errors import ConfigurationError, ServerError
from ..store.settings import graphmem_home

__all__ = ["JDK_HINT", "build", "project_dir", "which"]

JDK_HINT = "install a JDK 17 (Debian: apt-get install openjdk-17-jdk-headless)"


def project_dir() -> Path:
    """The Maven project of the launcher (shipped in the package, or the repository's docker/)."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "neo4j_local", here.parent / "docker" / "neo4j-local"):
        if (candidate / "pom.xml").is_file():
            return candidate
    raise ConfigurationError("docker/neo4j-local/pom.xml is missing; reinstall graphmem")


def which(tool: str, hint: str) -> str:
    """The path of ``tool`` (``java`` from ``JAVA_HOME`` when set); a ConfigurationError with ``hint`` if missing."""
    java_home = env_config().java_home
    if tool == "java" and java_home and Path(java_home, "bin", "java").is_file():
        return str(Path(java_home, "bin", "java"))
    path = shutil.which(tool)
    if not path:
        raise ConfigurationError(f"'{tool}' is not installed; {hint}")
    return path


def _stamp(project: Path) -> str:
    h = hashlib.sha256()
    for f in sorted([project / "pom.xml", *project.rglob("*.java")]):
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def build(quiet: bool = True) -> Path:
    """Resolve the jars and compile the launcher once (again only when the pom or launcher change)."""
    project = project_dir()
    out = graphmem_home() / "build"
    stamp = _stamp(project)
    if (out / "classpath.txt").is_file() and (out / "stamp").is_file() and (out / "stamp").read_text() == stamp:
        return out
    mvn = which("mvn", "install Maven (Debian: apt-get install maven) and a JDK 17")
    which("javac", JDK_HINT)
    out.mkdir(parents=True, exist_ok=True)
    cmd = [mvn, "-B", "-f", str(project / "pom.xml"), f"-Dgraphmem.build.dir={out}", "package"]
    if quiet:
        cmd.insert(1, "-q")
    print("graphmem: fetching Neo4j, Browser and APOC from Maven Central (first start only)...", file=sys.stderr)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
        raise ServerError(f"the Maven build of the local Neo4j failed (is Maven Central reachable?):\n{tail}")
    (out / "stamp").write_text(stamp)
    return out
