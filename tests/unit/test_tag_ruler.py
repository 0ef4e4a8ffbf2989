"""graphmem/extract/tag_ruler.py finds the attribute ruler's matches without its Matcher for the
one-token equality patterns; the annotations must be the stock ruler's, token for token."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.extract import RuleExtractor
from graphmem.extract.rules import ENGLISH_MODELS
from graphmem.extract.score import load
from graphmem.extract.tag_ruler import _Index, install

DATA = Path(__file__).parent.parent / "data" / "extraction"

# Words the ruler's exceptions are about (pronouns, auxiliaries, contractions, the two-token
# patterns "gon na", "y' all", "ai n't", "let 's") and plain words around them.
WORDS = ["I", "i", "you", "it", "her", "his", "its", "their", "that", "this", "those", "there", "here", "is", "'s",
         "are", "'re", "am", "'m", "was", "were", "been", "being", "do", "does", "did", "'d", "have", "has", "had",
         "'ve", "ai", "n't", "not", "gon", "na", "got", "ta", "let", "y'", "all", "c'm", "on", "'em", "'ll", "doin'",
         "nothin'", "ol'", "once", "then", "well", "can", "ca", "wo", "sha", "would", "something", "anyone", "nobody",
         "because", "if", "but", "so", "while", "myself", "themselves", "gets", "went", "Paris", "Anna", "dog",
         "house", "moved", "to", "in", "the", "a", "an", "yesterday", "May", "3", ".", ",", "?", "!", " ", "\n"]


def _annotations(doc) -> list[tuple]:
    return [(t.text, t.tag_, t.pos_, str(t.morph), t.dep_, t.head.i, t.lemma_, t.ent_iob_, t.ent_type_) for t in doc]


@pytest.fixture(scope="module")
def pipelines():
    """The extractor's pipeline (the index installed) and the stock one beside it."""
    import spacy

    fast = RuleExtractor().nlp("en")
    if "attribute_ruler" not in fast.pipe_names:
        pytest.fail("the English model is not installed (make install)")
    stock = spacy.load(_model_name(), exclude=["lemmatizer"])
    assert stock.get_pipe("attribute_ruler").match.__func__ is type(stock.get_pipe("attribute_ruler")).match
    return fast, stock


def _model_name() -> str:
    import importlib.util
    return next(n for n in ENGLISH_MODELS if importlib.util.find_spec(n))


def test_the_index_is_installed_and_keeps_only_the_harder_patterns_in_a_matcher(pipelines):
    fast, stock = pipelines
    ruler = fast.get_pipe("attribute_ruler")
    assert getattr(ruler.match, "__self__", None).__class__ is _Index
    index = ruler.match.__self__
    assert len(index.rest) < len(stock.get_pipe("attribute_ruler").matcher) // 4


def test_labelled_sets_get_the_stock_annotations(pipelines):
    fast, stock = pipelines
    texts = [r["text"] for name in ("tune.jsonl", "heldout.jsonl") for r in load(DATA / name)]
    texts += ["I'm gonna go, y'all.", "He ain't here.  There is a dog.", "Let's do it!\n\nI did.",
              "her book is hers", "  ", "", "doin' nothin' ol' 'em gotta c'm on", "She gets it; he got it."]
    for a, b in zip(fast.pipe(texts), stock.pipe(texts)):
        assert _annotations(a) == _annotations(b), a.text


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=24))
def test_any_sequence_of_the_exception_words_gets_the_stock_annotations(pipelines, words):
    fast, stock = pipelines
    text = " ".join(words)
    assert _annotations(fast(text)) == _annotations(stock(text))


def test_install_leaves_a_pipeline_without_a_ruler_alone():
    import spacy

    nlp = spacy.blank("en")
    install(nlp)
    assert nlp.pipe_names == []
