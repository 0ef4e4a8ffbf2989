"""Clean value spans: what a pattern captured, cut to the name or thing it means.

Values stay substrings of the message (nothing is translated or rewritten); cleaning only trims:
trailing dashes and punctuation, trailing adverbs that are not part of a name ("pets earlier",
"cockroaches as well"), leading quantifiers on a many-valued list item ("most reptiles").
"""

from __future__ import annotations

import re

__all__ = ["clean"]

_TRAILING_EN = re.compile(
    r"(?:\s+(?:earlier|later|as well|too|also|again|now|anymore|any more|recently|lately|already|though|either|"
    r"then|actually|lol|haha|tbh|btw|honestly|for sure|right now|these days|nowadays|today|tonight|tomorrow|"
    r"yesterday|this week|next week|last week|for now|for a while|still|ok|okay|yet|so|and|or|but|with|from|"
    r"after all|at all|(?:the )?fun one|"
    r"in|on|at|to|for|of|by|since|until|till|starting|this|that|which|who|because|when|while))+$", re.I)
_LEADING_EN = re.compile(r"^(?:most|some|all|any|many|certain|a few|a lot of|lots of|several|a|an|the|like|"
                         r"really|very|super|mildly|slightly|severely|deathly|extremely|so)\s+", re.I)
_TRAILING_ZH = re.compile(r"(?:了|啦|呢|吧|啊|呀|哦|喔|嘛|(?<=[\u4e00-\u9fff]{2})去)+$")  # 搬到大理去
_NO_THING_EN = re.compile(r"(?:nothing|none|nobody|no one|nada)\b", re.I)
_DASHES = "-–—‐‑_~～/\\|·•*"


def clean(value: str, lang: str, shape: str | None, many: bool) -> str:
    """The value without trailing noise; '' when nothing is left."""
    v = value.strip()
    for _ in range(4):
        before = v
        v = v.strip().rstrip(".,;:!?。，；：！？、\"'”“‘’()（）[]" + _DASHES).strip() if lang == "en" or not re.search(
            r"[（(][^）)]*[）)]$", v) else v.strip()  # "如家（国贸店）": a closed bracket is part of the name
        if lang == "en":
            v = _TRAILING_EN.sub("", v)
            if many or shape == "item":
                v = _LEADING_EN.sub("", v)
        else:
            v = _TRAILING_ZH.sub("", v)
            if many or shape == "item":
                v = re.sub(r"^(?:还有|以及|另外|还|或者)", "", v)  # "海鲜、花生、还有青霉素"
            if shape == "address" and "的" in v:
                v = v.rsplit("的", 1)[1]  # "朋友家附近的光明路" → "光明路"
        if v == before:
            break
    if lang == "en" and (many or shape == "item") and _NO_THING_EN.match(v):
        return ""  # "allergic to nothing (, eating everything)": a quantifier names no thing
    return v
