"""The topic vocabulary as data: cue patterns and value shapes per topic and language.

The built-in file is ``vocabulary.json`` beside this module. Users extend it without touching
code: ``GRAPHMEM_VOCABULARY=/path/mine.json`` (or ``Vocabulary.load(path)``) adds topics, and a
topic of the same name replaces the built-in entry. The file format is documented in the
built-in file's ``_doc`` and in docs/extraction.md.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.errors import ConfigurationError

__all__ = ["Pattern", "TopicRules", "Vocabulary"]

BUILTIN = Path(__file__).with_name("vocabulary.json")


@dataclass(frozen=True)
class Pattern:
    regex: re.Pattern[str]
    shape: str | None = None
    needs_env: bool = False
    confidence: float = 0.9
    revokes: bool = False  # the match ends the value ("I left Initech"): a revoke, not a set


@dataclass(frozen=True)
class TopicRules:
    name: str
    patterns: dict[str, list[Pattern]]
    nouns: dict[str, list[str]]
    cardinality: str = "one"
    plan: str | None = None
    subject: str = "speaker"  # or "about": the thing under discussion
    env_scoped: bool = False
    cues: dict[str, list[str]] = field(default_factory=dict)  # words a question uses (recall)


@dataclass
class Vocabulary:
    topics: dict[str, TopicRules]
    environments: dict[str, list[str]] = field(default_factory=dict)
    open: dict[str, Any] = field(default_factory=dict)  # open vocabulary: synonyms, declared, occupations

    @classmethod
    def load(cls, *paths: str | Path) -> "Vocabulary":
        """The built-in vocabulary, then each file in order (later topics replace earlier ones)."""
        raw_topics: dict[str, Any] = {}
        macros: dict[str, str] = {}
        environments: dict[str, list[str]] = {}
        open_cfg: dict[str, Any] = {"synonyms": {}, "declared": [], "occupations": {"en": [], "zh": []}}
        for path in (BUILTIN, *paths):
            try:
                data = json.loads(Path(path).read_text(encoding="utf-8"))
            except (OSError, ValueError) as e:
                raise ConfigurationError(f"cannot read vocabulary {path}: {e}") from e
            macros.update(data.get("macros", {}))
            environments.update(data.get("environments", {}))
            raw_topics.update(data.get("topics", {}))
            extra = data.get("open", {})
            open_cfg["synonyms"].update(extra.get("synonyms", {}))
            open_cfg["declared"] = sorted(set(open_cfg["declared"]) | set(extra.get("declared", [])))
            for lang, words in extra.get("occupations", {}).items():
                open_cfg["occupations"][lang] = sorted(set(open_cfg["occupations"].get(lang, [])) | set(words))
        topics = {name: _compile(name, spec, macros) for name, spec in raw_topics.items()}
        return cls(topics, environments, open_cfg)

    @classmethod
    @lru_cache(maxsize=1)
    def default(cls) -> "Vocabulary":
        from ..core.config import env_config
        extra = env_config().vocabulary
        return cls.load(*([extra] if extra else []))


def _compile(name: str, spec: dict[str, Any], macros: dict[str, str]) -> TopicRules:
    patterns: dict[str, list[Pattern]] = {}
    for lang in ("en", "zh"):
        out = []
        for p in spec.get(lang, []):
            text = p["re"]
            for key, value in macros.items():
                text = text.replace("{" + key + "}", f"(?:{value})")
            try:
                # English cue words are matched case-insensitively; the value macros keep their case
                # through (?-i:...) where they need capitals.
                rx = re.compile(text)
            except re.error as e:
                raise ConfigurationError(f"vocabulary topic {name!r}: bad pattern {p['re']!r}: {e}") from e
            out.append(Pattern(rx, p.get("shape"), bool(p.get("needs_env")), float(p.get("confidence", 0.9)),
                               bool(p.get("revokes"))))
        patterns[lang] = out
    return TopicRules(name=name, patterns=patterns, nouns=spec.get("nouns", {}),
                      cardinality=spec.get("cardinality", "one"), plan=spec.get("plan"),
                      subject=spec.get("subject", "speaker"), env_scoped=bool(spec.get("env_scoped")),
                      cues=spec.get("cues", {}))
