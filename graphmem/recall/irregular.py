"""English irregular verbs, for the text legs: a question asks in the base form ("When did Nate
win…?", "When did Maria meet Jean?") and a turn tells in the past ("I just won…", "I met…"). The
English analyzer's stemmer maps "visited" to "visit" but never "won" to "win" or "bought" to "buy",
so :func:`forms` adds the other forms of an irregular verb to the task's words (and the base form
to a past one: "What did she say when she saw…" also finds "see"). General English, not fitted to
any data set: the common irregular verbs, base → past, past participle.
"""

from __future__ import annotations

__all__ = ["forms"]

_VERBS = """
arise arose arisen; awake awoke awoken; be was were been; bear bore born; beat beat beaten; become became become;
begin began begun; bend bent bent; bet bet bet; bid bid bid; bind bound bound; bite bit bitten; bleed bled bled;
blow blew blown; break broke broken; breed bred bred; bring brought brought; build built built; burn burnt burnt;
buy bought bought; catch caught caught; choose chose chosen; cling clung clung; come came come; cost cost cost;
creep crept crept; cut cut cut; deal dealt dealt; dig dug dug; do did done; draw drew drawn; dream dreamt dreamt;
drink drank drunk; drive drove driven; eat ate eaten; fall fell fallen; feed fed fed; feel felt felt;
fight fought fought; find found found; flee fled fled; fly flew flown; forbid forbade forbidden;
forget forgot forgotten; forgive forgave forgiven; freeze froze frozen; get got gotten; give gave given;
go went gone; grind ground ground; grow grew grown; hang hung hung; have had had; hear heard heard; hide hid hidden;
hit hit hit; hold held held; hurt hurt hurt; keep kept kept; kneel knelt knelt; know knew known; lay laid laid;
lead led led; lean leant leant; leap leapt leapt; learn learnt learnt; leave left left; lend lent lent; let let let;
lie lay lain; light lit lit; lose lost lost; make made made; mean meant meant; meet met met; pay paid paid;
put put put; quit quit quit; read read read; ride rode ridden; ring rang rung; rise rose risen; run ran run;
say said said; see saw seen; seek sought sought; sell sold sold; send sent sent; set set set; sew sewed sewn;
shake shook shaken; shine shone shone; shoot shot shot; show showed shown; shrink shrank shrunk; shut shut shut;
sing sang sung; sink sank sunk; sit sat sat; sleep slept slept; slide slid slid; speak spoke spoken;
speed sped sped; spend spent spent; spin spun spun; split split split; spread spread spread; spring sprang sprung;
stand stood stood; steal stole stolen; stick stuck stuck; sting stung stung; strike struck struck;
swear swore sworn; sweep swept swept; swim swam swum; swing swung swung; take took taken; teach taught taught;
tear tore torn; tell told told; think thought thought; throw threw thrown; understand understood understood;
wake woke woken; wear wore worn; weave wove woven; weep wept wept; win won won; wind wound wound;
withdraw withdrew withdrawn; write wrote written
"""

_GROUPS: dict[str, tuple[str, ...]] = {}
for _entry in _VERBS.split(";"):
    _words = tuple(dict.fromkeys(_entry.split()))
    for _w in _words:
        _GROUPS.setdefault(_w, _words)

# forms that are also common nouns or other words: a task's "left", "found", "saw", "lay", "bear",
# "wound", "ground", "lie" or "felt" is not taken to be the verb (its other forms are not added)
_AMBIGUOUS = frozenset({"left", "found", "saw", "lay", "bear", "wound", "ground", "lie", "felt", "lead", "light",
                        "set", "bit", "rose", "spring", "fell", "lit", "mean", "meant", "read", "tear", "wind",
                        "be", "was", "were", "been", "do", "did", "done", "have", "had", "get", "got", "gotten"})


def forms(word: str) -> list[str]:
    """The other forms of ``word`` if it is an irregular verb ("win" → ["won"], "bought" → ["buy"]);
    none for a form that is also a common noun or an auxiliary."""
    w = word.lower()
    if w in _AMBIGUOUS:
        return []
    return [f for f in _GROUPS.get(w, ()) if f != w and f not in _AMBIGUOUS]
