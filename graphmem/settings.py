"""Connection settings, read from the environment (``NEO4J_*``) with the local server as default.

``NEO4J_URI`` may be ``bolt://`` for one server or ``neo4j://`` for a cluster or Aura (routing);
graphmem never relies on anything local to the server it talks to.

The password: ``NEO4J_PASSWORD`` when set; else, when the URI is the local server that
``graphmem server start`` runs from ``GRAPHMEM_HOME`` with auth on, the password it generated
there (``GRAPHMEM_HOME/neo4j-password``, readable by its owner only); else none (a server
without auth, such as one started with ``--no-auth`` or someone else's).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Mapping
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr

LOCAL_BOLT_PORT = 7687
LOCAL_HTTP_PORT = 7474
LOCAL_URI = f"bolt://127.0.0.1:{LOCAL_BOLT_PORT}"
PASSWORD_FILE = "neo4j-password"


def graphmem_home(env: Mapping[str, str] | None = None) -> Path:
    """graphmem's data folder for the local server (``GRAPHMEM_HOME``, default ~/.local/share/graphmem)."""
    env = os.environ if env is None else env
    base = env.get("GRAPHMEM_HOME") or os.path.join(
        env.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share"), "graphmem")
    return Path(base).resolve()


def local_password(uri: str, env: Mapping[str, str] | None = None) -> str | None:
    """The generated password of the local server, if ``uri`` is that server and it runs with auth."""
    home = graphmem_home(env)
    try:
        state = json.loads((home / "server.json").read_text())
        parts = urlsplit(uri)
        if not state.get("auth") or parts.hostname not in ("127.0.0.1", "localhost") \
                or (parts.port or LOCAL_BOLT_PORT) != state.get("bolt_port"):
            return None
        return (home / PASSWORD_FILE).read_text().strip() or None
    except (OSError, ValueError, AttributeError):
        return None


class Settings(BaseModel):
    """Where Neo4j is and how to log in. The password is a SecretStr: it never prints."""

    model_config = ConfigDict(frozen=True)

    uri: str = LOCAL_URI
    user: str = "neo4j"
    password: SecretStr | None = None
    database: str | None = Field(default=None, description="None: the server's default database")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> "Settings":
        """Settings from NEO4J_URI / NEO4J_USER / NEO4J_PASSWORD / NEO4J_DATABASE, then overrides."""
        env = os.environ if env is None else env
        values: dict[str, object] = {}
        for field, var in (("uri", "NEO4J_URI"), ("user", "NEO4J_USER"),
                           ("password", "NEO4J_PASSWORD"), ("database", "NEO4J_DATABASE")):
            if env.get(var):
                values[field] = env[var]
        values.update({k: v for k, v in overrides.items() if v is not None})
        if "password" not in values:
            found = local_password(str(values.get("uri", LOCAL_URI)), env)
            if found:
                values["password"] = found
        return cls(**values)

    @property
    def auth(self) -> tuple[str, str] | None:
        """The driver's auth tuple, or None when the server runs without auth."""
        if self.password is None:
            return None
        return (self.user, self.password.get_secret_value())
