"""Embedders for the vector leg of recall — optional, pluggable, never downloading anything.

The default is ``wordllama`` when its package is installed (it is a dependency): static word
embeddings whose weights and tokenizer ship inside the wheel, so nothing is ever downloaded.
``GRAPHMEM_EMBEDDER=off`` (or ``GraphMem(embedder=False)``) turns vectors off; keyword, graph and
time recall work without them, and a context says when its vector leg was off. The choices:

* ``wordllama`` — :class:`WordLlamaEmbedder`: WordLlama's ``l2_supercat`` token embeddings (256
  dimensions), mean-pooled; ~1,000 texts embed in tens of milliseconds on one CPU core. English
  first; it knows little Chinese, which the CJK full-text index covers.
* ``hashing`` — :class:`HashingEmbedder`: feature hashing of words, character trigrams and CJK
  bigrams into 256 signed dimensions. No weights, no extra packages, deterministic, works for
  English and Chinese alike. It is *lexical*: it catches inflections, partial identifiers and
  shared Chinese characters, not synonyms.
* ``minilm`` — :class:`SentenceTransformerEmbedder`: all-MiniLM-L6-v2 through
  sentence-transformers (the ``vectors`` extra). Semantic, but it needs torch (a multi-GB install
  from PyPI) and local weights: it is loaded with ``local_files_only=True`` so a missing model is a
  clear error, never a download.
* ``package.module:attribute`` — anything with ``name``, ``dimensions`` and ``embed(texts)``.

Embeddings are derived copies: ``EmbeddingState`` records the ledger sequence number they were
built up to (graphmem.recall.recall catches up before a query), and a rebuild or an erase drops them
with the rest of the projection.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import math
import os
import re
from contextlib import contextmanager
from typing import Iterator, Protocol, runtime_checkable

from ..core.errors import ConfigurationError
from ..core.text import CJK_RUN

__all__ = ["DEFAULT_EMBEDDER", "Embedder", "HashingEmbedder", "SentenceTransformerEmbedder", "WordLlamaEmbedder",
           "embedder_from_env"]

DEFAULT_EMBEDDER = "wordllama"


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into fixed-length vectors (cosine similarity is used)."""

    name: str
    dimensions: int

    def embed(self, texts: list[str]) -> list[list[float]]: ...


_WORD = re.compile(r"[A-Za-z0-9\u00c0-\u024f]+")


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
        for run in CJK_RUN.findall(text):
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


@contextmanager
def _logging_left_alone() -> Iterator[None]:
    """wordllama calls ``logging.basicConfig(level=INFO)`` when imported, which would print every
    INFO line of the application (graphmem's own structured logs included) on stderr. A library
    must not configure its host's logging: whatever the import adds to the root logger is undone."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        yield
    finally:
        for h in root.handlers[:]:
            if h not in handlers:
                root.removeHandler(h)
        root.setLevel(level)


class WordLlamaEmbedder:
    """WordLlama's bundled 256-dimension model, loaded from the package's own folder, never downloaded."""

    _shared: dict[int, object] = {}

    def __init__(self, dimensions: int = 256) -> None:
        try:
            with _logging_left_alone():
                import wordllama
        except ImportError as e:
            raise ConfigurationError("the 'wordllama' embedder needs the wordllama package: pip install wordllama, "
                                     "or set GRAPHMEM_EMBEDDER=hashing / off") from e
        if dimensions not in self._shared:
            folder = os.path.dirname(wordllama.__file__)
            try:
                self._shared[dimensions] = wordllama.WordLlama.load(cache_dir=folder, disable_download=True,
                                                                    dim=dimensions)
            except Exception as e:  # missing weights surface as FileNotFoundError/ValueError
                raise ConfigurationError(f"wordllama has no bundled {dimensions}-dimension weights "
                                         f"({type(e).__name__}: {e})") from e
        self._model = self._shared[dimensions]
        self.dimensions = dimensions
        self.name = f"wordllama-{dimensions}"

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = self._model.embed(texts, norm=True)  # type: ignore[attr-defined]
        out = []
        for v in vectors.tolist():
            # An empty or all-unknown text embeds to zeros: cosine needs a non-zero norm.
            out.append(v if any(v) else [1.0 / math.sqrt(self.dimensions)] * self.dimensions)
        return out


class SentenceTransformerEmbedder:
    """all-MiniLM-L6-v2 (384 dimensions) through sentence-transformers, strictly offline."""

    def __init__(self, model: str | None = None) -> None:
        from ..core.config import env_config
        model = model or env_config().minilm_path or "sentence-transformers/all-MiniLM-L6-v2"
        from ..core.extras import require
        SentenceTransformer = require("vectors", hint="(pulls torch), or use GRAPHMEM_EMBEDDER=hashing"
                                      ).SentenceTransformer
        try:
            # local_files_only: the library and huggingface_hub look on disk only, never download
            # (the option, not HF_HUB_OFFLINE in os.environ: graphmem never writes the environment)
            self._model = SentenceTransformer(model, local_files_only=True)
        except Exception as e:  # the library raises OSError/ValueError/HF errors alike
            raise ConfigurationError(f"cannot load {model!r} offline ({type(e).__name__}); put the weights on disk "
                                     "and point GRAPHMEM_MINILM_PATH at them") from e
        self.dimensions = int(self._model.get_sentence_embedding_dimension())
        self.name = f"minilm-{self.dimensions}"

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [list(map(float, v)) for v in self._model.encode(texts, normalize_embeddings=True)]


def embedder_from_env(value: str | None = None) -> Embedder | None:
    """The embedder ``GRAPHMEM_EMBEDDER`` names (``wordllama``, ``hashing``, ``minilm``, ``module:attr``;
    ``off`` for none). Unset means the default, ``wordllama``, when its package is installed."""
    if value is None:
        from ..core.config import env_config
        value = env_config().embedder
    raw = value
    spec = (DEFAULT_EMBEDDER if raw is None else raw).strip()
    if not spec or spec in ("off", "none"):
        return None
    if spec == "wordllama":
        try:
            return WordLlamaEmbedder()
        except ConfigurationError:
            if raw is None:
                return None  # the default is best effort; naming it explicitly makes it required
            raise
    if spec == "hashing":
        return HashingEmbedder()
    if spec == "minilm":
        return SentenceTransformerEmbedder()
    module, _, attr = spec.partition(":")
    if not attr:
        raise ConfigurationError(f"GRAPHMEM_EMBEDDER={spec!r}: use wordllama, hashing, minilm, off or package.module:attribute")
    try:
        factory = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:
        raise ConfigurationError(f"GRAPHMEM_EMBEDDER={spec!r}: {e}") from e
    embedder = factory() if isinstance(factory, type) or callable(factory) and not isinstance(factory, Embedder) \
        else factory
    if not isinstance(embedder, Embedder):
        raise ConfigurationError(f"GRAPHMEM_EMBEDDER={spec!r} is not an Embedder (name, dimensions, embed)")
    return embedder
