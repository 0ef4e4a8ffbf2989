"""Places that are not cities: countries, continents, and the states / provinces / regions of a few
large countries. ``trip_city`` and ``home_city`` hold a city: "a trip to Canada" or "off to
Ireland for a semester" names no city, so the rules draw nothing from it (a wrong city is worse
than none). General knowledge, in English and Chinese; not exhaustive."""

from __future__ import annotations

__all__ = ["is_not_a_city"]

_COUNTRIES_EN = """
afghanistan albania algeria andorra angola argentina armenia australia austria azerbaijan bahamas bahrain
bangladesh barbados belarus belgium belize benin bhutan bolivia bosnia botswana brazil brunei bulgaria burkina faso
burundi cambodia cameroon canada chad chile china colombia comoros congo costa rica croatia cuba cyprus czechia
czech republic denmark djibouti dominica dominican republic ecuador egypt el salvador eritrea estonia eswatini
ethiopia fiji finland france gabon gambia georgia germany ghana greece grenada guatemala guinea guyana haiti
honduras hungary iceland india indonesia iran iraq ireland israel italy jamaica japan jordan kazakhstan kenya
kiribati korea south korea north korea kosovo kuwait kyrgyzstan laos latvia lebanon lesotho liberia libya
liechtenstein lithuania madagascar malawi malaysia maldives mali malta mauritania mauritius mexico
micronesia moldova mongolia montenegro morocco mozambique myanmar burma namibia nauru nepal netherlands
holland new zealand nicaragua niger nigeria north macedonia norway oman pakistan palau palestine panama
papua new guinea paraguay peru philippines poland portugal qatar romania russia rwanda samoa san marino
saudi arabia senegal serbia seychelles sierra leone slovakia slovenia somalia south africa south sudan
spain sri lanka sudan suriname sweden switzerland syria taiwan tajikistan tanzania thailand togo tonga trinidad
tunisia turkey türkiye turkmenistan tuvalu uganda ukraine united arab emirates uae united kingdom uk britain
great britain england scotland wales northern ireland united states usa us america uruguay uzbekistan vanuatu
^venezuela vietnam yemen zambia zimbabwe
africa asia europe antarctica oceania north america south america latin america central america
the caribbean caribbean middle east the middle east scandinavia the balkans balkans
alabama alaska arizona arkansas california colorado connecticut delaware florida hawaii idaho illinois indiana
iowa kansas kentucky louisiana maine maryland massachusetts michigan minnesota mississippi missouri montana
nebraska nevada new hampshire new jersey new mexico north carolina north dakota ohio oklahoma oregon
pennsylvania rhode island south carolina south dakota tennessee texas utah vermont virginia west virginia
wisconsin wyoming ontario quebec british columbia alberta manitoba nova scotia bavaria tuscany sicily sardinia
provence normandy brittany catalonia andalusia bali hokkaido okinawa tasmania queensland new south wales
"""
_MULTI = {"burkina faso", "costa rica", "czech republic", "dominican republic", "el salvador", "south korea",
          "north korea", "north macedonia", "new zealand", "papua new guinea", "saudi arabia", "sierra leone",
          "south africa", "south sudan", "sri lanka", "united arab emirates", "united kingdom", "great britain",
          "northern ireland", "united states", "north america", "south america", "latin america", "central america",
          "the caribbean", "middle east", "the middle east", "the balkans", "new hampshire", "new jersey",
          "new mexico", "north carolina", "north dakota", "rhode island", "south carolina", "south dakota",
          "west virginia", "british columbia", "nova scotia", "new south wales", "san marino"}


def _names() -> frozenset[str]:
    text = " ".join(_COUNTRIES_EN.split())
    found = set()
    for m in sorted(_MULTI, key=len, reverse=True):
        if m in text:
            found.add(m)
            text = text.replace(m, " ")
    return frozenset(found | set(text.split()))


_NOT_CITIES_EN = _names()
_NOT_CITIES_ZH = frozenset("""中国 美国 英国 法国 德国 日本 韩国 朝鲜 俄罗斯 加拿大 澳大利亚 澳洲 新西兰 意大利 西班牙 葡萄牙 荷兰 比利时 瑞士 瑞典
挪威 丹麦 芬兰 爱尔兰 奥地利 希腊 土耳其 印度 泰国 越南 新加坡 马来西亚 印度尼西亚 印尼 菲律宾 墨西哥 巴西 阿根廷 智利 埃及 南非 以色列
冰岛 波兰 捷克 匈牙利 乌克兰 伊朗 伊拉克 沙特 阿联酋 卡塔尔 巴基斯坦 孟加拉 斯里兰卡 尼泊尔 蒙古 柬埔寨 老挝 缅甸 秘鲁 哥伦比亚 古巴
欧洲 亚洲 非洲 美洲 北美 南美 大洋洲 东南亚 中东 云南 四川 广东 浙江 江苏 福建 山东 河南 河北 湖南 湖北 海南 新疆 西藏 内蒙古 台湾
""".split())


def is_not_a_city(value: str) -> bool:
    """A country, a continent or a large region, not a city ("Canada", "Europe", "加拿大")."""
    v = value.strip().strip(".,!?;:").lower()
    return v in _NOT_CITIES_EN or v.removeprefix("the ") in _NOT_CITIES_EN or value.strip() in _NOT_CITIES_ZH
