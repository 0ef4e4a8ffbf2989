"""Personal facts in the shapes chat is full of: family, pets and studies.

* family: "my husband", "my two kids", "our daughter", "my sister Emma" → a fact on the
  relation's topic (``husband``, ``children``, ``sister``…) whose value is what the text calls
  them ("two kids", "Emma");
* pets: "my dog Max", "our cats", "I have two cats", "we adopted a puppy" → a fact on the
  animal's topic (``dog``, ``cat``…): its name, or what the text says ("two cats");
* studies: "I'm studying counseling", "I study law", "I'm majoring in biology" → ``field_of_study``;
* Chinese: "我老公…", "我有两个孩子", "我养了一只猫", "我在学心理学".

One topic per relation (not one "family" topic) so that a later "my wife" never supersedes an
earlier "my kids": every undeclared topic has cardinality one. The gates are stricter than the
parse alone: a first-person possessive ("my / our") or a first-person subject of "have / got /
adopted", no question, no hypothetical ("if", "someday", "my future kids", "would"), no negation,
nothing inside quotation marks. What comes out is an :class:`~.openvocab.OpenFound` already gated
(``gated=True``); the statement layer makes it an L2 candidate unless the topic is declared.
"""

from __future__ import annotations

import re
from typing import Any

from .openvocab import OpenFound
from .personal_gates import personal_kept

__all__ = ["personal_en", "personal_zh", "PERSONAL_CUE_EN", "PERSONAL_CUE_ZH", "RELATION_TOPICS"]

_FAMILY = {"husband": "husband", "wife": "wife", "hubby": "husband", "boyfriend": "boyfriend",
           "girlfriend": "girlfriend", "fiance": "fiance", "fiancé": "fiance", "fiancee": "fiance", "fiancée": "fiance",
           "kid": "children", "kids": "children", "child": "children", "children": "children", "son": "son",
           "sons": "son", "daughter": "daughter", "daughters": "daughter", "mom": "mother", "mum": "mother",
           "mother": "mother", "mommy": "mother", "dad": "father", "father": "father", "daddy": "father",
           "parents": "parents", "brother": "brother", "brothers": "brother", "sister": "sister",
           "sisters": "sister", "siblings": "siblings", "grandma": "grandmother", "grandmother": "grandmother",
           "granny": "grandmother", "grandpa": "grandfather", "grandfather": "grandfather",
           "grandkids": "grandchildren", "grandchildren": "grandchildren", "stepdad": "stepfather",
           "stepmom": "stepmother", "twins": "children"}
# What the speaker runs or owns, when they say "my / our": "my clothing store", "our band".
_OWNED = {"store": "store", "shop": "shop", "studio": "studio", "business": "business", "company": "company",
          "startup": "company", "blog": "blog", "channel": "channel", "podcast": "podcast", "band": "band",
          "car": "car", "house": "house", "apartment": "home", "flat": "home", "garden": "garden", "farm": "farm",
          "bakery": "business", "restaurant": "business", "cafe": "business", "team": "team", "charity": "charity",
          "nonprofit": "charity", "foundation": "charity", "boutique": "store", "biz": "business"}
# A sentence about a business still to come: "I'm gonna start my own business", "my dream studio".
_NOT_YET = re.compile(r"\b(?:gonna|going to|want|wanna|plans?|planning|dreams?|dreaming|someday|hope|hoping|"
                      r"start|starting|startin'?|open|opening|launch|launching|build|building|set up|setting up)\b", re.I)
# "my local pet store", "my favourite cafe", "my old house": where the speaker goes or went, not theirs now.
_NOT_OWNED = {"local", "favorite", "favourite", "usual", "regular", "nearest", "old", "former", "childhood", "pet",
              "grocery", "neighborhood", "neighbourhood", "go-to", "fave", "parents", "mom", "dad", "mother", "father",
              "grandma", "grandparents", "friend", "friends"}
_PETS = {"dog": "dog", "dogs": "dog", "puppy": "dog", "pup": "dog", "puppies": "dog", "cat": "cat", "cats": "cat",
         "kitten": "cat", "kitty": "cat", "kittens": "cat", "turtle": "turtle", "turtles": "turtle",
         "parrot": "bird", "bird": "bird", "birds": "bird", "hamster": "hamster", "rabbit": "rabbit",
         "bunny": "rabbit", "guinea": "guinea_pig", "horse": "horse", "horses": "horse", "snake": "snake",
         "lizard": "lizard", "fish": "fish", "goldfish": "fish", "pets": "pets", "pet": "pets"}
# "my future kids", "my dream husband": not who the speaker has.
_NOT_REAL = {"future", "dream", "ideal", "imaginary", "potential", "hypothetical", "perfect", "would-be", "next",
             "fur", "furry", "own"}
_HYPO = re.compile(r"^\s*(?:if|maybe|perhaps|imagine|suppose|hopefully|someday|one day)\b|\b(?:if|someday|some day|"
                   r"one day|wish|would|could|might|should|'d|hope to|hoping to|dream of|dreaming of|"
                   r"when I (?:have|get))\b", re.I)
_HAVE = {"have", "'ve", "has", "got", "adopted", "own", "rescued", "welcomed"}
_STUDY_VERBS = {"studying", "study", "majoring", "major", "minoring"}
_NUM = {"a", "an", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "2", "3", "4", "5"}
PERSONAL_CUE_EN = re.compile(r"\b(?:my|our|I have|I've got|I got|I own|we have|we've got|we got|adopted|"
                             r"studying|study|majoring|I (?:love|enjoy|like|adore)|fan of|into|passionate about)\b", re.I)
PERSONAL_CUE_ZH = re.compile(r"我(?:老公|丈夫|老婆|妻子|太太|儿子|女儿|孩子|妈妈|爸爸|哥哥|姐姐|弟弟|妹妹|家的?(?:狗|猫))|"
                             r"我(?:们)?有|养了|我(?:在)?学")


def _name_after(tok: Any) -> Any:
    """"my sister Emma", "my dog, Max,": the proper name right after the noun."""
    for c in tok.children:
        if c.dep_ in ("appos", "npadvmod", "attr") and c.pos_ == "PROPN" and c.i <= tok.i + 2 \
                and c.ent_type_ not in ("GPE", "LOC", "DATE", "NORP", "FAC"):
            return c
    nxt = tok.doc[tok.i + 1] if tok.i + 1 < len(tok.doc) else None
    if nxt is not None and nxt.pos_ == "PROPN" and (nxt.head.i == tok.i or (tok.dep_ == "compound" and tok.head.i == nxt.i)) \
            and nxt.ent_type_ in ("", "PERSON", "ORG"):
        return nxt
    return None


def _phrase(tok: Any) -> tuple[int, int]:
    """The noun with its number and modifiers before it ("two younger kids", "ex-husband")."""
    lo = tok.i
    while lo - 1 >= tok.sent.start and tok.doc[lo - 1].head.i == tok.i and tok.doc[lo - 1].dep_ in (
            "nummod", "amod", "compound", "punct") or (lo - 1 >= tok.sent.start and tok.doc[lo - 1].text == "-"):
        lo -= 1
    while tok.doc[lo].is_punct and lo < tok.i:
        lo += 1
    return tok.doc[lo].idx, tok.idx + len(tok.text)


def _quoted(sent: Any, tok: Any) -> bool:
    before = sent.doc.text[sent.start_char:tok.idx]
    return bool(before.count('"') % 2 == 1 or before.count("“") > before.count("”"))


def _negated_up(tok: Any) -> bool:
    up = tok
    for _ in range(6):
        if any(c.dep_ == "neg" for c in up.children):
            return True
        if up.head.i == up.i:
            return False
        up = up.head
    return False


def _found(topic: str, a: int, b: int, text: str, declared: set[str]) -> OpenFound:
    return OpenFound(topic, text[a:b], (a, b), topic in declared, gated=True)


def personal_en(sent: Any, open_cfg: dict[str, Any]) -> list[OpenFound]:
    """Family, pet and study facts in one parsed English sentence, gated (see the module doc)."""
    text = sent.text
    if text.rstrip().endswith("?") or _HYPO.search(text):
        return []
    declared = set(open_cfg.get("declared", []))
    return personal_kept(sent, _relations(sent, declared) + _studies(sent, declared) + _likes(sent, declared)
                         + _fans(sent, declared))


def _whose(sent: Any, tok: Any) -> tuple[bool, bool] | None:
    """(mine, had) for a relation, pet or owned noun the speaker may have: "my / our X", or "I
    have / got / adopted a / two X"; None when the noun says nothing of the speaker's own."""
    if _quoted(sent, tok) or _negated_up(tok) or tok.dep_ == "poss":
        # "my dog's name is Luna", "my wife's name is Anna": about the relative's thing (openvocab.py)
        return None
    if any(c.lower_ in ("named", "called") for c in tok.children):
        # "I have a dog named Max": openvocab.py draws dog_name
        return None
    mods = {c.lower_ for c in tok.children if c.dep_ in ("amod", "compound")}
    if tok.lower_ in _OWNED and "own" in mods:
        mods.discard("own")  # "my own studio" is the speaker's; "my own kids (someday)" is not yet anyone
        if _NOT_YET.search(sent.text):
            return None
    if mods & _NOT_REAL or any(c.lower_ == "ex" for c in tok.children):
        return None
    poss = next((c for c in tok.children if c.dep_ == "poss"), None)
    if poss is None and tok.dep_ == "compound" and tok.head.pos_ == "PROPN" and tok.head.i == tok.i + 1:
        poss = next((c for c in tok.head.children if c.dep_ == "poss"), None)  # "my dog Biscuit" (one noun)
    mine = poss is not None and poss.lower_ in ("my", "our")
    # "I have two cats", "we adopted a puppy": the speaker's by a first-person have / got / adopted.
    had = tok.dep_ == "dobj" and tok.head.lower_ in _HAVE and tok.head.tag_ in ("VBP", "VBD", "VBN") \
        and any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in tok.head.children) \
        and not any(c.dep_ in ("neg", "xcomp", "ccomp") or (c.dep_ == "aux" and c.tag_ == "MD")
                    for c in tok.head.children) \
        and any(c.dep_ in ("det", "nummod") and c.lower_ in _NUM for c in tok.children) and poss is None
    if not (mine or had):
        return None
    low = tok.lower_
    if low in _OWNED and (not mine or tok.tag_ != "NN" or mods & _NOT_OWNED or tok.dep_ == "compound"
                          or (low == "biz" and _NOT_YET.search(sent.text))
                          or (poss is not None and ("'" in poss.text or tok.doc.text[poss.idx:tok.idx].count("`")))):
        return None  # "my store", not "I have a store" (maybe someone else's), "my cars", "my local pet store"
    if (low in ("pet", "pets") and not mine) or (low in ("kid", "child") and mine) or (low == "fish" and not had):
        return None  # "my kid" is said of grown-ups and pupils too; "my kids" is clear enough
    return mine, had


def _relation_span(tok: Any, had: bool) -> tuple[int, int]:
    """The value's characters: the name after the noun ("my sister Emma", "two cats, Luna and
    Oliver"), else the noun with its number and modifiers ("two kids"; "a puppy" → "puppy")."""
    doc = tok.doc
    name = _name_after(tok)
    if name is not None:
        a, b = name.idx, name.idx + len(name.text)
        if name.i + 1 < len(doc) and doc[name.i + 1].pos_ == "PROPN" and doc[name.i + 1].head.i == name.i:
            b = doc[name.i + 1].idx + len(doc[name.i + 1].text)
        names = [c for c in name.children if c.dep_ == "conj" and c.pos_ == "PROPN"]
        if names:  # "two cats, Luna and Oliver": both names
            b = max(b, names[-1].idx + len(names[-1].text))
        return a, b
    a, b = _phrase(tok)
    if had:  # "a puppy" → "puppy", "two cats" stays
        det = next((c for c in tok.children if c.dep_ == "det" and c.lower_ in ("a", "an")), None)
        a = max(a, det.idx + len(det.text) + 1) if det is not None and det.idx >= a - 2 else a
    return a, b


def _relations(sent: Any, declared: set[str]) -> list[OpenFound]:
    """"my husband", "my sister Emma", "I have two cats", "our band": one fact per relation topic."""
    out: list[OpenFound] = []
    seen: set[str] = set()
    for tok in sent:
        low = tok.lower_
        if tok.pos_ not in ("NOUN", "PROPN") or (low not in _FAMILY and low not in _PETS and low not in _OWNED):
            continue
        whose = _whose(sent, tok)
        if whose is None:
            continue
        topic = _FAMILY.get(low) or _PETS.get(low) or _OWNED[low]
        if topic in seen:
            continue
        a, b = _relation_span(tok, whose[1])
        if tok.doc.text[a:b].lower().startswith("own "):
            a += 4  # "my own studio" → "studio"
        seen.add(topic)
        out.append(_found(topic, a, b, tok.doc.text, declared))
    return out


def _studies(sent: Any, declared: set[str]) -> list[OpenFound]:
    """"I'm studying counseling", "I study law", "I'm majoring in biology"."""
    doc = sent.doc
    out: list[OpenFound] = []
    for tok in sent:
        if tok.lower_ not in _STUDY_VERBS or tok.pos_ != "VERB":
            continue
        if not any(c.dep_ == "nsubj" and c.lower_ == "i" for c in tok.children) or any(
                c.dep_ == "neg" or (c.dep_ == "aux" and c.tag_ == "MD") for c in tok.children):
            continue
        if tok.tag_ == "VBG" and not any(c.dep_ == "aux" and c.lower_ in ("am", "'m") for c in tok.children):
            continue
        obj = _field_of(tok)
        if obj is None:
            continue
        lo = obj.i
        while lo - 1 > tok.i and doc[lo - 1].head.i == obj.i and doc[lo - 1].dep_ in ("compound", "amod"):
            lo -= 1
        a, b = doc[lo].idx, obj.idx + len(obj.text)
        topic = "minor" if tok.lower_.startswith("minor") else "field_of_study"
        out.append(_found(topic, a, b, doc.text, declared))
    return out


def _field_of(tok: Any) -> Any:
    """The noun a study verb names as a field ("law", "in biology"), or None: not a pronoun, not
    "the map" or "your notes", not a long phrase ("the effects of …")."""
    obj = next((c for c in tok.children if c.dep_ == "dobj"), None)
    if obj is None:
        prep = next((c for c in tok.children if c.dep_ == "prep" and c.lower_ == "in"), None)
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None) if prep is not None and \
            tok.lower_.startswith(("major", "minor")) else None
    if obj is None or obj.pos_ not in ("NOUN", "PROPN") or obj.lower_ in ("it", "this", "that", "hard", "lot",
                                                                          "stuff", "things", "something"):
        return None
    if any(c.dep_ in ("poss", "det") and c.lower_ in ("your", "his", "her", "their", "the", "this", "that", "a",
                                                      "an", "some") for c in obj.children):
        return None  # "studying the map", "studying your notes": not a field of study
    if any(c.dep_ in ("acl", "relcl", "prep") for c in obj.children):
        return None  # "studying the effects of …": too long to be a field's name
    return obj


_LIKE_VERBS = {"love", "loves", "enjoy", "enjoys", "like", "likes", "adore", "adores"}
# Gerunds that say how something is taken in, not a pastime ("I love seeing you happy").
_NOT_PASTIME = {"seeing", "hearing", "knowing", "being", "having", "getting", "feeling", "watching", "talking",
                "chatting", "spending", "making", "helping", "looking", "finding", "sharing",
                "going", "doing", "thinking", "imagining", "catching", "connecting", "working", "meeting", "keeping",
                "taking", "giving", "telling", "showing", "trying", "playing", "listening",
                "spreading", "supporting", "using", "putting", "bringing"}
# … unless their object says what ("watching movies", "reading fantasy novels", "playing chess").
_OBJ_PASTIME = {"watching", "reading", "playing", "listening", "exploring", "writing", "making", "creating",
                "learning", "going"}
_NOT_LIKED = {"idea", "way", "thing", "things", "stuff", "fact", "sound", "vibe", "vibes", "energy", "feeling",
              "look", "support", "advice", "photo", "pic", "picture", "pics", "photos", "one", "ones", "part",
              "color", "colors", "name", "story", "stories", "attitude", "view", "pictures", "shot", "shots",
              "spirit", "work", "message", "quote", "sign", "design", "moment", "moments", "concept", "plan",
              "suggestion", "suggestions", "thought", "thoughts", "list", "lot", "mix", "combo", "details", "detail"}
_DEICTIC = {"you", "your", "yours", "it", "its", "that", "this", "these", "those", "them", "he", "she", "him", "her",
            "his", "they", "their", "how", "what", "when", "where", "who", "which", "the", "there", "here", "our",
            "we", "us", "one"}


_FAN = re.compile(r"\bI(?:'m| am) (?:a |such a )?(?:big |huge |massive |total )?fan of (?P<v>[A-Z][\w'&-]*(?: (?:[A-Z][\w'&-]*|of|the|and))*"
                  r"|[a-z][\w-]+(?: [a-z][\w-]+)?)(?=[.!,;]| [-–] |$)|\bI(?:'m| am) (?:really |so |totally |big |super |very |truly |deeply )?"
                  r"(?:into|passionate about) (?P<w>[a-z][\w-]+(?: [a-z][\w-]+)?)(?=[.!,;]| [-–] |$)")
_FAN_NOT = {"it", "that", "this", "them", "you", "yours", "your", "the", "his", "her", "their", "those", "these", "him",
            "things", "stuff", "all", "everything", "something", "anything"}


def _fans(sent: Any, declared: set[str]) -> list[OpenFound]:
    """"I'm a huge fan of Harry Potter", "I'm really into pottery", "I'm passionate about
    basketball": liked, like "I love…"."""
    out = []
    for m in _FAN.finditer(sent.text):
        g = "v" if m.group("v") else "w"
        value = m.group(g)
        if value.split()[0].lower() in _FAN_NOT or any(w.lower() in _FAN_NOT for w in value.split()[-1:]):
            continue
        a = sent.start_char + m.start(g)
        b = a + len(value)
        if any(t.dep_ == "neg" for t in sent if t.idx < a):
            continue
        topic = "likes." + re.sub(r"[^a-z0-9]+", "_", value.lower()).strip("_")
        out.append(_found(topic, a, b, sent.doc.text, declared))
    return out


def _likes(sent: Any, declared: set[str]) -> list[OpenFound]:
    """"I love painting", "I enjoy hiking", "I love to cook", "I love dogs": a pastime or a thing the
    speaker likes, as ``likes.<thing>`` (one topic per liked thing: two likes never supersede each
    other, and every undeclared topic has cardinality one)."""
    doc = sent.doc
    out: list[OpenFound] = []
    for v in sent:
        if v.lower_ not in _LIKE_VERBS or v.tag_ not in ("VBP", "VBZ") or not (v.dep_ in ("ROOT", "conj") or (
                v.dep_ == "ccomp" and v.head.i > v.i)):  # "I love X, the effects are cool" (parsed as a ccomp)
            continue
        if not any(c.dep_ == "nsubj" and c.lower_ == "i" for c in v.children):
            continue
        if any(c.dep_ in ("neg", "mark") or (c.dep_ == "aux" and c.tag_ == "MD") or c.dep_ == "ccomp"
               or (c.dep_ == "advmod" and c.lower_ in ("when", "how", "whenever")) for c in v.children):
            continue
        obj = next((c for c in v.children if c.dep_ in ("xcomp", "dobj") and c.i > v.i), None)
        if obj is None:
            continue
        sub = [t for t in obj.subtree]
        if any(t.lower_ in _DEICTIC or t.ent_type_ in ("PERSON", "DATE", "TIME") for t in sub) or len(sub) > 5 \
                or any(t.is_punct and t.text not in "-'" for t in sub):
            continue
        if obj.tag_ == "VBG" or (obj.tag_ == "VB" and any(c.tag_ == "TO" for c in obj.children)):
            objs = [c for c in obj.children if c.dep_ in ("dobj", "prep", "prt")]
            if obj.lower_ in _NOT_PASTIME and not (obj.lower_ in _OBJ_PASTIME and any(c.dep_ == "dobj" for c in objs)):
                continue
            if obj.tag_ == "VB" and (obj.lower_ in ("be", "have", "get", "see", "hear", "know", "help", "make", "do",
                                                    "go", "say", "chat", "talk", "think", "share", "keep", "try")):
                continue
            toks = [t for t in sub if t.tag_ != "TO"]
            thing = next((c for c in obj.children if c.dep_ == "dobj"), None)
            head_word = obj.lower_ + (" " + thing.lower_ if thing is not None else "")
        elif obj.pos_ in ("NOUN", "PROPN") and obj.lower_ not in _NOT_LIKED:
            if any(c.dep_ in ("det", "poss") for c in obj.children) or (obj.tag_ == "NN" and obj.pos_ == "NOUN"
                                                                        and not any(c.dep_ == "compound" for c in obj.children)
                                                                        and obj.lower_ not in _MASS_OK):
                continue  # "I love the view", "I love your painting"; "I love dogs", "I love jazz"
            toks = [t for t in sub if t.dep_ not in ("relcl", "acl")]
            head_word = obj.lower_
        else:
            continue
        toks = sorted(toks, key=lambda t: t.i)
        if not toks or toks[-1].i - toks[0].i + 1 != len(toks):
            continue
        a, b = toks[0].idx, toks[-1].idx + len(toks[-1].text)
        topic = "likes." + re.sub(r"[^a-z0-9]+", "_", head_word).strip("_")
        out.append(_found(topic, a, b, doc.text, declared))
    return out


_MASS_OK = {"jazz", "music", "art", "nature", "sports", "poetry", "pottery", "cooking", "baking", "hiking", "yoga",
            "dancing", "painting", "photography", "gardening", "fishing", "camping", "chess", "football", "soccer",
            "basketball", "baseball", "tennis", "golf", "surfing", "skiing", "swimming", "running", "cycling",
            "travel", "traveling", "travelling", "reading", "writing", "gaming", "coffee", "tea", "chocolate",
            "pizza", "sushi", "history", "science", "theater", "theatre", "opera", "fantasy", "comedy", "horror",
            "anime", "knitting", "sewing", "volunteering", "meditation", "kayaking", "climbing", "skating",
            "snowboarding", "horseback", "music", "rock", "pop", "rap", "country", "classical", "guitar", "piano",
            "violin", "drums"}


_ZH_FAMILY = {"老公": "husband", "丈夫": "husband", "老婆": "wife", "妻子": "wife", "太太": "wife", "儿子": "son",
              "女儿": "daughter", "妈妈": "mother", "爸爸": "father", "哥哥": "brother", "弟弟": "brother",
              "姐姐": "sister", "妹妹": "sister"}
_ZH_HAVE = re.compile(r"我(?:们)?(?:家)?(?:有|养了)(?P<value>(?:一|两|二|三|四|五)(?:个|只|条|位)(?P<noun>孩子|儿子|女儿|猫|狗|小狗|小猫|"
                      r"兔子|乌龟|鱼))")
_ZH_ANIMAL = {"孩子": "children", "儿子": "son", "女儿": "daughter", "猫": "cat", "小猫": "cat", "狗": "dog", "小狗": "dog",
              "兔子": "rabbit", "乌龟": "turtle", "鱼": "fish"}
_ZH_STUDY = re.compile(r"我(?:现在)?(?:在)?(?:学|读|念)(?P<value>[\u4e00-\u9fff]{2,6}?(?:学|专业))(?=[，。,！!；;]|$)")
_ZH_NOT = re.compile(r"如果|要是|假如|可能|也许|想|打算|没有|没|不|将来|以后|吗|？|\?")


def personal_zh(sentence: str, open_cfg: dict[str, Any]) -> list[tuple[OpenFound, int]]:
    """The Chinese shapes: "我老公…" (a family word right after 我), "我有两个孩子", "我养了一只猫",
    "我在学心理学"; nothing from a question, a hypothetical or a negation."""
    if _ZH_NOT.search(sentence):
        return []
    declared = set(open_cfg.get("declared", []))
    out: list[tuple[OpenFound, int]] = []
    for m in _ZH_HAVE.finditer(sentence):
        topic = _ZH_ANIMAL[m.group("noun")]
        out.append((OpenFound(topic, m.group("value"), m.span("value"), topic in declared, gated=True), m.start()))
    for m in re.finditer(r"我(?P<value>" + "|".join(_ZH_FAMILY) + r")", sentence):
        if sentence[m.end():m.end() + 1] in ("们",):
            continue
        topic = _ZH_FAMILY[m.group("value")]
        if any(o.topic == topic for o, _ in out):
            continue
        out.append((OpenFound(topic, m.group("value"), m.span("value"), topic in declared, gated=True), m.start()))
    for m in _ZH_STUDY.finditer(sentence):
        out.append((OpenFound("field_of_study", m.group("value"), m.span("value"), "field_of_study" in declared,
                              gated=True), m.start()))
    return out


# The topics this module draws about the speaker's own relations and belongings (a test helper and
# documentation: a sentence about a relative — "my wife works at Google" — may draw that the speaker
# has a wife, never the relative's employer as the speaker's).
RELATION_TOPICS = frozenset(set(_FAMILY.values()) | set(_PETS.values()) | set(_OWNED.values())
                            | set(_ZH_FAMILY.values()) | set(_ZH_ANIMAL.values()))
