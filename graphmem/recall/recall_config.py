"""The knobs of recall in one typed place, with named presets (``context(..., config="facts")``).

Every number here was chosen on the LoCoMo development conversations (conv-26, 30, 41, 42, 43)
with ``graphmem bench recall`` and is explained in docs/recall.md; the other five conversations
are only ever used as a held-out check.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..core.errors import ValidationError

__all__ = ["PRESETS", "RecallConfig", "recall_config"]


class RecallConfig(BaseModel):
    """How ``context()`` finds, fuses and weighs what it shows."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # -- facts ------------------------------------------------------------------------------------
    facts: bool = Field(True, description="search facts (graph, topic, full-text and vector legs)")
    hops: int = Field(2, ge=0, le=2, description="how far from the subject (or the named entities) the graph leg goes")
    limit: int = Field(40, ge=1, le=500, description="facts taken from the fused fact ranking")
    # What a subject holds is context, not an answer to the question asked: the graph leg (every
    # fact of the subject and its neighbourhood, nearest first) counts half as much as the legs
    # that match the task's words, topics or meaning.
    fact_leg_weights: dict[str, float] = Field(
        default_factory=lambda: {"graph": 0.5, "topic": 1.0, "text": 1.0, "vector": 1.0},
        description="weight of each fact leg in reciprocal-rank fusion")
    # A tenant holds few facts: without a floor the nearest of three is "rank 1" of the vector leg
    # however far it is, and on LoCoMo every question naming Joanna ranked her allergy first. With
    # the bundled static embedder unrelated sentences sit at cosine ~0.0-0.2 and a fact about what
    # is asked at ~0.4-0.5; 0.65 is cosine 0.3 (docs/recall.md has the measurement).
    fact_vector_min_score: float = Field(0.65, ge=0.0, le=1.0,
                                         description="the vector index score ((1 + cosine) / 2) below which a fact "
                                                     "is not a vector hit")
    history: bool = Field(True, description="a question about the past also sees facts that no longer hold, "
                                            "marked superseded or expired")
    # -- weighing the fused fact score (docs/recall.md, "Rank") -----------------------------------
    # 60 is the k of Cormack, Clarke and Büttcher's reciprocal-rank fusion, which the message legs
    # use too; it also sets the scale of a score given outside fusion (an overlay slot with no
    # fused rank, a stored episode in search()): one first-ranked hit of one leg, 1 / (k + 1).
    fact_rrf_k: int = Field(60, ge=1, le=1000,
                            description="the k of the fact legs' reciprocal-rank fusion (sum of weight / (k + rank)); "
                                        "60 as in Cormack et al. 2009 and the message legs")
    # What the user said in this session (L0) is newer than anything stored and outranks it; an
    # inferred fact (L2) was never stated, so it ranks under what someone said (L1).
    authority_weights: dict[str, float] = Field(
        default_factory=lambda: {"L0": 1.3, "L1": 1.0, "L2": 0.6},
        description="fused-score factor of each authority: this session's word first, inferred facts last "
                    "(an authority not named weighs 1.0)")
    # A candidate is a guess nobody confirmed (extraction below its confidence bar): shown when
    # asked for, but under the confirmed facts it might be mistaken for.
    status_weights: dict[str, float] = Field(
        default_factory=lambda: {"confirmed": 1.0, "candidate": 0.5},
        description="fused-score factor of each status: an unconfirmed candidate counts half "
                    "(a status not named weighs 1.0)")
    # confidence scales the score between this floor (confidence 0) and 1 (confidence 1): a low
    # confidence lowers a fact, never hides it, since precision is kept by the candidate status.
    confidence_floor: float = Field(0.5, ge=0.0, le=1.0,
                                    description="the share of its fused score a fact of confidence 0 keeps "
                                                "(score x (floor + (1 - floor) x confidence))")
    # A fact last stated long ago (stale_after_days) may have changed: still shown, with its
    # warning, but under fresh facts of the same relevance.
    stale_weight: float = Field(0.8, ge=0.0, le=1.0,
                                description="fused-score factor of a fact that carries a stale warning")
    # An old document quoted about a slot is history: it is shown under the current value of the
    # slot it is about, never above it (half that value's score).
    quoted_weight: float = Field(0.5, ge=0.0, le=1.0,
                                 description="a quoted old claim's score as a share of the current value of its slot")
    # -- messages (and other sources with text) ----------------------------------------------------
    messages: bool = Field(True, description="search what was said: messages and other sources are recall items")
    message_limit: int = Field(40, ge=1, le=500, description="hits taken from each message leg before fusion")
    vector_oversample: int = Field(20, ge=1, le=200,
                                   description="the vector index spans tenants: ask it for at most this many times "
                                               "more (fewer when the tenant holds more of it)")
    # The vector leg's weight is small on purpose: with the bundled static embedder it finds the
    # evidence for far fewer LoCoMo questions than BM25 does (docs/recall.md), so it breaks ties and
    # brings what no word of the task matches, without reordering the keyword hits.
    leg_weights: dict[str, float] = Field(default_factory=lambda: {"text": 1.0, "text_cjk": 1.0, "vector": 0.05, "time": 0.5},
                                          description="weight of each message leg in reciprocal-rank fusion")
    speaker_boost: float = Field(1.0, ge=0.0, le=10.0,
                                 description="Lucene boost of a named person's own messages in the text leg")
    session_bonus: float = Field(0.004, ge=0.0, le=1.0, description="fused-score bonus for the asking session's messages")
    range_bonus: float = Field(0.01, ge=0.0, le=1.0,
                               description="fused-score bonus for messages inside a time range the task names")
    range_depth: int = Field(1000, ge=0, le=10_000,
                             description="with a named time range, how deep the time leg reads the text leg's hits "
                                         "for those said in the range")
    range_report_days: int = Field(7, ge=0, le=60,
                                   description="messages said this many days after a named range that look back "
                                               "(\"last Friday\", \"yesterday\") count as inside it")
    message_weight: float = Field(1.0, ge=0.0, le=10.0, description="message scores relative to fact scores")
    neighbours: int = Field(20, ge=0, le=100, description="for this many top messages, also the turn before and after")
    neighbour_weight: float = Field(0.8, ge=0.0, le=1.0,
                                    description="a neighbour's score as a share of the message it neighbours")
    neighbour_window_minutes: int = Field(180, ge=0, description="a neighbour is said at most this long before or after")
    rrf_k: int = Field(60, ge=1, le=1000, description="the k of reciprocal-rank fusion")
    # -- warnings ---------------------------------------------------------------------------------
    # Half a year: long enough that a preference stated once is not flagged a month later, short
    # enough that an address or an employer not restated for a year is.
    stale_after_days: int = Field(180, ge=1, description="a fact last stated this many days before the time asked "
                                                         "about is marked stale (and weighed by stale_weight)")
    # A week: what ends before the next week's work is worth a warning now.
    expiring_within_days: int = Field(7, ge=0, description="a fact that expires or ends within this many days of the "
                                                           "time asked about is marked expiring")


PRESETS: dict[str, RecallConfig] = {
    # facts and what was said, fused: the default
    "default": RecallConfig(),
    # structured memory only (graphmem before episodic recall): facts, no messages
    "facts": RecallConfig(messages=False),
    # a transcript with few facts: what was said first, facts as they come
    "conversation": RecallConfig(limit=20, message_limit=120),
}


def recall_config(config: RecallConfig | str | dict[str, Any] | None = None, **overrides: Any) -> RecallConfig:
    """A config from a preset name, a dict, a config or None (the default), with keyword overrides."""
    if config is None:
        base = PRESETS["default"]
    elif isinstance(config, RecallConfig):
        base = config
    elif isinstance(config, str):
        if config not in PRESETS:
            raise ValidationError(f"unknown recall preset {config!r}; presets: {', '.join(sorted(PRESETS))}")
        base = PRESETS[config]
    elif isinstance(config, dict):
        overrides = {**config, **overrides}
        base = PRESETS["default"]
    else:
        raise ValidationError("config must be a RecallConfig, a preset name or a dict")
    if not overrides:
        return base
    try:
        return RecallConfig.model_validate({**base.model_dump(), **overrides})
    except Exception as e:  # pydantic's ValidationError: name the bad knob in ours
        raise ValidationError(f"bad recall config: {e}") from e
