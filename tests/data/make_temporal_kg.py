"""Write tests/data/temporal-kg: generated facts in the shape of YAGO11k and WIKIDATA12k.

Nothing here is drawn from those datasets. The entities and the facts are invented (seeded, so a
re-run writes the same files); only the file format and the *shape* follow the real data:

* the TILP file layout: ``train.txt`` / ``valid.txt`` / ``test.txt`` with lines
  ``subject_id <TAB> relation_id <TAB> object_id <TAB> start_year <TAB> end_year``, and
  ``entity2id.txt`` / ``relation2id.txt`` beside them (YAGO-style ``<Name>`` with date columns in
  ``yago-like``; Q-ids and P-ids with labels in ``wikidata-like``);
* whole-year intervals, inclusive, many of them one year long (births, prizes);
* many-valued relations whose intervals overlap (party affiliations, teams, positions held), and
  successive ones (employers, heads of government);
* hubs: a few clubs, cities, countries and positions carry a hundred facts or more;
* chains of three hops whose intervals share a year (person → employer → owner → club;
  person → employer → city → country);
* a few odd rows the reader must skip and count (a year of -405, an end before the start,
  a malformed line) — only in ``train.txt``, after its first 3,000 good rows.

Run: ``python tests/data/make_temporal_kg.py`` (from the repository root).
"""

from __future__ import annotations

import random
from pathlib import Path

OUT = Path(__file__).resolve().parent / "temporal-kg"

SYLLABLES = ["ka", "lo", "ren", "vi", "sa", "mor", "tu", "lin", "da", "ro", "mi", "an", "el", "go", "sun", "ha",
             "bre", "to", "nia", "wa", "qi", "zu", "pel", "or", "ist", "ma", "dre", "li", "ven", "cos"]


class _Names:
    """Invented, distinct, readable names (``Karo_Lindaven``)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng, self.used = rng, set()

    def word(self, n: int) -> str:
        return "".join(self.rng.choice(SYLLABLES) for _ in range(n)).capitalize()

    def __call__(self, pattern: str) -> str:
        while True:
            name = pattern.format(a=self.word(2), b=self.word(3))
            if name not in self.used:
                self.used.add(name)
                return name


def _successive(rng: random.Random, start: int, end: int, n: int, overlap: float) -> list[tuple[int, int]]:
    """``n`` intervals walking from ``start`` towards ``end``; with probability ``overlap`` the next
    one starts before the previous ended (a many-valued relation, not a succession)."""
    out, y = [], start
    for _ in range(n):
        if y > end:
            break
        length = rng.randint(0, max(0, min(12, end - y)))
        out.append((y, y + length))
        y = y + length + (-rng.randint(0, length) if length and rng.random() < overlap else rng.randint(0, 3))
    return out


def yago_like(rng: random.Random) -> tuple[list[str], list[str], list[tuple[str, str, str, int, int]]]:
    name = _Names(rng)
    relations = ["wasBornIn", "worksAt", "playsFor", "hasWonPrize", "isMarriedTo", "owns", "graduatedFrom",
                 "diedIn", "isAffiliatedTo", "created"]
    cities = [name("{a}_City") if i % 3 == 0 else name("{b}") for i in range(160)]
    big_cities = cities[:4]  # hubs: many are born and die there
    clubs = [name("{a}_FC") for _ in range(50)]
    big_clubs = clubs[:3]  # hubs: hundreds of players over the years
    universities = [name("University_of_{b}") for _ in range(30)]
    companies = [name("{b}_Corporation") for _ in range(70)]
    holdings = [name("{a}_Holdings") for _ in range(4)]  # hubs: own many companies and clubs
    parties = [name("{b}_Party") for _ in range(10)]
    prizes = [name("{a}_Prize") for _ in range(25)]
    works = []
    people = [name("{a}_{b}") for _ in range(900)]
    facts: list[tuple[str, str, str, int, int]] = []

    def city() -> str:
        return rng.choice(big_cities) if rng.random() < 0.4 else rng.choice(cities)

    for h in holdings:
        for c in rng.sample(companies, 30) + rng.sample(clubs, 15):
            y0 = rng.randint(1900, 1990)
            facts.append((h, "owns", c, y0, rng.randint(y0, 2017)))
    for c in companies[:50]:
        for club in rng.sample(clubs, 2):
            y0 = rng.randint(1920, 1995)
            facts.append((c, "owns", club, y0, rng.randint(y0, 2017)))
    for p in people:
        born = rng.randint(1850, 1990)
        died = born + rng.randint(40, 95)
        alive_to = min(died, 2017)
        facts.append((p, "wasBornIn", city(), born, born))
        if died <= 2017:
            facts.append((p, "diedIn", city(), died, died))
        kind = rng.random()
        if kind < 0.35:  # a footballer: many clubs, some overlapping (loans), big clubs are hubs
            for y0, y1 in _successive(rng, born + 17, min(born + 38, alive_to), rng.randint(2, 7), 0.3):
                club = rng.choice(big_clubs) if rng.random() < 0.35 else rng.choice(clubs)
                facts.append((p, "playsFor", club, y0, y1))
        elif kind < 0.6:  # a politician: party affiliations that overlap (Whig, Free Soil, Democratic …)
            for y0, y1 in _successive(rng, born + 22, alive_to, rng.randint(1, 5), 0.5):
                facts.append((p, "isAffiliatedTo", rng.choice(parties), y0, y1))
        else:  # an academic or an engineer: employers in succession, a degree, perhaps a prize
            facts.append((p, "graduatedFrom", rng.choice(universities), born + 21, born + 21 + rng.randint(0, 4)))
            for y0, y1 in _successive(rng, born + 24, alive_to, rng.randint(1, 4), 0.15):
                employer = rng.choice(holdings) if rng.random() < 0.15 else rng.choice(companies + universities)
                facts.append((p, "worksAt", employer, y0, y1))
            if rng.random() < 0.3:
                y = rng.randint(born + 30, max(born + 30, alive_to))
                facts.append((p, "hasWonPrize", rng.choice(prizes), y, y))
        if rng.random() < 0.2:
            work = name("{b}_(book)")
            works.append(work)
            y = rng.randint(born + 20, max(born + 20, alive_to))
            facts.append((p, "created", work, y, y))
    for a, b in zip(people[0::7], people[3::7]):  # marriages, a few of them overlapping a later one
        y0 = rng.randint(1880, 2000)
        facts.append((a, "isMarriedTo", b, y0, min(2017, y0 + rng.randint(1, 50))))
    entities = cities + clubs + universities + companies + holdings + parties + prizes + works + people
    return entities, relations, facts


def wikidata_like(rng: random.Random) -> tuple[list[str], list[tuple[str, str]], list[tuple[str, str, str, int, int]]]:
    ids: set[str] = set()

    def q() -> str:
        while True:
            x = f"Q{rng.randint(100, 60_000_000)}"
            if x not in ids:
                ids.add(x)
                return x

    relations = [("P39", "position held"), ("P54", "member of sports team"), ("P108", "employer"),
                 ("P6", "head of government"), ("P26", "spouse"), ("P69", "educated at"),
                 ("P102", "member of political party"), ("P166", "award received"),
                 ("P131", "located in the administrative territorial entity"), ("P17", "country")]
    countries = [q() for _ in range(12)]
    regions = [q() for _ in range(40)]
    places = [q() for _ in range(150)]
    teams = [q() for _ in range(40)]
    employers = [q() for _ in range(60)]
    positions = [q() for _ in range(20)]  # hubs: "member of parliament" is held by hundreds
    parties = [q() for _ in range(10)]
    awards = [q() for _ in range(20)]
    people = [q() for _ in range(500)]
    facts: list[tuple[str, str, str, int, int]] = []
    for i, p in enumerate(places):  # places move between regions; regions sit in countries (a hub)
        for y0, y1 in _successive(rng, 1800 + rng.randint(0, 150), 2020, rng.randint(1, 3), 0.0):
            facts.append((p, "P131", rng.choice(regions), y0, y1))
        if i % 3 == 0:
            for y0, y1 in _successive(rng, 1900, 2020, rng.randint(2, 6), 0.0):
                facts.append((p, "P6", rng.choice(people), y0, y1))
    for r in regions:
        facts.append((r, "P17", rng.choice(countries[:3]) if rng.random() < 0.6 else rng.choice(countries),
                      rng.randint(1800, 1950), 2020))
    for e in employers:
        facts.append((e, "P131", rng.choice(places), rng.randint(1850, 1990), 2020))
    for p in people:
        born = rng.randint(1900, 1995)
        kind = rng.random()
        if kind < 0.3:
            for y0, y1 in _successive(rng, born + 18, min(born + 36, 2020), rng.randint(2, 6), 0.2):
                facts.append((p, "P54", rng.choice(teams), y0, y1))
        elif kind < 0.6:
            for y0, y1 in _successive(rng, born + 25, 2020, rng.randint(1, 5), 0.6):
                facts.append((p, "P39", rng.choice(positions[:3]) if rng.random() < 0.5 else rng.choice(positions), y0, y1))
            y = born + rng.randint(20, 30)
            if y <= 2020:
                facts.append((p, "P102", rng.choice(parties), y, min(2020, y + rng.randint(0, 40))))
        else:
            y = born + rng.randint(18, 24)
            facts.append((p, "P69", rng.choice(employers[:15]), y, y + rng.randint(0, 4)))
            for y0, y1 in _successive(rng, born + 24, 2020, rng.randint(1, 4), 0.1):
                facts.append((p, "P108", rng.choice(employers), y0, y1))
        if rng.random() < 0.1:
            y = rng.randint(born + 25, 2020)
            facts.append((p, "P166", rng.choice(awards), y, y))
    for a, b in zip(people[0::9], people[4::9]):
        y0 = rng.randint(1925, 2015)
        facts.append((a, "P26", b, y0, min(2020, y0 + rng.randint(1, 45))))
    return countries + regions + places + teams + employers + positions + parties + awards + people, relations, facts


def _write(folder: Path, entity_lines: list[str], relation_lines: list[str], rows: list[str], rng: random.Random,
           odd: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "entity2id.txt").write_text("".join(line + "\n" for line in entity_lines), encoding="utf-8")
    (folder / "relation2id.txt").write_text("".join(line + "\n" for line in relation_lines), encoding="utf-8")
    rng.shuffle(rows)
    n_valid, n_test = len(rows) // 10, len(rows) * 3 // 20
    train, valid, test = rows[n_valid + n_test:], rows[:n_valid], rows[n_valid:n_valid + n_test]
    for i, line in enumerate(odd):  # after the first 3,000 good rows, spread out
        train.insert(3000 + 40 * i, line)
    for name, part in (("train.txt", train), ("valid.txt", valid), ("test.txt", test)):
        (folder / name).write_text("".join(r + "\n" for r in part), encoding="utf-8")


def main() -> None:
    rng = random.Random(20261130)

    entities, relations, facts = yago_like(rng)
    eid = {e: i for i, e in enumerate(entities)}
    rid = {r: i for i, r in enumerate(relations)}
    order = list(range(len(entities)))
    rng.shuffle(order)  # entity2id.txt is not sorted by id in the real files either
    entity_lines = [f"<{entities[i]}>\t{i}\t####-##-##\t####-##-##" for i in order]
    relation_lines = [f"<{r}>\t{i}" for r, i in rid.items()]
    rows = [f"{eid[s]}\t{rid[r]}\t{eid[o]}\t{y0}\t{y1}" for s, r, o, y0, y1 in facts]
    some = facts[0]
    odd = [f"{eid[some[0]]}\t{rid[some[1]]}\t{eid[some[2]]}\t-405\t1848",
           f"{eid[some[0]]}\t{rid[some[1]]}\t{eid[some[2]]}\t1990\t1980",
           "this line is not five tab-separated columns"]
    _write(OUT / "yago-like", entity_lines, relation_lines, rows, rng, odd)

    entities, rels, facts = wikidata_like(rng)
    eid = {e: i for i, e in enumerate(entities)}
    rid = {p: i for i, (p, _) in enumerate(rels)}
    entity_lines = [f"{e}\t{i}" for e, i in eid.items()]
    relation_lines = [f"{p}\t{rid[p]}\t{label}" for p, label in rels]
    rows = [f"{eid[s]}\t{rid[r]}\t{eid[o]}\t{y0}\t{y1}" for s, r, o, y0, y1 in facts]
    _write(OUT / "wikidata-like", entity_lines, relation_lines, rows, rng, [])


if __name__ == "__main__":
    main()
