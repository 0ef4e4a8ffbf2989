"""Embedders for the vector leg of recall — optional, pluggable, never downloading anything.

Vectors are off unless an embedder is given (``GraphMem(embedder=...)``) or named in
``GRAPHMEM_EMBEDDER``; keyword, graph and time recall work without them, and a context says when
its vector leg was off. The choices:

* ``hashing`` — :class:`HashingEmbedder`: feature hashing of words, character trigrams and CJK
  bigrams into 256 signed dimensions. No weights, no extra packages, deterministic, works for
  English and Chinese alike. It is *lexical*: it catches inflections, partial identifiers and
  shared Chinese characters, not synonyms.
* ``minilm`` — :class:`SentenceTransformerEmbedder`: all-MiniLM-L6-v2 through
  sentence-transformers (the ``vectors`` extra). Semantic, but it needs torch (a multi-GB install
  from PyPI) and local weights: it is loaded with ``HF_HUB_OFFLINE=1`` so a missing model is a
  clear error, never a download.
* ``package.module:attribute`` — anything with ``name``, ``dimensions`` and ``embed(texts)``.

Embeddings are derived copies: ``EmbeddingState`` records the ledger sequence number they were
built up to (graphmem.recall catches up before a query), and a rebuild or an erase drops them
with the rest of the projection.
"""

from __future__ import annotations

import hashlib
import importlib
import math
import os
import re
from typing import Protocol, runtime_checkable

from .errors import ConfigurationError

__all__ = ["Embedder", "HashingEmbedder", "SentenceTransformerEmbedder", "embedder_from_env"]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into fixed-length vectors (cosine similarity is used)."""

    name: str
    dimensions: int

    def embed(self, texts: list[str]) -> list[list[float]]: ...


_WORD = re.compile(r"[A-Za-z0-9\u00c0-\u024f]+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+")


class HashingEmbedder:
    """Signed feature hashing of words, character trigrams and CJK uni/bigrams; L2-normalised."""

    def __init__(self, dimensions: int = 256) -> None:
        if dimensions < 8:
            raise ConfigurationError("HashingEmbedder needs at least 8 dimensions")
        self.dimensions = dimensions
        self.name = f"hashing-{dimensions}"

    def _features(self, text: str) -> list[tuple[str, float]]:
        out: list[tuple[str, float]] = []
        for word in _WORD.findall(text.lower()):
            out.append(("w:" + word, 1.0))
            padded = f"<{word}>"
            out.extend(("c:" + padded[i:i + 3], 0.5) for i in range(len(padded) - 2))
        for run in _CJK.findall(text):
            out.extend(("h:" + ch, 0.5) for ch in run)
            out.extend(("b:" + run[i:i + 2], 1.0) for i in range(len(run) - 1))
        return out

    def embed(self, texts: list[str]) -> list[list[float]]:
        vectors = []
        for text in texts:
            v = [0.0] * self.dimensions
            for feature, weight in self._features(text):
                h = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "little")
                v[h % self.dimensions] += weight if (h >> 63) & 1 else -weight
            norm = math.sqrt(sum(x * x for x in v))
            # An empty text gets a tiny constant vector: cosine needs a non-zero norm.
            vectors.append([x / norm for x in v] if norm else [1.0 / math.sqrt(self.dimensions)] * self.dimensions)
        return vectors


class SentenceTransformerEmbedder:
    """all-MiniLM-L6-v2 (384 dimensions) through sentence-transformers, strictly offline."""

    def __init__(self, model: str | None = None) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        model = model or os.environ.get("GRAPHMEM_MINILM_PATH") or "sentence-transformers/all-MiniLM-L6-v2"
        try:
            from sentence_transformers import SentenceTransformer  # type: ignore[import-not-found]
        except ImportError as e:
            raise ConfigurationError("the 'minilm' embedder needs sentence-transformers: "
                                     "pip install 'graphmem[vectors]' (pulls torch), or use "
                                     "GRAPHMEM_EMBEDDER=hashing") from e
        try:
            self._model = SentenceTransformer(model)
        except Exception as e:  # the library raises OSError/ValueError/HF errors alike
            raise ConfigurationError(f"cannot load {model!r} offline ({type(e).__name__}); put the weights on disk "
                                     "and point GRAPHMEM_MINILM_PATH at them") from e
        self.dimensions = int(self._model.get_sentence_embedding_dimension())
        self.name = f"minilm-{self.dimensions}"

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [list(map(float, v)) for v in self._model.encode(texts, normalize_embeddings=True)]


def embedder_from_env(value: str | None = None) -> Embedder | None:
    """The embedder ``GRAPHMEM_EMBEDDER`` names (``hashing``, ``minilm`` or ``module:attr``), or None."""
    spec = (value if value is not None else os.environ.get("GRAPHMEM_EMBEDDER", "")).strip()
    if not spec or spec in ("off", "none"):
        return None
    if spec == "hashing":
        return HashingEmbedder()
    if spec == "minilm":
        return SentenceTransformerEmbedder()
    module, _, attr = spec.partition(":")
    if not attr:
        raise ConfigurationError(f"GRAPHMEM_EMBEDDER={spec!r}: use hashing, minilm or package.module:attribute")
    try:
        factory = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:
        raise ConfigurationError(f"GRAPHMEM_EMBEDDER={spec!r}: {e}") from e
    embedder = factory() if isinstance(factory, type) or callable(factory) and not isinstance(factory, Embedder) \
        else factory
    if not isinstance(embedder, Embedder):
        raise ConfigurationError(f"GRAPHMEM_EMBEDDER={spec!r} is not an Embedder (name, dimensions, embed)")
    return embedder
