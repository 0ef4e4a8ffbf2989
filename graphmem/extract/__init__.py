"""Text → events. The :class:`Extractor` protocol, and the default spaCy + rules extractor.

An extractor reads one message (and the recent facts the store hands it, for corrections and
cancellations) and returns docs/format.md event dicts whose source is the message. It never touches
the database and never invents a value that is not in the text. Plug in another one (an
LLM-backed one, say) with ``GraphMem(extractor=...)``.
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence, runtime_checkable

from ..core.models import MessageEvent
from .rules import PriorFact, RuleExtractor
from .vocabulary import Vocabulary

__all__ = ["Extractor", "PriorFact", "RuleExtractor", "Vocabulary", "default_extractor"]


@runtime_checkable
class Extractor(Protocol):
    def extract(self, message: MessageEvent, context: Sequence[PriorFact] = ()) -> list[dict[str, Any]]:
        """The events ``message`` means, as docs/format.md dicts (source = the message id)."""
        ...


_default: RuleExtractor | None = None


def default_extractor() -> RuleExtractor:
    """The shared default extractor (its spaCy pipelines load once per process)."""
    global _default
    if _default is None:
        _default = RuleExtractor()
    return _default
