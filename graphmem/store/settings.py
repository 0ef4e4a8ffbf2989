"""Connection settings, read from the environment (``NEO4J_*``) with the local server as default.

The variables are read through :func:`graphmem.core.config.env_config` (one typed model of every
variable graphmem reads; docs/configuration.md).

``NEO4J_URI`` may be ``bolt://`` for one server or ``neo4j://`` for a cluster or Aura (routing);
graphmem never relies on anything local to the server it talks to.

The password: ``NEO4J_PASSWORD`` when set; else, when the URI is the local server that
``graphmem server start`` runs from ``GRAPHMEM_HOME`` with auth on, the password it generated
there (``GRAPHMEM_HOME/neo4j-password``, readable by its owner only), or by the graphmem server
registered on that port from another home (graphmem.local.server's registry); else none (a server
without auth, such as one started with ``--no-auth`` or someone else's).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal, Mapping
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from ..core.config import EnvConfig, env_config

LOCAL_BOLT_PORT = 7687
LOCAL_HTTP_PORT = 7474
LOCAL_URI = f"bolt://127.0.0.1:{LOCAL_BOLT_PORT}"
PASSWORD_FILE = "neo4j-password"
CONNECT_TIMEOUT = 3.0  # seconds a client waits for its first answer from a server before it gives up

UriOrigin = Literal["default", "env", "argument"]


def graphmem_home(env: Mapping[str, str] | EnvConfig | None = None) -> Path:
    """graphmem's data folder for the local server (``GRAPHMEM_HOME``, default ~/.local/share/graphmem)."""
    config = env_config(env)
    if config.home:
        return config.home.expanduser().resolve()
    return ((config.xdg_data_home or Path("~/.local/share")).expanduser() / "graphmem").resolve()


def registry_dir(env: Mapping[str, str] | EnvConfig | None = None) -> Path:
    """The per-user folder of running local servers, one ``<bolt port>.json`` each (graphmem.local.server):
    ``$XDG_RUNTIME_DIR/graphmem/servers``, else ``$TMPDIR/graphmem-<uid>/servers``."""
    config = env_config(env)
    if config.xdg_runtime_dir:
        return config.xdg_runtime_dir / "graphmem" / "servers"
    import os
    import tempfile
    return Path(tempfile.gettempdir()) / f"graphmem-{os.getuid()}" / "servers"


def _registered_home(port: int, config: EnvConfig) -> Path | None:
    """The home of the graphmem server registered on ``port``, if any."""
    try:
        return Path(json.loads((registry_dir(config) / f"{port}.json").read_text())["home"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def local_password(uri: str, env: Mapping[str, str] | EnvConfig | None = None) -> str | None:
    """The generated password of the local server, if ``uri`` is that server and it runs with auth
    (the server of ``GRAPHMEM_HOME``, else the graphmem server registered on that port)."""
    config = env_config(env)
    try:
        parts = urlsplit(uri)
        if parts.hostname not in ("127.0.0.1", "localhost"):
            return None
        port = parts.port or LOCAL_BOLT_PORT
    except ValueError:
        return None
    for home in (graphmem_home(config), _registered_home(port, config)):
        if home is None:
            continue
        try:
            state = json.loads((home / "server.json").read_text())
            if state.get("bolt_port") != port:
                continue
            if not state.get("auth"):
                return None
            return (home / PASSWORD_FILE).read_text().strip() or None
        except (OSError, ValueError, AttributeError):
            continue
    return None


class Settings(BaseModel):
    """Where Neo4j is and how to log in. The password is a SecretStr: it never prints."""

    model_config = ConfigDict(frozen=True)

    uri: str = LOCAL_URI
    user: str = "neo4j"
    password: SecretStr | None = None
    database: str | None = Field(default=None, description="None: the server's default database")
    connect_timeout: float = Field(default=CONNECT_TIMEOUT, gt=0, description=(
        "seconds to wait for a server that has not answered yet (a TCP connect, and retrying the first "
        "read): a wrong URI fails in seconds, not after the driver's 30 s of retries"))
    uri_origin: UriOrigin | None = Field(default=None, exclude=True, repr=False, description=(
        "where the URI came from, for the error that names it: the default local server, NEO4J_URI, "
        "or an argument (None: the default if the URI is the local server's, else an argument)"))

    @property
    def origin(self) -> UriOrigin:
        """Where the URI came from (:attr:`uri_origin`, or guessed from the URI)."""
        return self.uri_origin or ("default" if self.uri == LOCAL_URI else "argument")

    def unreachable(self, what: str) -> str:
        """The message for "no Neo4j answers": the URI tried, and what to check for where it came from."""
        if self.origin == "argument":
            return (f"no Neo4j answers at {self.uri} ({what}); is a server running there and reachable? "
                    "('graphmem server start' runs a local one)")
        if self.origin == "env":
            return f"no Neo4j answers at {self.uri} (NEO4J_URI; {what}); check NEO4J_URI, or that the server runs"
        return (f"no Neo4j answers at {self.uri} (the default local server; {what}); start one with "
                "'graphmem server start', or give the URI of yours (--uri or NEO4J_URI)")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | EnvConfig | None = None, **overrides: object) -> "Settings":
        """Settings from NEO4J_URI / NEO4J_USER / NEO4J_PASSWORD / NEO4J_DATABASE, then overrides."""
        config = env_config(env)
        values: dict[str, object] = {field: value for field, value in (
            ("uri", config.neo4j_uri), ("user", config.neo4j_user), ("password", config.neo4j_password),
            ("database", config.neo4j_database)) if value is not None}
        values.update({k: v for k, v in overrides.items() if v is not None})
        if "uri_origin" not in values:
            values["uri_origin"] = ("argument" if overrides.get("uri") is not None
                                    else "env" if config.neo4j_uri is not None else "default")
        if "password" not in values:
            found = local_password(str(values.get("uri", LOCAL_URI)), config)
            if found:
                values["password"] = found
        return cls(**values)

    @property
    def auth(self) -> tuple[str, str] | None:
        """The driver's auth tuple, or None when the server runs without auth."""
        if self.password is None:
            return None
        return (self.user, self.password.get_secret_value())
