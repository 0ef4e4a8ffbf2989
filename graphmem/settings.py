"""Connection settings, read from the environment (``NEO4J_*``) with the local server as default.

``NEO4J_URI`` may be ``bolt://`` for one server or ``neo4j://`` for a cluster or Aura (routing);
graphmem never relies on anything local to the server it talks to.
"""

from __future__ import annotations

import os
from typing import Mapping

from pydantic import BaseModel, ConfigDict, Field, SecretStr

LOCAL_BOLT_PORT = 7687
LOCAL_HTTP_PORT = 7474
LOCAL_URI = f"bolt://127.0.0.1:{LOCAL_BOLT_PORT}"


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
        return cls(**values)

    @property
    def auth(self) -> tuple[str, str] | None:
        """The driver's auth tuple, or None when the server runs without auth."""
        if self.password is None:
            return None
        return (self.user, self.password.get_secret_value())
