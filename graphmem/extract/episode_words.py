"""The episode rules' word lists: which verbs name a deed, which words say a plan, a habit, a
state of mind or an absence instead.

The pipeline runs without a lemmatizer, so verbs are listed by form (:func:`_forms` inflects the
bases). Kept apart from the rules that read them (:mod:`.episode_clauses`, :mod:`.episodes`) so a
word can be added without reading the parse logic.
"""

from __future__ import annotations

import re

STATIVE = {"be", "was", "were", "been", "is", "am", "are", "had", "have", "has", "felt", "feel", "thought", "think",
           "knew", "know", "loved", "love", "liked", "like", "hoped", "hope", "wanted", "want", "needed", "need",
           "seemed", "meant", "guess", "guessed", "believed", "wished", "remembered", "understood", "agreed",
           "appreciated", "thanked", "missed", "bet", "sounded", "looked", "got", "realized", "realised",
           "decided", "wondered", "noticed", "mentioned", "said", "told", "asked", "heard", "saw", "found",
           "learned", "learnt", "tried", "managed", "kept", "made", "did", "do", "gave", "came", "get", "go",
           "could", "would", "should", "might", "must", "can", "will", "let"}
LIGHT = {"got", "get", "made", "make", "did", "do", "gave", "give", "found", "saw", "tried", "learned", "learnt",
         "came", "took", "take", "started", "began", "kept", "gotten"}
NOT_ACTS = (STATIVE - LIGHT) | {"wait", "waiting", "bet", "hoping", "thinking", "wondering", "feeling", "looking",
                                  "planning", "considering", "going", "trying", "gonna", "gon", "getting", "doing", "having",
                                  "enjoying", "loving", "liking", "missing", "struggling", "dealing", "waiting",
                                  "hanging", "living", "staying", "sticking", "focusing", "keeping", "learning",
                                  "deciding", "scared", "excited", "thrilled", "stoked", "pumped", "interested",
                                  "tired", "worried", "bored", "amazed", "surprised", "hooked", "blessed"}
GATE_HEADS = {"wish", "hope", "want", "plan", "imagine", "suppose", "think", "if", "would", "could", "should", "might",
              "dream", "consider", "considering", "thinking", "planning", "hoping", "wanted", "wished", "hoped",
              "planned", "thought", "imagined", "pretend", "mean", "meant", "wonder", "tried", "try", "need",
              "needed", "promise", "promised", "decide", "decided", "gonna", "going"}
FUTURE = re.compile(r"\b(?:tomorrow|tonight|next|later (?:this|today|on)|soon|gonna|going to|will|'ll|plan(?:ning)? to|"
                    r"this (?:weekend|week|month|year|summer|fall|winter|spring)|in (?:a|two|three|\d+) (?:days?|weeks?|"
                    r"months?))\b", re.I)
# A time ahead said in a sentence whose verb is in the past ("I signed up for the race next week"
# still tells that the signing-up was done, but what it leads to is ahead: keep only clear deeds).
AHEAD_TIME = re.compile(r"\b(?:tomorrow|tonight|next (?:week|weekend|month|year|time|summer|fall|winter|spring|"
                        r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)|later (?:this|today|on)|gonna|going to|will|'ll|"
                        r"in (?:a|two|three|\d+) (?:days?|weeks?|months?))\b", re.I)
LATELY = re.compile(r"\b(?:lately|recently|these days|for (?:a few|several|some|the past few|the last few) "
                    r"(?:weeks|days))\b", re.I)
PAST_STATE = re.compile(r"\b(?:used to|when I was (?:a |little|young|small|\d+)|as a (?:kid|child|teen)|growing up|"
                        r"back in (?:the day|high school|college))\b", re.I)
PRONOUN_OBJ = {"it", "that", "this", "them", "one", "those", "these", "something", "anything", "everything",
               "nothing", "stuff", "so", "lot"}


IDIOM_ACT = re.compile(r"^\w+ (?:my |our )?(?:fingers|a (?:real |big |huge )?difference|sense|it (?:work|happen)|"
                       r"the most of|my (?:day|week)|a point|sure|up my mind|peace|progress|my best|our best|an effort|"
                       r"(?:your|his|her|their|our|my) back\b|(?:this|it) (?:in the bag|covered))",
                       re.I)
TELL = {"tell", "told", "say", "said", "share", "shared", "mention", "mentioned", "announce", "know", "guess"}
PAST_FORMS = {"went", "took", "got", "made", "saw", "met", "ran", "won", "bought", "built", "found", "spent", "wrote",
              "finished", "visited", "started", "joined", "tried", "watched", "painted", "baked", "cooked", "signed",
              "adopted", "attended", "hiked", "played", "read", "finally"}
MENTAL = {"realize", "realise", "understand", "appreciate", "believe", "feel", "think", "accept", "enjoy", "love",
          "like", "miss", "wonder", "worry", "care", "hope", "wish", "want", "need", "see", "notice", "remember"}
HABIT = {"always", "never", "usually", "often", "sometimes", "ever", "rarely", "normally", "generally"}
LEAD_ADV = {"just", "finally", "also", "recently", "actually", "even", "then", "so", "and", "already", "lately"}
# Verbs (by lemma) that say what the speaker wants, plans, thinks or remembers, not what they did:
# "I've been wanting to play it", "we planned to go", "I forgot to mention…", "what I'm aiming for".
NOT_DEEDS = {"want", "hope", "wish", "intend", "need", "long", "crave", "expect", "mention", "mean", "dream",
             "consider", "think", "wonder", "feel", "love", "like", "hate", "miss", "guess", "bet", "seem",
             "appreciate", "realize", "realise", "imagine", "suppose", "deserve", "owe", "afford", "hear", "say",
             "tell", "ask", "inspire", "remind", "wait", "struggle", "know"}
# … and verbs that do so only with a clause after them: "we planned to play" (not "I planned a party"),
# "I forgot to mention…" (not "I forgot my lines"), "what I'm aiming for".
FRAME_VERBS = {"plan", "forget", "remember", "aim", "decide", "try", "attempt", "promise", "agree", "offer"}
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


NOT_DEED_FORMS = _forms(NOT_DEEDS)
MENTAL_FORMS = _forms(MENTAL | NOT_DEEDS | {"struggle", "cope", "heal", "recover", "stress", "worry", "rest",
                                             "relax", "chill", "wait", "hope", "pray", "grow", "improve", "try",
                                             "go", "do", "get", "be", "have", "feel", "work"})
FRAME_FORMS = _forms(FRAME_VERBS)
TAKE_FORMS = _forms({"take"})
# A habit, not one episode: "every weekend", "on the weekends", "on Sundays", "each morning".
HABIT_TIME = re.compile(r"\b(?:every|each) (?:single )?(?:day|night|morning|evening|week|weekend|month|year|summer|"
                        r"winter|time|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b|\bon (?:the )?(?:weekends|weekdays|"
                        r"(?:mon|tues|wednes|thurs|fri|satur|sun)days)\b|\bmost (?:days|nights|mornings|evenings|"
                        r"weekends)\b|\bin the (?:mornings|evenings)\b|\bwhenever\b|\bonce a (?:day|week|month|year)\b|"
                        r"\b(?:daily|weekly|nightly)\b|\b(?:a few|several|many|so many|countless|a couple of|a couple|two|three|four|five|"
                        r"\d+|a hundred|a million) times\b|\bonce or twice\b", re.I)
# "It's been a while since I walked the dogs": an absence, not an episode.
ABSENCE = re.compile(r"\b(?:been|it's|its) (?:a (?:long )?while|ages|forever|so long|too long|a long time|years|months|"
                     r"weeks) since\b", re.I)
# Nouns that say nothing of what was done on their own ("spent our time", "took a while").
EMPTY_NOUNS = {"time", "while", "way", "lot", "bit", "thing", "things", "stuff", "moment", "moments", "part",
               "kind", "sort", "one", "ones", "trial", "courage", "guts", "minute",
               "minutes", "hours", "ages", "forever", "chance", "opportunity", "sense", "idea", "deal", "patience"}
# "had" says what only with an event for its object: "I had a picnic / a tough exam / a chat with…",
# not "I had a blast / a feeling / a dog".
EVENT_NOUNS = {"picnic", "party", "barbecue", "bbq", "cookout", "potluck", "dinner", "lunch", "breakfast", "brunch",
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
GO_FORMS = {"went", "go", "gone", "going"}
COPULA_FEEL = {"feel", "feels", "felt", "feeling", "am", "is", "are", "was", "were", "be", "been", "being", "'m",
               "'re", "'s", "seem", "seemed", "seems", "look", "looked", "looks", "get", "got", "getting"}
THIRD_POSS = {"his", "her", "their", "its"}
# Participles that tell a thing that happened to the speaker when passive ("I got promoted at work",
# "we got married in June", "I was hired by a startup") — not a feeling ("I got tired", "I was
# amazed"), which stays out because only these are read.
LIFE_EVENTS = {"promoted", "hired", "married", "engaged", "accepted", "admitted", "selected", "chosen", "drafted",
               "nominated", "elected", "awarded", "certified", "licensed", "recruited", "baptized", "baptised",
               "vaccinated", "published", "signed", "traded", "adopted", "discharged", "graduated", "ordained",
               "rescued", "interviewed", "featured", "invited", "divorced", "sponsored"}
# Past verbs that tell a whole event without an object: "I graduated last week!", "we moved in June"
# ("we won!", "I volunteered" say too little alone: won what, where?).
EVENT_VERBS = {"graduated", "retired", "resigned", "relocated", "eloped", "enlisted", "emigrated", "immigrated",
               "moved"}
