"""A long synthetic conversation between two friends, seeded: the history ``context()`` is timed on.

LoCoMo's conversations hold ~600 turns each; issue #47 asks how ``context()`` behaves at 20,000
turns in one tenant and over a hundred tenants of 500, and no such data is shipped or available
offline. :func:`conversation` makes a conversation of LoCoMo's shape from a seed, so the timing runs
on the same text on every run and every machine (``graphmem bench recall --long-history N``,
:mod:`graphmem.bench.long_history`).

What it is, and is not: two people meet in sessions a few days apart (12-28 turns each, a minute or
so between turns) and tell each other what they did (an activity, a place, a companion: episodes),
what they read and plan, react to each other and share photos (LoCoMo's ``[shares a photo: …]``);
about one turn in twelve states a fact about the speaker (a job, a city, a pet), and those facts
change now and then (a new job, a move), so the timeline has history. The words are templates, not
real chat; the mix of kinds and the lengths (8-35 words) are LoCoMo's. :func:`questions` asks four
shapes of question about what was said — each shape a different set of recall's parameters (a name,
a named time, the past, none), which is what the server plans separately.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

__all__ = ["SHAPES", "Ask", "Chat", "conversation", "questions"]

# what each shape of question sends recall: "topic" names nobody and no time; "person" names a
# speaker (the people leg, the speaker boost); "time" names a month (the time leg, a range); "past"
# asks "when did…" (the history leg)
SHAPES = ("topic", "person", "time", "past")

_NAMES = ["Caroline", "Melanie", "Jolene", "Deborah", "Evan", "Sam", "Calvin", "Dave", "Gina", "Jon", "Maria",
          "John", "Nate", "Joanna", "Tim", "Audrey", "Andrew", "James", "Priya", "Tomas", "Lena", "Omar", "Yuki",
          "Rafael", "Ingrid", "Kwame", "Sofia", "Hugo", "Amara", "Felix"]
_ACTIVITIES = ["hiking", "camping", "pottery", "rock climbing", "salsa dancing", "kayaking", "painting",
               "baking sourdough", "volunteering at the shelter", "a cooking class", "birdwatching", "surfing",
               "a charity run", "gardening", "skiing", "a photography workshop", "fishing", "yoga", "a book club",
               "a road trip", "horse riding", "ice skating", "a wine tasting", "a jazz concert"]
_PLACES = ["the lake", "Yosemite", "the coast", "downtown", "the old harbour", "the mountains", "the community centre",
           "Lisbon", "the farmers market", "the national park", "my aunt's farm", "the museum", "Portland", "Kyoto"]
_COMPANIONS = ["my sister", "my brother", "my kids", "my partner", "my mom", "a few friends", "my neighbour",
               "my cousin", "my colleagues", "my best friend"]
_JOBS = ["nurse", "teacher", "software engineer", "carpenter", "pharmacist", "counsellor", "chef", "architect",
         "librarian", "photographer", "accountant", "vet"]
_ORGS = ["St. Mary's Hospital", "Northwind", "Contoso", "the city library", "Globex", "a small bakery", "Initech",
         "the LGBTQ centre", "a design studio", "the animal clinic"]
_CITIES = ["Boston", "Denver", "Lisbon", "Osaka", "Toronto", "Valencia", "Austin", "Dublin", "Seattle", "Nairobi"]
_PETS = ["Biscuit", "Luna", "Pepper", "Rocket", "Oscar", "Mochi", "Bailey", "Ziggy"]
_BOOKS = ["Becoming Nicole", "Charlotte's Web", "The Midnight Library", "Educated", "Dune", "Atomic Habits",
          "The Night Circus", "Sapiens", "Little Women", "The Hobbit"]
_THEMES = ["courage", "family", "starting over", "friendship", "finding your voice", "patience", "home"]
_ADJ = ["amazing", "so relaxing", "exhausting but fun", "really peaceful", "a bit scary", "unforgettable",
        "super rewarding", "hilarious", "beautiful", "harder than I expected"]
_CAPTIONS = ["a photo of a sunset over a lake", "a photo of a dog on a beach", "a photo of a clay bowl on a table",
             "a photo of a family at a campsite", "a photo of a painting of flowers", "a photo of a mountain trail",
             "a photo of a loaf of bread", "a photo of kids in a park"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]


@dataclass
class _Person:
    name: str
    job: str
    org: str
    city: str
    pet: str
    hobbies: list[str]


@dataclass
class Chat:
    """The conversation's rows (``mem.ingest_bulk``'s ``{id, speaker, at, text}``, LoCoMo's shape)
    and what was said that a question can ask about: (speaker, activity, day) and (speaker, fact
    topic, value)."""

    rows: list[dict[str, Any]]
    people: list[str]
    did: list[tuple[str, str, datetime]] = field(default_factory=list)
    told: list[tuple[str, str, str]] = field(default_factory=list)
    read: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class Ask:
    shape: str
    text: str


def _person(rng: random.Random, name: str) -> _Person:
    return _Person(name, rng.choice(_JOBS), rng.choice(_ORGS), rng.choice(_CITIES), rng.choice(_PETS),
                   rng.sample(_ACTIVITIES, 4))


def _turn(rng: random.Random, me: _Person, other: _Person, day: datetime, chat: Chat, first: bool) -> str:
    """One turn of ``me`` to ``other`` in a session on ``day``; records what it tells."""
    if first:
        return rng.choice([f"Hey {other.name}! Long time no see. How have you been?",
                           f"Hi {other.name}, so good to hear from you! What's new?",
                           f"{other.name}! I was just thinking about you. How was your week?"])
    roll = rng.random()
    if roll < 0.28:
        act = rng.choice(me.hobbies if rng.random() < 0.7 else _ACTIVITIES)
        chat.did.append((me.name, act, day))
        return rng.choice([f"Last weekend I did some {act} at {rng.choice(_PLACES)} with {rng.choice(_COMPANIONS)}. "
                           f"It was {rng.choice(_ADJ)}.",
                           f"I finally tried {act} yesterday! It was {rng.choice(_ADJ)}, and {rng.choice(_COMPANIONS)} "
                           f"loved it too.",
                           f"This week has been busy, but I squeezed in some {act} near {rng.choice(_PLACES)}."])
    if roll < 0.36:
        kind = rng.choice(["job", "city", "pet"])
        if kind == "job":
            if rng.random() < 0.3:
                me.job, me.org = rng.choice(_JOBS), rng.choice(_ORGS)
                text = f"Big news: I started a new job as a {me.job} at {me.org}!"
            else:
                text = f"Work at {me.org} has been intense; being a {me.job} takes a lot out of me some weeks."
            chat.told.append((me.name, "job", me.job))
        elif kind == "city":
            if rng.random() < 0.3:
                me.city = rng.choice(_CITIES)
                text = f"We finally moved to {me.city} last month, the new place is {rng.choice(_ADJ)}."
            else:
                text = f"I live in {me.city} and the weather here has been {rng.choice(['awful', 'lovely', 'odd'])}."
            chat.told.append((me.name, "city", me.city))
        else:
            text = f"My dog {me.pet} keeps me busy; we walk for an hour every morning."
            chat.told.append((me.name, "pet", me.pet))
        return text
    if roll < 0.46:
        book = rng.choice(_BOOKS)
        chat.read.append((me.name, book))
        return (f"I've been reading \"{book}\" and the part about {rng.choice(_THEMES)} really stuck with me. "
                f"Have you read it?")
    if roll < 0.54:
        return (f"Here's a picture from the weekend. [shares a photo: {rng.choice(_CAPTIONS)}]")
    if roll < 0.62:
        return f"I'm planning to try {rng.choice(_ACTIVITIES)} next month, maybe in {rng.choice(_PLACES)}."
    if roll < 0.80:
        return rng.choice([f"That sounds {rng.choice(_ADJ)}, {other.name}! I'd love to try that some day.",
                           f"Wow, {other.name}, that's {rng.choice(_ADJ)}. How did {rng.choice(_COMPANIONS)} like it?",
                           "That's so cool. I'm really happy for you.", "Ha, I can totally picture that!",
                           f"Thanks, {other.name}. That means a lot to me right now."])
    return rng.choice([f"How is {rng.choice(other.hobbies)} going these days?", "What have you been up to lately?",
                       f"Did you ever finish {rng.choice(_BOOKS)}?", "Any plans for the summer?",
                       f"How are things at {other.org}?", "Are you still thinking about moving?"])


def conversation(turns: int, *, seed: int = 47, prefix: str = "c",
                 start: datetime = datetime(2022, 1, 3, 18, 0, tzinfo=timezone.utc)) -> Chat:
    """``turns`` rows of two friends talking, in sessions 2-6 days apart; the same rows for the same
    arguments. Turn ids are ``{prefix}:{session}:{n}`` (unique within the conversation)."""
    rng = random.Random(seed)
    a, b = rng.sample(_NAMES, 2)
    people = [_person(rng, a), _person(rng, b)]
    chat = Chat(rows=[], people=[a, b])
    day, session = start, 0
    while len(chat.rows) < turns:
        session += 1
        day = day + timedelta(days=rng.randint(2, 6), hours=rng.randint(-3, 3))
        n = min(rng.randint(12, 28), turns - len(chat.rows))
        first = rng.randint(0, 1)
        for i in range(n):
            me, other = people[(first + i) % 2], people[(first + i + 1) % 2]
            text = _turn(rng, me, other, day, chat, first=i == 0)
            chat.rows.append({"id": f"{prefix}:{session}:{i + 1}", "speaker": me.name,
                              "at": (day + timedelta(seconds=70 * i)).isoformat(), "text": text})
    return chat


def questions(chat: Chat, n: int, *, seed: int = 47) -> list[Ask]:
    """``n`` questions about the conversation, the four :data:`SHAPES` in turn."""
    rng = random.Random(seed)
    out: list[Ask] = []
    for i in range(n):
        shape = SHAPES[i % len(SHAPES)]
        if shape == "topic":
            if chat.read and rng.random() < 0.5:
                text = f"What did they think of \"{rng.choice(chat.read)[1]}\"?"
            else:
                text = f"Who enjoys {rng.choice(_ACTIVITIES)} and where do they go for it?"
        elif shape == "person":
            who, topic, _ = rng.choice(chat.told) if chat.told else (rng.choice(chat.people), "job", "")
            text = {"job": f"What does {who} do for work?", "city": f"Where does {who} live?",
                    "pet": f"What is the name of {who}'s dog?"}[topic]
        elif shape == "time":
            who, act, day = rng.choice(chat.did) if chat.did else (chat.people[0], "hiking", datetime(2022, 1, 3))
            text = f"What did {who} do in {_MONTHS[day.month - 1]} {day.year}?"
        else:
            who, act, _ = rng.choice(chat.did) if chat.did else (chat.people[0], "hiking", datetime(2022, 1, 3))
            text = f"When did {who} do {act}?"
        out.append(Ask(shape, text))
    return out
