"""Quoted and forwarded documents: where the quote starts, and the date the document carries.

A message that cites an older document ("the 2024 lease says…", "这是2025年3月的合同，上面写着…",
"截图是去年的，上面显示…", "Fwd: …", "Here's my March 2025 form: …") does not assert what the
document says. The extractor turns it into a ``source`` dated at the document and a ``quote``
whose claims are dated there, so they can only be history. A document whose date the message
does not give (or a date that is not before the message) yields no claims at all: the message is
still stored, and recall finds its text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from .dates import midnight
from .doc_dates import document_date
from .en_corrections import corrects_own_message

__all__ = ["Quote", "find_quote", "mentions_old_document", "pasted_at"]

DOC_EN = (r"e-?mail|mail|note|notes|message|letter|document|doc|memo|text|file|screenshot|screen ?shot|record|"
          r"form|contract|invoice|lease|agreement|statement|bill|receipt|ticket|photo|pic|picture|scan|pdf|"
          r"profile|card|license|licence|passport|policy|certificate|offer letter|offer|minutes|log|resume|cv|"
          r"r[ée]sum[ée]|application|registration|booking confirmation|confirmation|itinerary|chat|thread|post|slip|payslip")
DOC_ZH = (r"邮件|电邮|短信|消息|笔记|便条|文件|截图|截屏|来信|信件|这封信|那封信|记录|合同|表格|租约|协议|账单|发票|收据|照片|扫描件|档案|"
          r"简历|证件|证明|通知|聊天记录|登记表|申请表|确认单|行程单|工资条")
_SAYS_EN = (r"says|said|reads|read|shows|showed|states|stated|writes|wrote|lists|listed|has|had|gives|gave|"
            r"puts|put|mentions|mentioned|confirms|confirmed|notes|noted")
_CUE_EN = re.compile(rf"\b(?P<noun>{DOC_EN})s?\b[^.!?]{{0,60}}?\b(?:{_SAYS_EN})\b\s*(?:that\s+)?[:,]?\s*", re.I)
_CUE_ZH = re.compile(rf"(?P<noun>{DOC_ZH})[^。！？]{{0,24}}?(?:里面|里|中|上面|上)?"
                     r"(?:写着|写了|写的是|写(?![成错])|说(?![成错])|显示|提到|记着|记的是|登记的是|填的是|填着|标着)(?:着|了)?[:：，,]?\s*")
_FWD = re.compile(r"^\s*(?:fwd?|forwarded(?: message)?|转发)\s*[:：-]\s*", re.I)
_INTRO_EN = re.compile(rf"\b(?:here(?:'s| is| are)|attached(?: is)?|this is|forwarding|sharing|pasting|found|dug up|"
                       rf"sending)\b[^.!?:]{{0,50}}?\b(?P<noun>{DOC_EN})s?\b[^.!?:]{{0,40}}?(?:[:.]\s*|$)", re.I)
_INTRO_ZH = re.compile(rf"(?:这是|附上|附件是|转发|发你|贴一下|贴上|找到了?|翻到了?|这份|那份)[^。！？：:]{{0,24}}?"
                       rf"(?P<noun>{DOC_ZH})[^。！？：:，,]{{0,12}}?[：:。，,]\s*")
_KIND = {"email": "email", "e-mail": "email", "mail": "email", "邮件": "email", "电邮": "email", "message": "message",
         "text": "message", "短信": "message", "消息": "message", "chat": "message", "聊天记录": "message"}
_OLD = re.compile(r"\b(?:old|previous|former|earlier|original)\b|旧|以前|之前|原来|原先", re.I)


@dataclass(frozen=True)
class Quote:
    lead: str          # the words that introduce the document
    quoted: str        # what the document says, as quoted
    kind: str          # docs/format.md source kind
    at: datetime | None  # the document's date; None: not given, so nothing can be claimed


def find_quote(text: str, lang: str, at: datetime) -> Quote | None:
    """The quoted document a message cites, if it cites one.

    Pasted material (an article, a README, tool output: :func:`pasted_at`) is a document whose
    date is only what the speaker's own words before it say; its inside never dates it ("1958",
    "Date: Mon Mar 2" in a log), so a paste with no such words is data that draws nothing.
    """
    paste = pasted_at(text)
    if paste is not None:
        lead, quoted = text[:paste], text[paste:]
        return Quote(lead=lead, quoted=quoted.strip(), kind="document", at=_older(document_date(lead, at), at))
    # The message's language first, then the other: "The lease says 我住青禾路" is a quote too.
    cues = (_CUE_ZH, _INTRO_ZH, _CUE_EN, _INTRO_EN) if lang == "zh" else (_CUE_EN, _INTRO_EN, _CUE_ZH, _INTRO_ZH)
    cue = cues[0].search(text) or _FWD.search(text) or cues[1].search(text) or cues[2].search(text) \
        or cues[3].search(text)
    if cue is None:
        return None
    end = cue.end()
    if cue.re is _FWD:  # "Fwd: March memo — …": the subject line names (and dates) the document
        subject = _FWD_SUBJECT.match(text, end)
        if subject is not None and (_DOC_NOUN.search(subject.group("subject")) or _named_date(subject.group(0), at)):
            end = subject.end()
    lead, quoted = text[:end], text[end:]
    if not quoted.strip():
        return None
    noun = (cue.groupdict().get("noun") or "document").lower()
    words = _dating_words(text, cue.start(), end)
    introduced = cue.re in (_INTRO_EN, _INTRO_ZH, _FWD) or _introduced(text, cue.start(), end)
    doc_at = (document_date(words, at) or _named_date(words, at)) if introduced else None
    return Quote(lead=lead, quoted=quoted.strip(), kind=_KIND.get(noun, "document"), at=_older(doc_at, at))


def _introduced(text: str, start: int, end: int) -> bool:
    """Does the speaker cite the document ("…, and my old lease says…")? An introduction ("here's",
    "attached", "Fwd:") always is; a "the X says" cue is when it is in the message's first two
    sentences or its sentence has a first or second person. "The 2023 record shows…" deep in a
    text is that text's own words: a document with no date the speaker gives, so it claims nothing
    (and, being a quote, nothing in it is asserted now either)."""
    *before, own = _SENTENCE_END.split(text[:start])
    if sum(1 for b in before if b.strip()) < 2:
        return True
    own += text[start:end]
    return bool(_PERSON_ZH.search(own) or _PERSON_EN.search(own))


def _older(doc_at: datetime | None, at: datetime) -> datetime | None:
    """A document from the message's day or later is not an older one: claim nothing."""
    return doc_at if doc_at is not None and doc_at < midnight(at) else None


_SENTENCE_END = re.compile(r"[.!?。！？\n]")
_FWD_SUBJECT = re.compile(r"(?P<subject>[^\n:：—–]{1,60}?)\s*(?:[:：—–]|\s-\s|\n)\s*")
_MONTH_DOC = re.compile(rf"(?<!next )(?<!this )(?<!coming )(?<!upcoming )(?<!following )"
                        rf"\b(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
                        rf"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\s+(?:{DOC_EN})s?\b", re.I)
_MONTHS = {m: i + 1 for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                           "nov", "dec"))}


def _dating_words(text: str, start: int, end: int) -> str:
    """The words that may date the cited document: the cue's own sentence, and the sentence before
    it while the message has just begun ("Back in 2024 I signed a lease. The lease says…"). Years
    further back are the surrounding text's, not the document's ("…in 1958 the city… The 1993
    record shows…" dates nothing but the record)."""
    bounds = [m.end() for m in _SENTENCE_END.finditer(text, 0, start)]
    begin = bounds[-1] if len(bounds) >= 2 else 0
    return text[begin:end]


def _named_date(words: str, at: datetime) -> datetime | None:
    """A bare month naming a document ("the March memo", "Fwd: June invoice"): the latest such
    month before the message's month."""
    m = next((x for x in _MONTH_DOC.finditer(words) if x.group("mon") != "may"), None)  # "I may text…"
    if m is None:
        return None
    month = _MONTHS[m.group("mon")[:3].lower()]
    year = at.year if month < at.month else at.year - 1
    return datetime(year, month, 1, tzinfo=at.tzinfo)


# -- pasted material ------------------------------------------------------------------------------

_STRUCTURE = re.compile(r"^(?:#{1,6}\s+\S|```|~~~|\$ \S|>>> |PS [A-Z]:\\|commit [0-9a-f]{7,}\b|Traceback \(most recent|"
                        r"[A-Za-z_.]*(?:Error|Exception): |\s*\|.*\|\s*$|\s*[-=]{3,}\s*$|\d{4}-\d\d-\d\d[ T]\d\d:\d\d|"
                        r"(?: {4}|\t)\S)", re.M)
_PERSON_EN = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|we|we're|our|us|you|your|you're)\b", re.I)
_PERSON_ZH = re.compile(r"我|你|您|咱")
_CHAT = re.compile(r"[!?！？~]|\b(?:hey|hi|hello|thanks|thank|wow|lol|haha|omg|yeah|yep|cool|awesome|gonna|gotta|"
                   r"cuz|sorry|congrats|ok|okay)\b|[\U0001F300-\U0001FAFF]|哈哈|谢谢|嗯|啊|呀|吧|呢|嘛|"
                   r"各位好|大家好|祝好|您好|你好|收到", re.I)
_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]?")


def pasted_at(text: str) -> int | None:
    """Where pasted material starts in a message, or None when the message is someone talking.

    Pasted material is a document's text, not the speaker's words: lines shaped like a document or
    a tool's output (a Markdown heading, a code fence or indented code, a shell or Python prompt, a
    ``commit`` line, a traceback, a table row, a timestamped log line), from the first such line
    on, the words before it being the speaker's ("Here's the 2024 README:"); or prose that reads
    like an article: three sentences or more, at least 200 characters (60 in Chinese), and in its
    first three no first or second person and nothing of chat (no "!" or "?", no greeting, thanks,
    "wow", "gonna", emoji, 啊 / 吧 / 呢…).
    """
    lines = list(_STRUCTURE.finditer(text))
    if len(lines) >= 2 or (lines and len(text) - lines[0].start() > 80):
        return lines[0].start()  # the words before it, if any, are the speaker's ("Here's the README:")
    sentences = [s.strip() for s in _SENTENCE.findall(text) if s.strip()]
    zh = bool(re.search(r"[\u4e00-\u9fff]", text[:200]))
    if len(sentences) < 3 or len(text) < (60 if zh else 200):
        return None
    person = _PERSON_ZH if zh else _PERSON_EN
    if any(person.search(s) or _CHAT.search(s) for s in sentences[:3]):
        return None
    return 0


_DOC_NOUN = re.compile(rf"\b(?:{DOC_EN})s?\b|{DOC_ZH}", re.I)


def mentions_old_document(sentence: str, at: datetime) -> bool:
    """A sentence that talks about an old document ("my 2024 contract", "去年的合同"): what it
    states may be the document's, not the speaker's now — the safety net under :func:`find_quote`."""
    noun = _DOC_NOUN.search(sentence)
    if noun is None or corrects_own_message(sentence):  # "correction to my previous email: …"
        return False
    return bool(_OLD.search(sentence)) or document_date(sentence, at) is not None
