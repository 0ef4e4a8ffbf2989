"""Episodes: first-person activities with a time ("I went to a support group yesterday",
"I painted a sunset last week", "上周六我们去爬了黄山").

An :class:`Episode` says who did what, where and when — the time resolved against the message
(a day, or a range when the text is vague: "last week" is that Monday to the next).
:meth:`RuleExtractor.draw` (what the store's ingest uses) adds one ``episode`` event per episode
after the facts :meth:`RuleExtractor.extract` draws; the store keeps them as ``:Episode`` records.
The same gates as for facts apply: no questions, no "you…", no one else's activity, nothing
hypothetical or negated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from datetime import datetime, timedelta
from typing import Any

from .dates import find_dates, midnight
from .gates import is_question

__all__ = ["Episode", "episode_event", "episodes_en", "episodes_zh", "may_episode"]

_STATIVE = {"be", "was", "were", "been", "is", "am", "are", "had", "have", "has", "felt", "feel", "thought", "think",
            "knew", "know", "loved", "love", "liked", "like", "hoped", "hope", "wanted", "want", "needed", "need",
            "seemed", "meant", "guess", "guessed", "believed", "wished", "remembered", "understood", "agreed",
            "appreciated", "thanked", "missed", "bet", "sounded", "looked", "got", "realized", "realised",
            "decided", "wondered", "noticed", "mentioned", "said", "told", "asked", "heard", "saw", "found",
            "learned", "learnt", "tried", "managed", "kept", "made", "did", "do", "gave", "came", "get", "go",
            "could", "would", "should", "might", "must", "can", "will", "let"}
_VAGUE = re.compile(r"\b(?P<w>last (?:week|weekend|month|year|night|summer|winter|spring|fall|autumn)|this (?:morning|"
                    r"afternoon|weekend)|the other day|a (?:few|couple of) (?:days|weeks) ago|(?:\d+|a|two|three) "
                    r"(?:days?|weeks?|months?|years?) ago)\b", re.I)
_ZH_TIME = re.compile(r"昨天|前天|上周[一二三四五六日天]?|上个?星期[一二三四五六日天]?|上个?月|去年|前年|上周末|周末|那天|刚才|今天早上|今早")


_EN_CUE_WHO = re.compile(r"\b(?:I|[Ww]e)\b")
_EN_CUE_WHEN = re.compile(r"\b(?:yesterday|today|tonight|ago|last|this (?:morning|afternoon|evening|weekend)|other day|"
                          r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|"
                          r"june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|"
                          r"\d{4}-\d{1,2}-\d{1,2})\b", re.I)
_ZH_CUE_WHEN = re.compile(_ZH_TIME.pattern + r"|\d{1,2}月\d{1,2}[日号]|昨日|今天")


_EN_CUE_ACT = re.compile(r"\b(?:\w+ed|\w+ing|went|took|got|gotten|made|saw|met|ran|won|bought|began|built|came|did|"
                         r"done|drew|drove|ate|found|flew|gave|grew|heard|held|kept|led|left|lost|paid|put|read|rode|"
                         r"sang|sat|sent|sold|spent|spoke|taught|threw|wrote|caught|brought|chose|fed|fought|hung|"
                         r"quit|slept|swam|wore|begun|seen|taken|written|eaten|given|flown|ridden|won|forgot|forgotten|hit|"
                         r"dug|sang|stole|shot|lit|dealt|bent|built|sent|spent|able|chance|opportunity|set|cut|wore|beat|drank|"
                         r"swung|taught|sold|fell|broke|chose|woke|stood|felt|bent|spun|struck|dove|upset|had)\b", re.I)


_EN_CUE_LEAD = re.compile(r"(?:^|[.!?]\s+)(?:(?:just|finally|also|recently)\s+)?(?:\w+ed|went|took|got|made|saw|met|"
                          r"ran|won|bought|built|found|spent|wrote|finished)\b", re.I)  # "Took a trip to Rome."


def may_episode(text: str, lang: str) -> bool:
    """Could an episode be drawn here? A cheap test on the raw text (a first-person word, and a
    time word or a past or -ing verb form) that spares the parse for turns without one."""
    if lang == "zh":
        return "我" in text and _ZH_CUE_WHEN.search(text) is not None
    return (_EN_CUE_WHO.search(text) is not None and (_EN_CUE_WHEN.search(text) is not None
                                                      or _EN_CUE_ACT.search(text) is not None)) \
        or _EN_CUE_LEAD.search(text) is not None


@dataclass(frozen=True)
class Episode:
    who: str
    what: str
    where: str | None
    start: datetime | None  # None: before ``end``, the text does not say when
    end: datetime  # exclusive
    evidence: str  # "[a:b] sentence"
    planned: bool = False  # ahead of the message ("I'm going camping next month"): not done yet


def episode_event(e: "Episode") -> dict[str, Any]:
    """The ledger's ``episode`` event for a drawn episode (its source is the message)."""
    out: dict[str, Any] = {"op": "episode", "who": e.who, "what": e.what, "end": e.end.isoformat(),
                           "evidence": e.evidence}
    if e.start is not None:
        out["start"] = e.start.isoformat()
    if e.planned:
        out["planned"] = True
    if e.where:
        out["where"] = e.where
    return out


_AGO = re.compile(r"\b(?:about |around |almost |nearly |over )?(?P<n>\d+|a|an|one|two|three|four|five|six|a few|a couple of) "
                  r"(?P<unit>day|weekend|week|month|year)s? ago\b", re.I)
_N = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "a few": 3, "a couple of": 2}
_UNIT = {"day": 1, "week": 7, "month": 30, "year": 365}


_SEASON = re.compile(r"\blast (?P<s>summer|winter|spring|fall|autumn)\b", re.I)
_SEASONS = {"spring": (3, 6), "summer": (6, 9), "fall": (9, 12), "autumn": (9, 12), "winter": (12, 15)}
_IDIOM = re.compile(r"\blike (?:just )?(?:yesterday|last week)\b", re.I)


_LAST_WD = re.compile(r"\blast (?P<wd>mon|tue|wed|thu|fri|sat|sun)(?:day|sday|nesday|rsday|urday|s|r|rs)?\b\.?", re.I)
_WD = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
_ON_ORD = re.compile(r"\bon the (?P<d>[1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b", re.I)


def _latest_day_of_month(day: int, today: datetime) -> tuple[datetime, datetime] | None:
    """The latest date with this day of the month, up to ``today`` (this month's or last month's)."""
    for months_back in (0, 1, 2):
        y, m = today.year, today.month - months_back
        while m < 1:
            y, m = y - 1, m + 12
        try:
            d = today.replace(year=y, month=m, day=day)
        except ValueError:
            continue  # no 31st this month
        if d <= today:
            return d, d + timedelta(days=1)
    return None


_ON_WD = re.compile(r"\b[Oo]n (?P<wd>Mon|Tue|Wed|Thu|Fri|Sat|Sun)(?:day|sday|nesday|rsday|urday)\b")


@lru_cache(maxsize=2048)  # pure; asked for the same sentence by the episode rules and the story's time
def _time_span(sentence: str, at: datetime) -> tuple[int, int] | None:
    """Where the time expression _when used sits in the sentence."""
    for rx in (_AGO, _SEASON, _LAST_WD, _ON_WD, _VAGUE):
        m = rx.search(sentence)
        if m:
            return m.span()
    dates = [d for d in find_dates(sentence, at) if d.start < midnight(at) + timedelta(days=1)]
    return dates[0].span if dates else None


@lru_cache(maxsize=2048)
def _when(sentence: str, at: datetime) -> tuple[datetime, datetime] | None:
    today = midnight(at)
    if _IDIOM.search(sentence):
        return None  # "feels like just yesterday"
    season = _SEASON.search(sentence)
    if season:
        a, b = _SEASONS[season.group("s").lower()]
        year = today.year if today.month >= b else today.year - 1
        if a == 12 and today.month < 3:
            year -= 1
        start = datetime(year, a, 1, tzinfo=today.tzinfo)
        end = datetime(year + (b > 12), (b - 1) % 12 + 1, 1, tzinfo=today.tzinfo)
        return start, end
    last = _LAST_WD.search(sentence)
    if last:  # "last Friday": the latest Friday before the message's day
        back = (today.weekday() - _WD.index(last.group("wd").lower())) % 7 or 7
        return today - timedelta(days=back), today - timedelta(days=back - 1)
    ago = _AGO.search(sentence)
    if ago:  # "about a year ago": that long before the message, give or take half a unit
        n = int(ago.group("n")) if ago.group("n").isdigit() else _N[ago.group("n").lower()]
        if ago.group("unit").lower() == "weekend":  # "two weekends ago": that Saturday and Sunday
            saturday = today - timedelta(days=today.weekday()) - timedelta(days=2 + 7 * (n - 1))
            return saturday, saturday + timedelta(days=2)
        unit = _UNIT[ago.group("unit").lower()]
        if ago.group("n").lower() in ("a few", "a couple of"):  # two to four, one to three units back
            lo, hi = (2, 4) if ago.group("n").lower() == "a few" else (1, 3)
            return today - timedelta(days=hi * unit), min(today - timedelta(days=lo * unit - 1), today + timedelta(days=1))
        center = today - timedelta(days=n * unit)
        half = timedelta(days=max(1, unit // 2))
        return center - half, min(center + half + timedelta(days=1), today + timedelta(days=1))
    vague = _VAGUE.search(sentence)
    if vague and vague.group("w").lower() in ("last week", "last weekend", "last month", "last year", "last night"):
        return _vague(vague.group("w").lower(), today)
    for d in find_dates(sentence, at):
        if d.start < today + timedelta(days=1):
            end = d.end or ((d.start + timedelta(days=32)).replace(day=1) if d.month_only else d.start + timedelta(days=1))
            return d.start, end
    m = _VAGUE.search(sentence)
    return _vague(m.group("w").lower(), today) if m else None


def _vague(w: str, today: datetime) -> tuple[datetime, datetime]:
    monday = today - timedelta(days=today.weekday())
    if w == "last week":
        return monday - timedelta(days=7), monday
    if w == "last weekend":
        return monday - timedelta(days=2), monday
    if w == "last night":
        return today - timedelta(days=1), today + timedelta(days=1)
    if w.startswith("this "):
        return today, today + timedelta(days=1)
    if w == "last month":
        first = today.replace(day=1)
        return (first - timedelta(days=1)).replace(day=1), first
    if w == "last year":
        return today.replace(year=today.year - 1, month=1, day=1), today.replace(month=1, day=1)
    # the other day, a few days ago, N weeks ago, a season: a vague stretch before the message
    return today - timedelta(days=45 if ("month" in w or "year" in w or "summer" in w) else 14), today + timedelta(days=1)


_LIGHT = {"got", "get", "made", "make", "did", "do", "gave", "give", "found", "saw", "tried", "learned", "learnt",
          "came", "took", "take", "started", "began", "kept", "gotten"}
_NOT_ACTS = (_STATIVE - _LIGHT) | {"wait", "waiting", "bet", "hoping", "thinking", "wondering", "feeling", "looking",
                                   "planning", "considering", "going", "trying", "gonna", "gon", "getting", "doing", "having",
                                   "enjoying", "loving", "liking", "missing", "struggling", "dealing", "waiting",
                                   "hanging", "living", "staying", "sticking", "focusing", "keeping", "learning",
                                   "deciding", "scared", "excited", "thrilled", "stoked", "pumped", "interested",
                                   "tired", "worried", "bored", "amazed", "surprised", "hooked", "blessed"}
_GATE_HEADS = {"wish", "hope", "want", "plan", "imagine", "suppose", "think", "if", "would", "could", "should", "might",
               "dream", "consider", "considering", "thinking", "planning", "hoping", "wanted", "wished", "hoped",
               "planned", "thought", "imagined", "pretend", "mean", "meant", "wonder", "tried", "try", "need",
               "needed", "promise", "promised", "decide", "decided", "gonna", "going"}
_FUTURE = re.compile(r"\b(?:tomorrow|tonight|next|later (?:this|today|on)|soon|gonna|going to|will|'ll|plan(?:ning)? to|"
                     r"this (?:weekend|week|month|year|summer|fall|winter|spring)|in (?:a|two|three|\d+) (?:days?|weeks?|"
                     r"months?))\b", re.I)
# A time ahead said in a sentence whose verb is in the past ("I signed up for the race next week"
# still tells that the signing-up was done, but what it leads to is ahead: keep only clear deeds).
_AHEAD_TIME = re.compile(r"\b(?:tomorrow|tonight|next (?:week|weekend|month|year|time|summer|fall|winter|spring|"
                         r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)|later (?:this|today|on)|gonna|going to|will|'ll|"
                         r"in (?:a|two|three|\d+) (?:days?|weeks?|months?))\b", re.I)
_LATELY = re.compile(r"\b(?:lately|recently|these days|for (?:a few|several|some|the past few|the last few) "
                     r"(?:weeks|days))\b", re.I)
_PAST_STATE = re.compile(r"\b(?:used to|when I was (?:a |little|young|small|\d+)|as a (?:kid|child|teen)|growing up|"
                         r"back in (?:the day|high school|college))\b", re.I)
_PRONOUN_OBJ = {"it", "that", "this", "them", "one", "those", "these", "something", "anything", "everything",
                "nothing", "stuff", "so", "lot"}


_IDIOM_ACT = re.compile(r"^\w+ (?:my |our )?(?:fingers|a (?:real |big |huge )?difference|sense|it (?:work|happen)|"
                        r"the most of|my (?:day|week)|a point|sure|up my mind|peace|progress|my best|our best|an effort|"
                        r"(?:your|his|her|their|our|my) back\b|(?:this|it) (?:in the bag|covered))",
                        re.I)
_TELL = {"tell", "told", "say", "said", "share", "shared", "mention", "mentioned", "announce", "know", "guess"}
_PAST_FORMS = {"went", "took", "got", "made", "saw", "met", "ran", "won", "bought", "built", "found", "spent", "wrote",
               "finished", "visited", "started", "joined", "tried", "watched", "painted", "baked", "cooked", "signed",
               "adopted", "attended", "hiked", "played", "read", "finally"}
_MENTAL = {"realize", "realise", "understand", "appreciate", "believe", "feel", "think", "accept", "enjoy", "love",
           "like", "miss", "wonder", "worry", "care", "hope", "wish", "want", "need", "see", "notice", "remember"}
_HABIT = {"always", "never", "usually", "often", "sometimes", "ever", "rarely", "normally", "generally"}
_LEAD_ADV = {"just", "finally", "also", "recently", "actually", "even", "then", "so", "and", "already", "lately"}
# Verbs (by lemma) that say what the speaker wants, plans, thinks or remembers, not what they did:
# "I've been wanting to play it", "we planned to go", "I forgot to mention…", "what I'm aiming for".
_NOT_DEEDS = {"want", "hope", "wish", "intend", "need", "long", "crave", "expect", "mention", "mean", "dream",
              "consider", "think", "wonder", "feel", "love", "like", "hate", "miss", "guess", "bet", "seem",
              "appreciate", "realize", "realise", "imagine", "suppose", "deserve", "owe", "afford", "hear", "say",
              "tell", "ask", "inspire", "remind", "wait", "struggle", "know"}
# … and verbs that do so only with a clause after them: "we planned to play" (not "I planned a party"),
# "I forgot to mention…" (not "I forgot my lines"), "what I'm aiming for".
_FRAME_VERBS = {"plan", "forget", "remember", "aim", "decide", "try", "attempt", "promise", "agree", "offer"}
# A habit, not one episode: "every weekend", "on the weekends", "on Sundays", "each morning".
_IRREGULAR = {"forget": ("forgot", "forgotten"), "know": ("knew", "known"), "mean": ("meant",), "think": ("thought",), "feel": ("felt",),
              "hear": ("heard",), "say": ("said",), "tell": ("told",), "bet": ("bet",), "take": ("took", "taken"),
              "long": ("longed",)}


def _forms(bases: set[str]) -> frozenset[str]:
    """Every inflected form of the verbs (the pipeline runs without a lemmatizer): want, wants,
    wanted, wanting; plan, planned, planning; hope, hoped, hoping; forget, forgot…"""
    out: set[str] = set()
    for b in bases:
        stem = b[:-1] if b.endswith("e") and not b.endswith("ee") else b
        double = b + b[-1] if re.search(r"[^aeiou][aeiou][bdgkmnpt]$", b) and len(b) <= 4 else b
        out |= {b, b + "s", b + "es", stem + "ed", stem + "ing", double + "ed", double + "ing",
                b[:-1] + "ies" if b.endswith("y") else b, b[:-1] + "ied" if b.endswith("y") else b}
        out |= set(_IRREGULAR.get(b, ()))
    return frozenset(out)


_NOT_DEED_FORMS = _forms(_NOT_DEEDS)
_MENTAL_FORMS = _forms(_MENTAL | _NOT_DEEDS | {"struggle", "cope", "heal", "recover", "stress", "worry", "rest",
                                              "relax", "chill", "wait", "hope", "pray", "grow", "improve", "try",
                                              "go", "do", "get", "be", "have", "feel", "work"})
_FRAME_FORMS = _forms(_FRAME_VERBS)
_TAKE = _forms({"take"})
_HABIT_TIME = re.compile(r"\b(?:every|each) (?:single )?(?:day|night|morning|evening|week|weekend|month|year|summer|"
                         r"winter|time|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b|\bon (?:the )?(?:weekends|weekdays|"
                         r"(?:mon|tues|wednes|thurs|fri|satur|sun)days)\b|\bmost (?:days|nights|mornings|evenings|"
                         r"weekends)\b|\bin the (?:mornings|evenings)\b|\bwhenever\b|\bonce a (?:day|week|month|year)\b|"
                         r"\b(?:daily|weekly|nightly)\b|\b(?:a few|several|many|so many|countless|a couple of|a couple|two|three|four|five|"
                         r"\d+|a hundred|a million) times\b|\bonce or twice\b", re.I)
# "It's been a while since I walked the dogs": an absence, not an episode.
_ABSENCE = re.compile(r"\b(?:been|it's|its) (?:a (?:long )?while|ages|forever|so long|too long|a long time|years|months|"
                      r"weeks) since\b", re.I)
# Nouns that say nothing of what was done on their own ("spent our time", "took a while").
_EMPTY_NOUNS = {"time", "while", "way", "lot", "bit", "thing", "things", "stuff", "moment", "moments", "part",
                "kind", "sort", "one", "ones", "trial", "courage", "guts", "minute",
                "minutes", "hours", "ages", "forever", "chance", "opportunity", "sense", "idea", "deal", "patience"}
# "had" says what only with an event for its object: "I had a picnic / a tough exam / a chat with…",
# not "I had a blast / a feeling / a dog".
_EVENT_NOUNS = {"picnic", "party", "barbecue", "bbq", "cookout", "potluck", "dinner", "lunch", "breakfast", "brunch",
                "meal", "feast", "chat", "talk", "conversation", "call", "meeting", "interview", "appointment",
                "session", "lesson", "class", "exam", "test", "quiz", "game", "match", "tournament", "race",
                "competition", "recital", "concert", "gig", "show", "performance", "audition", "rehearsal",
                "practice", "workout", "training", "hike", "walk", "run", "ride", "swim", "trip", "vacation",
                "holiday", "getaway", "celebration", "ceremony", "wedding", "reunion",
                "get-together", "gathering", "sleepover", "playdate", "date", "visit", "tour", "surgery",
                "operation", "checkup", "check-up", "accident", "crash", "fall", "injury", "fight", "argument",
                "breakup", "shoot", "photoshoot", "screening", "premiere", "festival", "fair", "parade", "camp",
                "retreat", "workshop", "seminar", "conference", "presentation", "speech", "meetup", "call-out",
                "debate", "sale", "fundraiser", "drive", "event", "festivities", "adventure", "outing",
                "excursion", "road trip", "staycation", "movie night", "game night", "dance", "setback", "baby",
                "bonfire", "jam", "gathering", "garage sale", "yard sale", "career-high", "breakthrough", "sleepover",
                "karaoke", "barbeque", "date night", "girls night", "camping trip", "family reunion", "road test"}
# "Went biking", "we went camping": going with an activity says what without a noun.
_GO_FORMS = {"went", "go", "gone", "going"}
_COPULA_FEEL = {"feel", "feels", "felt", "feeling", "am", "is", "are", "was", "were", "be", "been", "being", "'m",
                "'re", "'s", "seem", "seemed", "seems", "look", "looked", "looks", "get", "got", "getting"}
_THIRD_POSS = {"his", "her", "their", "its"}
# Countries, continents and states are not what "trip_city" means (a city); see gates.py.


def _light_ok(verb: Any, objs: list[Any]) -> bool:
    """A light verb says what only with its object ("got a puppy", not "got better"), or as
    "got back from …", "started going to …"."""
    if any(c.dep_ == "dobj" and c.pos_ in ("NOUN", "PROPN") and c.lower_ not in ("chance", "opportunity", "time",
                                                                                "feeling", "idea", "sense", "way")
           for c in objs):
        return True
    if verb.lower_ in ("got", "came") and any(c.dep_ == "prt" and c.lower_ == "back" for c in objs) \
            and any(c.dep_ == "prep" and c.lower_ == "from" for c in objs):
        return True
    return verb.lower_ in ("started", "began") and any(c.dep_ == "xcomp" and c.tag_ == "VBG" and c.lower_ not in
                                                      _NOT_ACTS for c in objs)


def _implied_i(sent: Any, verb: Any, tense: str | None) -> bool:
    """A chat sentence that opens with a past verb and no subject ("Just finished a painting",
    "Took a short trip to Rome") is the speaker's."""
    if tense != "past" or verb.tag_ not in ("VBD", "VB") or verb.dep_ != "ROOT":
        return False
    before = [t for t in sent if t.i < verb.i and not t.is_punct]
    if any(c.dep_ in ("dobj", "dative") and c.lower_ in ("me", "us") for c in verb.children):
        return False  # "Reminded me of my mom": something else reminded
    if verb.lower_ in _TAKE and any(c.dep_ == "dobj" and c.lower_ in _EMPTY_NOUNS for c in verb.children):
        return False  # "Took some trial and error but…": it took
    return all(t.lower_ in _LEAD_ADV for t in before) and verb.lower_ not in _STATIVE


def _plan_head(verb: Any) -> Any:
    """The verb that makes ``verb`` a plan — "going" in "I'm going to visit", ``verb`` itself in
    "We'll drive to…" — or None."""
    if verb.tag_ != "VB" or verb.pos_ != "VERB":
        return None
    if verb.dep_ == "xcomp" and verb.head.lower_ in ("going", "gon") and any(
            c.dep_ == "aux" and c.lower_ in ("am", "'m", "are", "'re") for c in verb.head.children):
        return verb.head
    if any(c.dep_ == "aux" and c.lower_ in ("will", "'ll") for c in verb.children):
        return verb
    return None


def _ahead(sentence: str, at: datetime) -> tuple[datetime, datetime] | None:
    """When a plan is: the first date after the message's day the sentence names (a day, a
    range, a month), "tonight", or "this weekend"."""
    today = midnight(at)
    for d in find_dates(sentence, at):
        if d.start >= today + timedelta(days=1) or (d.start == today and re.search(r"\btonight\b", sentence, re.I)):
            end = d.end or ((d.start + timedelta(days=32)).replace(day=1) if d.month_only else d.start + timedelta(days=1))
            return d.start, end
    if re.search(r"\bthis weekend\b", sentence, re.I) and today.weekday() < 5:
        saturday = today + timedelta(days=5 - today.weekday())
        return saturday, saturday + timedelta(days=2)
    return None


def _clause_ok(verb: Any, modal_ok: bool = False) -> bool:
    """No negation, modal, "if", and no wish / plan / hope / think above the verb ("will" in a
    plan, with ``modal_ok``)."""
    if any(c.dep_ == "neg" or (c.dep_ == "aux" and c.tag_ == "MD" and not (modal_ok and c.lower_ in ("will", "'ll")))
           or (c.dep_ == "mark" and c.lower_ in
           ("if", "unless", "whether", "until", "once")) for c in verb.children):
        return False
    up = verb
    while up.dep_ in ("ccomp", "xcomp", "advcl", "conj", "acl", "relcl", "pcomp") and up.head.i != up.i:
        if up.dep_ == "ccomp" and up.head.lower_ in _TELL:
            return True  # "I wanted to tell you I just joined a writers group": told as a fact
        if up.dep_ == "conj" and any(c.dep_ == "nsubj" for c in up.children) and any(
                c.dep_ == "cc" and c.lower_ in ("but", "and", "so", "yet") for c in up.head.children):
            return True  # "I didn't dress up, but I wore my scarf": a clause of its own
        thought = up.dep_ == "ccomp"
        up = up.head
        if up.lower_ in _GATE_HEADS or (thought and up.lower_ in _NOT_DEED_FORMS and up.tag_ == "VBG") or any(
                c.dep_ == "neg" or (c.dep_ == "aux" and c.tag_ == "MD") or
                (c.dep_ == "mark" and c.lower_ in ("if", "unless", "whether")) for c in up.children):
            return False  # "Knowing I'm helping…": the content of a thought
    return True


def _tense(verb: Any) -> str | None:
    """'past' (went, have gone), 'now' (am going, have been painting), else None."""
    auxes = [c.lower_ for c in verb.children if c.dep_ in ("aux", "auxpass")]
    if verb.tag_ == "VBD" and not auxes:
        return "past"
    if verb.tag_ == "VB" and not auxes and verb.i == verb.sent.start and verb.lower_ in _PAST_FORMS:
        return "past"  # "Took a short trip to Rome." (tagged as an imperative; "took" cannot be one)
    if verb.tag_ == "VBN" and any(a in ("have", "'ve", "has", "'s", "had", "'d") for a in auxes) \
            and not any(a in ("been", "be") for a in auxes):
        return "past"
    if verb.tag_ == "VBG" and any(a in ("am", "'m", "are", "'re", "been") for a in auxes) \
            and not any(a in ("was", "were") for a in auxes):
        return "now"
    return None


def narrative_time(sent: Any, at: datetime, carried: tuple[datetime, datetime] | None
                   ) -> tuple[datetime, datetime] | None:
    """The time a story in the past is set in, for the next sentence of the same message: a
    sentence whose main verb is in the simple past and that states a past time ("Last weekend I
    had a picnic with friends.") sets it; a later simple-past sentence without a time of its own
    ("We chilled under the trees.") keeps it; anything else (a present or future sentence, a
    question, a time ahead) ends it."""
    if sent is None or not sent.doc.has_annotation("DEP") or is_question(sent.text, "en"):
        return None
    root = sent.root
    past = root.tag_ == "VBD" and not any(c.dep_ in ("aux", "auxpass") for c in root.children)
    if not past:
        return None
    when = _when(sent.text, at)
    if when is None:
        # "I wanted to bring that magic home.": what the speaker wanted or thought ends the story
        return None if root.lower_ in _NOT_DEED_FORMS else carried
    if when[1] > midnight(at) + timedelta(days=1) or _HABIT_TIME.search(sent.text):
        return None  # a time ahead, or a habit
    return when


def episodes_en(sent: Any, at: datetime, speaker: str,
                carried: tuple[datetime, datetime] | None = None) -> list[Episode]:
    """The episodes of one parsed English sentence. ``carried``: the time of the story the
    previous sentences of the message told (:func:`narrative_time`), for a simple-past verb of
    this sentence that states no time of its own."""
    text = sent.text
    if is_question(text, "en") or re.match(r"^\s*(?:if|maybe|perhaps)\b", text, re.I) or _PAST_STATE.search(text) \
            or _IDIOM.search(text) or _HABIT_TIME.search(text) or _ABSENCE.search(text):
        return []
    when = _when(text, at)
    tspan = _time_span(text, at)
    span = (sent.start_char + tspan[0], sent.start_char + tspan[1]) if tspan is not None and when is not None else None
    today = midnight(at)
    out: list[Episode] = []
    out += _was_at(sent, at, speaker, when)
    for verb in sent:
        if verb.pos_ != "VERB" or (verb.lower_ in _NOT_ACTS and not (verb.lower_ == "go" and _plan_head(verb))
                                   and not _had_event(verb) and not _doing_what(verb)) \
                or verb.lower_ in _NOT_DEED_FORMS or (verb.lower_ in _FRAME_FORMS and (
                    any(c.dep_ in ("xcomp", "ccomp") for c in verb.children)
                    or not any(c.dep_ == "dobj" for c in verb.children))):
            continue
        if verb.dep_ == "conj" and (verb.head.pos_ not in ("VERB", "AUX") or (
                verb.head.lower_ in _COPULA_FEEL and not any(c.dep_ in ("nsubj", "dobj") for c in verb.children))):
            continue  # "hopeful and inspired about …", "feeling calm and refreshed": a state
        if any(c.dep_ in ("mark", "intj", "prep") and c.lower_ == "like" and c.i < verb.i for c in verb.children) \
                or any(c.dep_ == "mark" and (c.lower_ in ("whenever", "though") or (c.lower_ in ("when", "while") and
                                                                                   verb.tag_ == "VBG"))
               for c in verb.children):
            continue  # "whenever I…", "when I'm playing…", "(felt) like I got…": a frame, not an episode
        if verb.dep_ in ("relcl", "advcl", "acl") and verb.head.lower_ in ("time", "times") or \
                verb.dep_ == "relcl" and (verb.tag_ != "VBD" or any(c.dep_ in ("aux", "auxpass")
                                                                    for c in verb.children)):
            continue  # "the last time we saw each other"; "the people we've lost"
        head = _plan_head(verb)  # "I'm going to visit …", "We'll drive to …": the verb that says so
        done = _done_by(verb) if head is None else None  # "I got to feed a horse": "got" says it was done
        if verb.dep_ not in ("ROOT", "conj", "ccomp", "advcl", "relcl") and head is None and done is None:
            continue
        if verb.dep_ == "relcl" and (verb.head.pos_ != "NOUN" or any(c.dep_ in ("dobj", "pobj") or c.tag_ == "WRB"
                                                                     for c in verb.children)):
            continue  # "a trip I took last summer": the trip is what was taken
        tense = "plan" if head is not None else ("past" if done is not None else _tense(verb))
        if tense is None:
            continue
        owner = head if head is not None else (done if done is not None else verb)
        subjs = [c for c in owner.children if c.dep_ in ("nsubj", "nsubjpass", "expl")]
        # the subject nearest before the verb ("Nate, after finishing it I got…" parses "Nate" as one
        # too); with "My colleagues and I went…" parsed as two subjects, the speaker is one of them
        subj = next((c for c in subjs if c.lower_ in ("i", "we")), None) if any(
            c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in subjs) else (subjs[0] if subjs else None)
        if subj is None and owner.dep_ == "conj":
            subj = next((c for c in owner.head.children if c.dep_ == "nsubj"), None)
        if subj is None and not _implied_i(sent, verb, tense):
            continue
        if subj is not None and subj.lower_ not in ("i", "we") and not any(
                c.dep_ == "conj" and c.lower_ in ("i", "me") for c in subj.children):
            continue  # "Anthony and I went to …" is the speaker's too
        if not _clause_ok(owner, modal_ok=tense == "plan") or _habitual(verb):
            continue
        if tense == "now" and verb.tag_ == "VBG" and _LATELY.search(text) and verb.lower_ not in _MENTAL_FORMS \
                and not any(c.dep_ in ("dobj", "prep", "xcomp", "ccomp", "prt") and c.lower_ != "lot" and c.i > verb.i
                            for c in verb.children) and not _FUTURE.search(text):
            # "I've been painting a lot lately": an activity going on for a while, up to the message
            a, b = verb.idx, verb.idx + len(verb.text)
            out.append(Episode(speaker, verb.text, None, today - timedelta(days=30), today + timedelta(days=1),
                               f"[{a}:{b}] {text.strip()}"))
            continue
        objs = [c for c in verb.children if c.dep_ in ("dobj", "prt", "prep", "xcomp", "dative", "acomp") and c.i > verb.i
                or (c.dep_ == "advcl" and c.tag_ == "VBG" and c.i == verb.i + 1 and verb.lower_ in _GO_FORMS)]
        if any(c.dep_ == "dobj" and c.lower_ in _PRONOUN_OBJ for c in objs):
            continue  # "I painted it": what "it" is lies in another message
        if verb.lower_ in ("got", "gotten") and any(c.dep_ == "aux" for c in verb.children):
            continue  # "I've got a story": have
        if verb.lower_ in ("got", "get", "gotten") and any(g.tag_ == "VBG" and g.dep_ in ("acl", "xcomp", "ccomp")
                                                           for c in [verb, *verb.children] for g in c.children):
            continue  # "I got some offers going on my store": set them going, not received them
        if any(c.dep_ == "xcomp" and (c.lower_ in _NOT_ACTS or c.lower_ in _STATIVE or c.lower_ in _MENTAL)
               for c in verb.children):
            continue  # "I'm starting to realize that …": a thought, not a deed
        if _IDIOM_ACT.search(verb.sent.text[verb.idx - verb.sent.start_char:]):
            continue
        if verb.lower_ in _LIGHT and verb.dep_ != "relcl" and not _light_ok(verb, objs):
            continue  # "I got better", "I made it": a light verb says what only with its object
        keep = [verb] + [t for c in objs for t in c.subtree]
        dates = [t for t in keep if t.ent_type_ in ("DATE", "TIME")]
        keep = sorted({t.i: t for t in keep if t not in dates}.values(), key=lambda t: t.i)
        # the contiguous run from the verb
        run = [keep[0]]
        for t in keep[1:]:
            if t.i != run[-1].i + 1:
                break
            run.append(t)
        cut = next((k for k, t in enumerate(run) if (t.dep_ == "cc" and t.head.pos_ in ("VERB", "AUX")) or (
            t.tag_ in ("WRB", "WP", "WDT") and t.head.dep_ == "relcl" and k > 1) or (t.dep_ == "mark" and k > 0 and t.head.dep_ == "advcl" and (
                t.head.head.i == verb.i or t.head.head in objs)) or (
            t.is_punct and (t.text not in "-–/'\"“”" or run[k - 1].whitespace_ and t.text in "-–/'"))), len(run))
        run = run[:cut]
        while run and ((run[-1].dep_ in ("prep", "cc", "det", "poss", "aux", "mark") and not _stranded(run[-1], verb))
                       or run[-1].is_punct):
            run.pop()
        while len(run) > 1 and (run[-1].dep_ in ("acl", "advmod", "npadvmod") and not any(
                c.i > run[-1].i for c in run[-1].children) or (run[-1].tag_ in ("TO", "IN", "WDT", "WRB")
                                                              and not _stranded(run[-1], verb))
                or (run[-1].tag_ == "VB" and run[-2].tag_ == "TO")
                or (len(run) > 2 and run[-1].dep_ == "pobj" and run[-1].lower_ in _PRONOUN_OBJ
                    and run[-2].dep_ == "prep" and run[-2].head.i == verb.i)):
            run.pop()  # "… called", "… now", "… to", "… to try", "… about it"
        if tspan is not None and when is not None:
            inside = next((k for k, t in enumerate(run) if tspan[0] <= t.idx - sent.start_char < tspan[1]), None)
            if inside is not None:  # "went fishing at the reservoir two weekends ago" (parsed as "at … weekends")
                run = run[:inside]
                while run and (run[-1].dep_ in ("prep", "cc", "det", "poss", "nummod", "amod") or run[-1].is_punct):
                    run.pop()
                if not run:
                    continue
        heads = {verb.i} | {c.i for c in objs if c.pos_ == "VERB"}
        if any((t.dep_ == "pobj" or (t.dep_ == "dobj" and t.head.i in heads)) and t.lower_ in _PRONOUN_OBJ for t in run):
            continue  # "working on one", "started writing another one": on what?
        if _garbled(run, verb):
            continue
        go_doing = verb.lower_ in _GO_FORMS | {"started", "began", "begun", "start"} and len(run) >= 2 and run[1].tag_ == "VBG" and run[1].dep_ in (
            "xcomp", "advcl") and run[1].lower_ not in _NOT_ACTS  # "we went biking"
        if verb.dep_ != "relcl" and not go_doing and (len(run) < 2 or not any(
                t.pos_ in ("NOUN", "PROPN") and t.lower_ not in _PRONOUN_OBJ and t.lower_ not in _EMPTY_NOUNS
                for t in run[1:])):
            continue  # "I went there", "we spent our time": no what
        a, b = run[0].idx, run[-1].idx + len(run[-1].text)
        while b > a and not sent.doc.text[b - 1].isalnum():
            b -= 1  # "for the first time-"
        if verb.dep_ == "relcl":  # "this pride parade I went to": the noun, the clause
            tail = [verb] + [t for c in objs if c.dep_ in ("prt", "prep") and not list(c.children) for t in [c]]
            a, b = verb.head.left_edge.idx, max(t.idx + len(t.text) for t in tail)
            if verb.head.left_edge.i < sent.start or verb.head.lower_ in _PRONOUN_OBJ:
                continue
        what = sent.doc.text[a:b]
        if what.count('"') % 2 and '"' in sent.doc.text[b:b + 2]:
            what += '"'  # a quoted name keeps its closing quote ('… called "Finding Freedom."')
        place = next((e.text for e in sent.ents if e.label_ in ("GPE", "LOC", "FAC") and a <= e.start_char < b), None)
        evidence = f"[{a}:{b}] {text.strip()}"
        if tense == "plan" or (tense == "now" and _FUTURE.search(text)):
            # "I'm hiking with some buddies this weekend": a plan, kept only with a time ahead
            ahead = _ahead(text, at)
            if ahead is not None:
                out.append(Episode(speaker, what, place, ahead[0], ahead[1], evidence, planned=True))
            continue
        at_when, at_span = when, span  # this verb's (a weekday told in the past is behind)
        on_day = (_ON_WD.search(text) or _ON_ORD.search(text)) if tense == "past" else None
        if on_day and (when is None or when[0] >= today + timedelta(days=1)):
            # "On Friday, I got great news", "… on the 15th": told in the past, the latest such day
            # up to the message's
            if on_day.re is _ON_WD:
                back = (today.weekday() - _WD.index(on_day.group("wd").lower())) % 7 or 7
                at_when = (today - timedelta(days=back), today - timedelta(days=back - 1))
            else:
                at_when = _latest_day_of_month(int(on_day.group("d")), today)
            at_span = (sent.start_char + on_day.start(), sent.start_char + on_day.end()) if at_when else None
        if at_when is not None and at_span is not None and (_attached(sent, verb, at_span) or (
                done is not None and _attached(sent, done, at_span))):
            if at_when[0] >= today + timedelta(days=1):
                continue  # a plan, not an episode
            if tense == "now" and at_when[1] <= today:
                # "Last week I talked to a friend and we're figuring out ideas": going on now
                out.append(Episode(speaker, what, place, today, today + timedelta(days=1), evidence))
                continue
            out.append(Episode(speaker, what, place, at_when[0], at_when[1], evidence))
        elif at_when is None and carried is not None and tense == "past" and verb.tag_ == "VBD" and not any(
                c.dep_ in ("aux", "auxpass") for c in verb.children):
            # "Last weekend I had a picnic. We chilled under the trees.": the story's time
            out.append(Episode(speaker, what, place, carried[0], carried[1], evidence))
        elif tense == "now" and _FUTURE.search(text):
            continue  # "I'm hiking with some buddies this weekend": a plan
        elif tense == "now" and _FUTURE.search(sent.doc.text):
            continue  # "… this weekend. We're checking out a new trail": the plan of another sentence
        elif tense == "now" and _LATELY.search(text):
            # "I've been painting a lot lately": going on for a while, up to the message
            out.append(Episode(speaker, what, place, today - timedelta(days=30), today + timedelta(days=1), evidence))
        elif tense == "now":
            out.append(Episode(speaker, what, place, today, today + timedelta(days=1), evidence))
        elif tense == "past" and at_when is None and not _AHEAD_TIME.search(text):
            # done before the message; the text does not say when
            out.append(Episode(speaker, what, place, None, today + timedelta(days=1), evidence))
    return out


_NOT_DONE_OBJ = {"well", "good", "great", "ok", "okay", "fine", "best", "job", "work", "thing", "things", "stuff",
                 "anything", "something", "everything", "nothing", "lot", "bit", "same", "right", "wrong", "part",
                 "research", "alright", "awesome", "amazing", "better", "worse", "much", "more", "what", "it", "that",
                 "this", "fun", "time"}


def _doing_what(verb: Any) -> bool:
    """"I'm doing kickboxing", "we've been doing yoga": "doing" with an activity for its object
    (not "doing well", "doing my best", "doing the same")."""
    if verb.lower_ != "doing":
        return False
    obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    return obj is not None and obj.pos_ == "NOUN" and obj.lower_ not in _NOT_DONE_OBJ and obj.lower_ not in _EMPTY_NOUNS \
        and not any(c.dep_ in ("det", "poss") for c in obj.children)


def _was_at(sent: Any, at: datetime, speaker: str, when: tuple[datetime, datetime] | None) -> list[Episode]:
    """"I was in Chicago last week", "we were at the Grand Canyon": the speaker was at a named place
    (a place entity), told in the simple past."""
    out = []
    for be in sent:
        if be.lower_ not in ("was", "were") or be.tag_ != "VBD" or not (
                be.dep_ == "ROOT" or (be.dep_ in ("ccomp", "parataxis") and be.head.i > be.i and be.head.lower_ in (
                    "was", "is", "'s"))):  # "I was in Chicago, it was awesome!"
            continue
        if not any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in be.children) or any(
                c.dep_ in ("neg", "aux", "acomp", "attr") for c in be.children):
            continue
        prep = next((c for c in be.children if c.dep_ == "prep" and c.lower_ in ("in", "at") and c.i == be.i + 1), None)
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None) if prep is not None else None
        if obj is None or obj.ent_type_ not in ("GPE", "LOC", "FAC"):
            continue
        ent = next(e for e in sent.ents if e.start <= obj.i < e.end)
        a, b = be.idx, ent.end_char
        what = sent.doc.text[a:b]
        evidence = f"[{a}:{b}] {sent.text.strip()}"
        today = midnight(at)
        verbs = [t for t in sent if t.pos_ == "VERB"]
        if when is not None and not verbs and when[1] <= today + timedelta(days=1):
            out.append(Episode(speaker, what, ent.text, when[0], when[1], evidence))
        else:
            out.append(Episode(speaker, what, ent.text, None, today + timedelta(days=1), evidence))
    return out


def _done_by(verb: Any) -> Any:
    """The past verb that says an infinitive or gerund was done — "I got to feed a horse", "we were
    able to raise funds", "I had the chance to see him play" — or None.
    ("decided / wanted / planned to" say nothing of whether it was done.)"""
    if verb.tag_ == "VB" and verb.dep_ == "xcomp" and any(c.dep_ == "aux" and c.tag_ == "TO" for c in verb.children):
        h = verb.head
        if h.lower_ in ("got", "managed") and h.tag_ == "VBD" and not any(c.dep_ == "aux" for c in h.children):
            return h
        if h.lower_ == "able" and h.dep_ == "acomp" and h.head.lower_ in ("was", "were") and not any(
                c.dep_ in ("neg", "aux") for c in h.head.children):
            return h.head
    if verb.tag_ == "VB" and verb.dep_ in ("acl", "relcl") and verb.head.lower_ in ("chance", "opportunity") \
            and verb.head.dep_ == "dobj" and verb.head.head.lower_ == "had" and verb.head.head.tag_ == "VBD":
        return verb.head.head
    return None


def _stranded(tok: Any, verb: Any) -> bool:
    """The preposition that ends a relative clause inside the what ("the shelter I volunteer at")."""
    return tok.dep_ == "prep" and tok.head.dep_ == "relcl" and tok.head.i != verb.i and not list(tok.children)


def _had_event(verb: Any) -> bool:
    """"I had a picnic with friends", "we had our first call-out": "had" (simple past, said of
    the subject) with an event noun for its object."""
    if verb.lower_ != "had" or verb.tag_ != "VBD" or any(c.dep_ == "aux" or (c.dep_ in ("xcomp", "ccomp") and c.i > verb.i)
                                                         for c in verb.children):
        return False
    obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if obj is None or obj.tag_ not in ("NN", "NNS"):
        return False
    words = obj.lower_.rstrip("s") if obj.lower_.endswith("s") and obj.lower_[:-1] in _EVENT_NOUNS else obj.lower_
    compound = " ".join(t.lower_ for t in obj.lefts if t.dep_ == "compound") + " " + obj.lower_
    return words in _EVENT_NOUNS or compound.strip() in _EVENT_NOUNS


def _habitual(verb: Any) -> bool:
    """"I usually…", "Sometimes I even use it when I'm playing…": a habit adverb on the verb or on
    a clause above it."""
    up = verb
    for _ in range(8):
        if any(c.dep_ == "advmod" and c.lower_ in _HABIT for c in up.children):
            return True
        if up.head.i == up.i or up.dep_ == "conj":
            return False  # "I usually play X, but I tried Y this time": the habit is the other clause's
        up = up.head
    return False


def _garbled(run: list[Any], verb: Any) -> bool:
    """A what that would read wrong: a preposition left without its object ("working on for a
    while"), a name cut at "called" / "named", someone else's thing ("visited her old house":
    whose?), "each other"."""
    last = run[-1]
    if last.lower_ in ("called", "named", "titled", "entitled"):
        return True
    near = {c.i for c in verb.children if c.dep_ in ("dobj", "dative")} | {
        g.i for c in verb.children if c.dep_ == "prep" for g in c.children if g.dep_ == "pobj"}
    for k, t in enumerate(run[1:], 1):
        if t.dep_ == "prep" and not any(c.dep_ in ("pobj", "pcomp") for c in t.children) and t.head.i in {
                r.i for r in run} and t.i > verb.i and t.i != last.i:
            return True
        if t.dep_ == "poss" and t.lower_ in _THIRD_POSS and t.head.i in near:
            return True
        if t.lower_ == "eachother" or (t.lower_ == "other" and run[k - 1].lower_ == "each") or (
                t.lower_ == "another" and run[k - 1].lower_ == "one"):
            return True
    return False


def _attached(sent: Any, verb: Any, span: tuple[int, int]) -> bool:
    """Does the time expression belong to this verb (not to another clause: "I emailed them and
    one said yes today")?"""
    toks = [t for t in sent if span[0] <= t.idx < span[1]]
    if not toks:
        return False
    owners = {verb.i, verb.head.i} if verb.dep_ == "conj" else {verb.i}
    owners |= {c.i for c in verb.children if c.dep_ in ("xcomp", "advcl") and c.tag_ == "VBG" and c.i > verb.i
               and not any(g.dep_ == "mark" for g in c.children)}  # "went fishing … last weekend"
    owners |= {c.i for c in verb.children if c.dep_ == "advcl" and c.i < verb.i and not any(
        g.dep_ == "mark" and g.lower_ in ("if", "unless", "until", "before", "once") for g in c.children)}
    # "While volunteering yesterday, I met…"
    if verb.dep_ in ("ccomp", "parataxis", "conj") and verb.head.lower_ in ("was", "were", "happened") and not any(
            c.dep_ in ("nsubj", "nsubjpass") and c.lower_ in ("i", "we") for c in verb.head.children):
        owners.add(verb.head.i)  # "Last week was wild - I volunteered at…", "something happened yesterday - I…"
    owners |= {c.i for c in verb.children if c.dep_ in ("ccomp", "parataxis") and c.i < verb.i and c.lower_ in (
        "was", "were", "happened") and not any(g.dep_ == "nsubj" and g.lower_ in ("i", "we") for g in c.children)}
    for t in toks:
        up = t.head
        while up.i != up.head.i and up.pos_ not in ("VERB", "AUX"):
            up = up.head
        if up.i in owners:
            return True
    return False


_ZH_EPISODE = re.compile(r"(?P<who>我们|我)(?P<what>(?:去|在|到)?[\u4e00-\u9fff]{1,12}?(?:了|过)[\u4e00-\u9fff]{0,10})")


def episodes_zh(sentence: str, offset: int, at: datetime, speaker: str) -> list[Episode]:
    if is_question(sentence, "zh") or re.search(r"如果|要是|可能|打算|想|没|不", sentence):
        return []
    t = _ZH_TIME.search(sentence)
    if t is None:
        return []
    when = _when(sentence, at) or _zh_when(t.group(0), at)
    m = _ZH_EPISODE.search(sentence)
    if m is None or when is None or re.search(r"你|他|她|老婆|老公|朋友|同事", sentence[:m.start()]):
        return []
    a, b = offset + m.start("what"), offset + m.end("what")
    return [Episode(speaker, m.group("what"), None, when[0], when[1], f"[{a}:{b}] {sentence.strip()}")]


def _zh_when(word: str, at: datetime) -> tuple[datetime, datetime] | None:
    today = midnight(at)
    monday = today - timedelta(days=today.weekday())
    if word in ("上周末",) or word == "周末":
        return monday - timedelta(days=2), monday
    if word.startswith(("上周", "上个星期", "上星期")):
        return monday - timedelta(days=7), monday
    if word in ("上个月", "上月"):
        first = today.replace(day=1)
        return (first - timedelta(days=1)).replace(day=1), first
    if word in ("去年",):
        return today.replace(year=today.year - 1, month=1, day=1), today.replace(month=1, day=1)
    if word in ("刚才", "今天早上", "今早"):
        return today, today + timedelta(days=1)
    return today - timedelta(days=14), today + timedelta(days=1)  # 那天: vague
