package i18n

// zhProvenance holds the Chinese words about where evidence comes from and
// how it is kept checkable: provenance tiers, the independent view, the
// highlighted quote, re-verification and pending captures.
var zhProvenance = map[string]string{
	"tier.vendor":      "厂商自述",
	"tier.third_party": "第三方报告",
	"tier.own":         "编辑自测",
	"tier.unknown":     "未注明来源类别",
	"tier.label":       "来源类别",

	"desk.field.tier":          "来源类别",
	"desk.field.tier_unstated": "未注明",
	"desk.field.tier_hint":     "这是谁的说法？排名的“仅独立证据”视图只计入有第三方报告或编辑自测支持的评分。",
	"public.view_published":    "全部证据",
	"public.view_independent":  "仅独立证据",
	"public.basis_label":       "计入的证据",
	"public.independent_note":  "只计入至少有一项第三方报告或编辑自测支持的评分；仅凭厂商自述的评分按 0 计。此视图由第 %d 版计算得出，并非正式发布。",
	"public.independent_hash":  "视图哈希（SHA-256）",

	"desk.passage.changed_link": "在新版本中查找引文",
	"desk.passage.link":         "在副本中查看引文",
	"desk.passage.title":        "存档副本中的引文",
	"desk.passage.banner":       "这是 %s 的存档副本文本（由 Crossrank 于 %s 抓取），按引文核对时的读法显示，并非实时页面。",
	"desk.passage.found":        "引文已在下方标出",

	"desk.reverify.open":            "发起复核提案",
	"desk.reverify.prefill_intro":   "本提案复核一项已发布、但来源已变动或失效的证据。请重新核对来源，再添加证据及其支持的评分。",
	"desk.reverify.prefill_title":   "复核：%s",
	"desk.reverify.prefill_summary": "复核%s。已发布的证据 %s（“%s”，%s）：%s。",
	"desk.reverify.prefill_note":    "正在复核提案 %[2]s 的证据 %[1]s（支持%[3]s）：%[4]s。下表已填入原证据的说法和来源，请引用来源现在的内容。",
}
