"""Words for people: the relations a speaker names ("my wife", "a colleague") and the people no
name or relation ties to the speaker ("the new guy", "someone"). A fact whose subject is one of
them is someone else's, never the speaker's (the gates in :mod:`.gates`)."""

from __future__ import annotations

__all__ = ["PERSON_NOUNS", "SOMEONE"]

PERSON_NOUNS = {"wife", "husband", "partner", "spouse", "boyfriend", "girlfriend", "bf", "gf", "son", "daughter",
                 "kid", "kids", "child", "children", "mom", "mother", "dad", "father", "parents", "parent",
                 "brother", "sister", "sibling", "siblings", "friend", "friends", "colleague", "colleagues",
                 "coworker", "coworkers", "co-worker", "boss", "manager", "roommate", "flatmate", "neighbor",
                 "neighbour", "family", "cousin", "aunt", "uncle", "grandma", "grandpa", "grandmother",
                 "grandfather", "team", "client", "customer", "mum", "fiance", "fiancé", "fiancee", "buddy",
                 "teammate", "landlord", "assistant", "nephew", "niece", "in-laws", "folks", "pal", "mate"}
SOMEONE = frozenset("guy man woman girl boy lady gentleman person people dude someone somebody anyone anybody "
                     "everyone everybody nobody no-one stranger newcomer men women".split())
