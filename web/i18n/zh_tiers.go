package i18n

// zhTiers holds the Simplified Chinese words of tiers.
var zhTiers = map[string]string{
	"tiers.label":        "第 %d 档",
	"tiers.title":        "第 %d 档的条目：删去一项评分或某项权重变动 5 分，即可能改变它们的先后。",
	"tiers.entry":        "· 第 %d 档",
	"tiers.alone":        "本档仅此一项",
	"tiers.shared.one":   "与另外 %d 个条目同档",
	"tiers.shared.other": "与另外 %d 个条目同档",
	"tiers.method_title": "分档",
	"tiers.method_body":  "名次是精确的，但支撑它的证据并非如此：若删去任意一项已发布的评分，或把某一标准的权重变动 5 分（其余按比例调整至合计 100），就可能使两个条目的先后颠倒，本期证据便无法区分二者。这样的条目同属一档；凡能与其中任一条目互换位置的条目也归入此档，依此类推：一档即“可能互换位置”关系下的一个连通组。每档都是连续的若干名次，自上而下编号为 1、2、……；既不会被超过也无法超过他人的条目自成一档。分档与每个名次的稳定性一样，由本期已发布的快照以排行自身的整数算法计算，任何持有快照的人都能复算；分档不属于快照，也不计入其哈希。分档只针对总榜顺序：在场景权重下或独立证据视图中不显示。",
	"download.col.tier":  "分档（删去一项评分或变动一项权重即可能改变先后的条目同档）",
}
