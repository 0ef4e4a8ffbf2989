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

from .dates import document_date, midnight

__all__ = ["Quote", "find_quote", "mentions_old_document"]

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
                     r"(?:写着|写了|写的是|写|说|显示|提到|记着|记的是|登记的是|填的是|填着|标着)(?:着|了)?[:：，,]?\s*")
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
    kind: str          # FORMAT.md source kind
    at: datetime | None  # the document's date; None: not given, so nothing can be claimed


def find_quote(text: str, lang: str, at: datetime) -> Quote | None:
    """The quoted document a message cites, if it cites one."""
    # The message's language first, then the other: "The lease says 我住青禾路" is a quote too.
    cues = (_CUE_ZH, _INTRO_ZH, _CUE_EN, _INTRO_EN) if lang == "zh" else (_CUE_EN, _INTRO_EN, _CUE_ZH, _INTRO_ZH)
    cue = cues[0].search(text) or _FWD.search(text) or cues[1].search(text) or cues[2].search(text) \
        or cues[3].search(text)
    if cue is None:
        return None
    lead, quoted = text[:cue.end()], text[cue.end():]
    if not quoted.strip():
        return None
    noun = (cue.groupdict().get("noun") or "document").lower()
    doc_at = document_date(lead, at)
    if doc_at is not None and doc_at >= midnight(at):
        doc_at = None  # a document from today or later is not an older one: claim nothing
    return Quote(lead=lead, quoted=quoted.strip(), kind=_KIND.get(noun, "document"), at=doc_at)


_DOC_NOUN = re.compile(rf"\b(?:{DOC_EN})s?\b|{DOC_ZH}", re.I)


def mentions_old_document(sentence: str, at: datetime) -> bool:
    """A sentence that talks about an old document ("my 2024 contract", "去年的合同"): what it
    states may be the document's, not the speaker's now — the safety net under :func:`find_quote`."""
    noun = _DOC_NOUN.search(sentence)
    if noun is None:
        return False
    return bool(_OLD.search(sentence)) or document_date(sentence, at) is not None
