"""Chinese names of cities, beyond :data:`.gates.ZH_PLACES` (the first list, kept where it is).

With no parser or gazetteer for Chinese offline, a place read from "我在X" (a pattern with the
``gpe`` shape) counts as a city only when it is a known one or says so (…市/县/镇): "我在东京"
is a trip city, "我在开会" is not. General knowledge, not exhaustive: prefecture-level cities of
mainland China people commonly name, and the world cities Chinese text commonly names.
"""

from __future__ import annotations

__all__ = ["is_city_zh"]

_CITIES = frozenset("""
保定 唐山 廊坊 秦皇岛 邯郸 张家口 承德 沧州 邢台 衡水 大同 运城 临汾 晋中 包头 鄂尔多斯 赤峰 鞍山 抚顺 本溪 丹东 锦州 营口
吉林 延吉 齐齐哈尔 大庆 牡丹江 佳木斯 南通 扬州 镇江 泰州 盐城 淮安 连云港 宿迁 嘉兴 湖州 绍兴 金华 台州 舟山 丽水 衢州
义乌 芜湖 蚌埠 安庆 黄山 阜阳 马鞍山 泉州 漳州 莆田 龙岩 三明 南平 宁德 九江 赣州 景德镇 上饶 宜春 吉安 淄博 潍坊 临沂
济宁 泰安 威海 日照 德州 聊城 滨州 菏泽 枣庄 东营 洛阳 开封 新乡 安阳 南阳 许昌 商丘 信阳 周口 平顶山 焦作 宜昌 襄阳 荆州
十堰 黄石 孝感 黄冈 株洲 湘潭 衡阳 岳阳 常德 郴州 张家界 怀化 汕头 湛江 江门 惠州 中山 肇庆 茂名 韶关 清远 揭阳 潮州 梅州
桂林 柳州 北海 三亚 绵阳 宜宾 泸州 德阳 南充 乐山 遵义 大理 丽江 西双版纳 曲靖 宝鸡 咸阳 延安 汉中 榆林 天水 酒泉 敦煌
嘉峪关 格尔木 克拉玛依 喀什 伊宁 吐鲁番 昆山 江阴 常熟 张家港 慈溪 余姚 晋江 石狮 顺德 南海 雄安 浦东 深圳湾
台中 高雄 台南 新竹 基隆
东京 大阪 京都 名古屋 横滨 札幌 福冈 神户 奈良 冲绳 首尔 釜山 济州 仁川 曼谷 清迈 普吉 芭提雅 河内 胡志明市 岘港 吉隆坡
槟城 新山 雅加达 巴厘岛 马尼拉 宿务 金边 暹粒 仰光 万象 加德满都 孟买 新德里 德里 班加罗尔 迪拜 阿布扎比 多哈 利雅得
伊斯坦布尔 特拉维夫 开罗 约翰内斯堡 开普敦 内罗毕 伦敦 曼彻斯特 爱丁堡 巴黎 里昂 马赛 尼斯 柏林 慕尼黑 法兰克福 汉堡
科隆 杜塞尔多夫 斯图加特 维也纳 苏黎世 日内瓦 阿姆斯特丹 鹿特丹 布鲁塞尔 卢森堡 哥本哈根 斯德哥尔摩 奥斯陆 赫尔辛基
都柏林 罗马 米兰 威尼斯 佛罗伦萨 那不勒斯 马德里 巴塞罗那 里斯本 雅典 布拉格 布达佩斯 华沙 莫斯科 圣彼得堡 纽约 洛杉矶
旧金山 硅谷 西雅图 波士顿 芝加哥 华盛顿 费城 休斯顿 达拉斯 奥斯汀 亚特兰大 迈阿密 拉斯维加斯 圣地亚哥 圣何塞 丹佛
底特律 匹兹堡 檀香山 多伦多 温哥华 蒙特利尔 渥太华 卡尔加里 墨西哥城 圣保罗 里约 布宜诺斯艾利斯 悉尼 墨尔本 布里斯班
珀斯 阿德莱德 堪培拉 奥克兰 惠灵顿
""".split())


def is_city_zh(value: str) -> bool:
    """A city named in Chinese that :data:`.gates.ZH_PLACES` does not list."""
    return value in _CITIES
