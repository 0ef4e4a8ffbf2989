"""graphmem/extract/matmul.py: the English model multiplies through numpy's BLAS on one thread while
graphmem parses. The annotations must be those of the stock pipeline (thinc's blis), and the
caller's BLAS threads must be as they were once a parse returns."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from threadpoolctl import threadpool_info

from graphmem.extract import RuleExtractor, matmul
from graphmem.extract.rules import ENGLISH_MODELS
from graphmem.extract.score import load

DATA = Path(__file__).parent.parent / "data" / "extraction"


def _model_name() -> str:
    import importlib.util
    return next(n for n in ENGLISH_MODELS if importlib.util.find_spec(n))


def _ops(nlp: Any) -> set[tuple[str, bool]]:
    """(ops class, use_blis) of every thinc layer in the pipeline but the parser's and the entity
    recogniser's output layer, which spaCy always builds with the default ops (and whose product
    it computes in its own compiled code, not through them)."""
    pinned = {id(proc.model.get_ref("upper")) for _, proc in nlp.pipeline
              if hasattr(proc, "model") and proc.model.has_ref("upper")}
    assert len(pinned) == 2  # parser, ner
    return {(type(node.ops).__name__, getattr(node.ops, "use_blis", None))
            for _, proc in nlp.pipeline if hasattr(proc, "model") for node in proc.model.walk()
            if id(node) not in pinned}


def _blas_threads() -> list[int]:
    return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]


@pytest.fixture(scope="module")
def pipelines():
    """The stock pipeline (blis) and the same model loaded as graphmem loads it, both with the stock
    attribute ruler, so only the matrix products differ."""
    import spacy

    stock = spacy.load(_model_name(), exclude=["lemmatizer"])
    with matmul.loading():
        numpy_ops = spacy.load(_model_name(), exclude=["lemmatizer"])
    return stock, numpy_ops


def test_the_extractors_pipeline_multiplies_through_numpy_not_blis(pipelines):
    stock, _ = pipelines
    assert _ops(RuleExtractor().nlp("en")) == {("NumpyOps", False)}
    assert _ops(stock) == {("NumpyOps", True)}  # what it would be without matmul.loading()


def test_labelled_sets_get_the_same_annotations_as_with_blis(pipelines):
    stock, numpy_ops = pipelines
    texts = [r["text"] for name in ("tune.jsonl", "heldout.jsonl") for r in load(DATA / name)]
    texts += ["", "  ", "On 3 May 2025 Anna moved from Paris to Berlin; she works at Siemens now."]

    def annotations(doc: Any) -> list[tuple[Any, ...]]:
        return [(t.tag_, t.pos_, str(t.morph), t.dep_, t.head.i, t.ent_iob_, t.ent_type_) for t in doc]

    got = matmul.pipe(numpy_ops, texts, batch_size=64)
    assert len(got) == len(texts)
    for a, b in zip(got, stock.pipe(texts)):
        assert annotations(a) == annotations(b), a.text
    assert annotations(matmul.parse(numpy_ops, texts[0])) == annotations(stock(texts[0]))


class _Recorder:
    """A stand-in pipeline that notes the BLAS threads it runs with."""

    def __init__(self) -> None:
        self.seen: list[list[int]] = []

    def pipe(self, texts: Any, batch_size: int) -> Any:
        for t in texts:
            self.seen.append(_blas_threads())
            yield t

    def __call__(self, text: str) -> str:
        self.seen.append(_blas_threads())
        return text


def test_a_parse_runs_on_one_blas_thread_and_puts_the_callers_setting_back():
    before = _blas_threads()
    assert before, "numpy's BLAS is not visible to threadpoolctl"
    nlp = _Recorder()
    assert matmul.pipe(nlp, ["a", "b"], batch_size=8) == ["a", "b"]
    assert matmul.parse(nlp, "c") == "c"
    assert nlp.seen == [[1] * len(before)] * 3
    assert _blas_threads() == before


def test_the_callers_setting_comes_back_when_a_parse_fails():
    before = _blas_threads()

    class Broken:
        def __call__(self, text: str) -> None:
            raise ValueError(text)

    with pytest.raises(ValueError):
        matmul.parse(Broken(), "x")
    assert _blas_threads() == before


def test_a_parse_on_another_thread_leaves_blas_alone():
    """Off the main thread the caller's setting could not be put back (OpenBLAS ignores a raise
    asked from another thread), so it is not touched there."""
    import threading

    before = _blas_threads()
    nlp = _Recorder()
    t = threading.Thread(target=lambda: matmul.pipe(nlp, ["a"], batch_size=8))
    t.start()
    t.join(10)
    assert nlp.seen == [before]
    assert _blas_threads() == before


def test_ops_the_caller_chose_are_kept():
    """Only thinc's CPU default is replaced: a GPU's or Apple's ops, set by the caller, stay."""
    from thinc.api import NumpyOps, get_current_ops, set_current_ops, use_ops

    class TheirOps(NumpyOps):
        name = "theirs"

    with use_ops("numpy"):
        with matmul.loading():
            assert type(get_current_ops()) is NumpyOps and get_current_ops().use_blis is False
    theirs = TheirOps()
    before = get_current_ops()
    set_current_ops(theirs)
    try:
        with matmul.loading():
            assert get_current_ops() is theirs
    finally:
        set_current_ops(before)
