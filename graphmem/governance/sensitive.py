"""Secrets never reach long-term memory: configured patterns (API keys, tokens, card numbers…) are
masked — or, in ``refuse`` mode, the write is refused — before working memory writes an item to the
ledger and before the task end gate writes anything long-term.

The patterns are configuration, not code: :class:`SensitiveConfig` (a typed model) defaults to the
built-in :data:`DEFAULT_PATTERNS`; ``GRAPHMEM_SENSITIVE_PATTERNS`` names a JSON file
``{"name": "regex", ...}`` that replaces them and ``GRAPHMEM_SENSITIVE_MODE`` is ``mask`` or
``refuse``. A card number only counts when its digits pass the Luhn check, so an order number of
the same length is left alone.
"""

from __future__ import annotations

import json
import re
from functools import cached_property
from typing import Any, Literal, Mapping

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..core.errors import ConfigurationError, SensitiveDataError

__all__ = ["DEFAULT_PATTERNS", "SensitiveConfig", "scrub", "scrub_obj"]

DEFAULT_PATTERNS: dict[str, str] = {
    "api_key": r"\b(?:sk|pk|rk)-(?:live-|test-|proj-)?[A-Za-z0-9_\-]{16,}\b|\bAKIA[0-9A-Z]{16}\b"
               r"|\bgh[pousr]_[A-Za-z0-9]{30,}\b|\bxox[abprs]-[A-Za-z0-9\-]{10,}\b|\bAIza[0-9A-Za-z_\-]{35}\b",
    "bearer_token": r"(?i)\bbearer\s+[A-Za-z0-9._~+/\-]{16,}=*",
    "jwt": r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\b",
    "password": r"(?i)\b(?:password|passwd|pwd|secret|api[_-]?key|token)\s*[:=]\s*\S{4,}",
    "card_number": r"\b(?:\d[ -]?){12,18}\d\b",
}


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


class SensitiveConfig(BaseModel):
    """Which strings count as secrets, and whether a write containing one is masked or refused."""

    model_config = ConfigDict(frozen=True)

    patterns: dict[str, str] = Field(default_factory=lambda: dict(DEFAULT_PATTERNS))
    mode: Literal["mask", "refuse"] = "mask"

    @field_validator("patterns")
    @classmethod
    def _compiles(cls, v: dict[str, str]) -> dict[str, str]:
        for name, rx in v.items():
            try:
                re.compile(rx)
            except re.error as e:
                raise ValueError(f"pattern {name!r} is not a regular expression: {e}") from e
        return v

    @cached_property
    def compiled(self) -> list[tuple[str, re.Pattern[str]]]:
        return [(name, re.compile(rx)) for name, rx in self.patterns.items()]

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "SensitiveConfig":
        """The configuration from ``GRAPHMEM_SENSITIVE_PATTERNS`` / ``GRAPHMEM_SENSITIVE_MODE``
        (read through :func:`graphmem.core.config.env_config`)."""
        from ..core.config import env_config
        config = env_config(env)
        values: dict[str, Any] = {}
        if config.sensitive_mode:
            values["mode"] = config.sensitive_mode
        if config.sensitive_patterns:
            path = config.sensitive_patterns
            try:
                values["patterns"] = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as e:
                raise ConfigurationError(f"GRAPHMEM_SENSITIVE_PATTERNS: cannot read {path}: {e}") from e
        try:
            return cls(**values)
        except ValueError as e:
            raise ConfigurationError(f"bad sensitive-data configuration: {e}") from e


def scrub(text: str, config: SensitiveConfig, where: str = "text") -> tuple[str, list[str]]:
    """``text`` with every match masked as ``[redacted:<name>]``, and the names that matched; in
    ``refuse`` mode a match raises :class:`~graphmem.core.errors.SensitiveDataError` instead."""
    found: list[str] = []
    for name, rx in config.compiled:
        def repl(m: re.Match[str], name: str = name) -> str:
            if name == "card_number":
                digits = re.sub(r"\D", "", m.group())
                if not 13 <= len(digits) <= 19 or not _luhn(digits):
                    return m.group()
            found.append(name)
            return f"[redacted:{name}]"
        text = rx.sub(repl, text)
    if found and config.mode == "refuse":
        raise SensitiveDataError(f"{where} contains what looks like a secret ({', '.join(sorted(set(found)))}); "
                                 "nothing was written. Remove it, or run with GRAPHMEM_SENSITIVE_MODE=mask")
    return text, sorted(set(found))


def scrub_obj(value: Any, config: SensitiveConfig, where: str = "value") -> tuple[Any, list[str]]:
    """:func:`scrub` over every string inside a JSON-like value (dicts, lists)."""
    if isinstance(value, str):
        return scrub(value, config, where)
    if isinstance(value, dict):
        out, found = {}, []
        for k, v in value.items():
            out[k], f = scrub_obj(v, config, where)
            found += f
        return out, sorted(set(found))
    if isinstance(value, list):
        items, found = [], []
        for v in value:
            x, f = scrub_obj(v, config, where)
            items.append(x)
            found += f
        return items, sorted(set(found))
    return value, []
