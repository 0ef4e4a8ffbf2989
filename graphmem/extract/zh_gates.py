"""Chinese gates beyond :func:`.gates.judge_zh` (which is full), for the readings issue #43 added.

:func:`judge_zh_more` is :func:`.gates.judge_zh` with these rules first:

* A trip told only by where the speaker is ("6.15-6.20我在东京", "下周我在成都，周二到周四") is a
  trip when the sentence bounds it or dates it ahead; "我在北京" alone may be home, a trip or an
  errand, and draws nothing. A sentence that names the trip (出差, 开会, 培训…) needs no date.
* An employer that is a city ("离开东京") is no employer.
* "哪天我也搬到大理去", "下辈子住在三亚": a someday is a wish. "上次去北京出差住的全季": a past trip.
* Someone named by a title or a 小/老/阿 form before the cue ("小李搬去深圳了", "张总下周去上海出差")
  is someone else, unless a 我 stands after it: hearsay is not the speaker's fact.
* Words the character gates misread are hidden from them (the same length, so offsets hold):
  a 想 inside a name (联想, 理想汽车, 思想) is no wish; "不变/没变" after a value ("端口还是443不变")
  is no negation; telling the listeners ("跟你们说个事，…", "告诉大家") does not make the fact
  theirs; and a request to the listener about how to answer the speaker ("以后你跟我说话用日语",
  "你回我用英文") is the speaker's preference: the 你 is who is asked, not whose fact it is.
"""

from __future__ import annotations

import re

from .gates import PLAN_TOPICS, PREFERENCE_TOPICS, Verdict, judge_zh
from .zh_places import is_city_zh

__all__ = ["judge_zh_more"]

_ASKED = re.compile(r"[你您](?=(?:以后|今后|就|都|请)?(?:跟我|和我|给我|回我|对我|回复|说话|用))")
_TRIP_WORDS = re.compile(r"出差|差旅|旅行|旅游|开会|度假|培训|参会|参展|出行|行程|学习|玩")
_NAME_WISH = re.compile(r"(?<=[联理思感着构猜幻回])想")
_UNCHANGED = re.compile(r"不变|没变|没改|不动")
_SOMEDAY = re.compile(r"哪天|有朝一日|总有一天|下辈子|上辈子|等我有钱|等退休")
_LAST_TIME = re.compile(r"上次|上回|那次|那回|之前那趟")
_VERBISH = r"(?:[也都还已就又刚]|已经|现在|目前|下周|这周|明天|今天|最近)*(?=在|去|搬|住|到|对|是|从|离|入职|跳|回|飞|出差|定居|常驻|吃)"
# Someone named in a way the character gates do not know: 小李, 老王, 阿强; 张总, 王经理, 李老师, 强哥.
_THIRD = re.compile(r"(?:^|(?<=[，,。！!\s：:]))(?:(?:小|老|阿)(?!家|婆|公|板|师|是|实|样|区|时|伙|孩|乡|弟|妹|哥|姐|妈|爸|大|早|远|久|有|在)"
                    r"[\u4e00-\u9fff]|[\u4e00-\u9fff]{1,2}(?:总|经理|老师|主任|师傅|医生|教授|哥|姐))" + _VERBISH)
_TELLING = re.compile(r"(?:跟|和|给|告诉)(?:你们|大家|各位|你|您)(?:说|讲|汇报|报告|通知)?(?:个|一下|一声)?(?:事|事儿)?")


def _hide(text: str, rx: re.Pattern[str], start: int = 0) -> str:
    return text[:start] + rx.sub(lambda m: "某" * len(m.group()), text[start:])


def judge_zh_more(sentence: str, cue: int, a: int, b: int, topic: str, about_topic: bool, bounded: bool) -> Verdict:
    """Gate one Chinese match (see :func:`.gates.judge_zh`) with the rules above."""
    if topic == "trip_city" and not bounded and sentence[max(cue, a - 1):a] == "在" \
            and not _TRIP_WORDS.search(sentence):
        return Verdict(False, why="where the speaker is, with no trip or dates")
    if topic == "employer" and (is_city_zh(sentence[a:b]) or sentence[a:b].endswith("市")):
        return Verdict(False, why="a city is not an employer")
    if re.search(r"吗(?=\s*(?:还是|[，,]))", sentence):
        return Verdict(False, why="question")  # "端口是8080吗还是8081"
    if _SOMEDAY.search(sentence[:b]):
        return Verdict(False, why="hypothetical")
    if topic in PLAN_TOPICS and not bounded and _LAST_TIME.search(sentence):
        return Verdict(False, why="past episode")
    if not about_topic and any(sentence.rfind("我", 0, cue) < m.start() < cue for m in _THIRD.finditer(sentence)):
        return Verdict(False, why="someone else")
    seen = _hide(_hide(sentence, _NAME_WISH), _UNCHANGED, b)
    seen = _hide(seen[:cue], _TELLING) + seen[cue:]
    if topic in PREFERENCE_TOPICS and any(m.start() < cue for m in _ASKED.finditer(seen)):
        seen = _ASKED.sub("请", seen)
    return judge_zh(seen, cue, a, b, topic, about_topic, bounded)
