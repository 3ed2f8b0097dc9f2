package i18n

// zhPaging holds the Chinese words of paged lists and search.
var zhPaging = map[string]string{
	"paging.label":              "分页",
	"paging.label_of":           "分页：%s",
	"paging.showing":            "第 %d–%d 条，共 %d 条",
	"paging.prev":               "← 上一页",
	"paging.next":               "下一页 →",
	"public.whole_list":         "第 %d 期全部条目，可下载：",
	"public.name_label":         "按名称查找",
	"public.name_apply":         "查找",
	"public.name_clear":         "显示全部条目",
	"public.name_none":          "没有名称包含「%s」的条目。",
	"search.title":              "搜索",
	"search.label":              "条目、提案与证据",
	"search.submit":             "搜索",
	"search.count":              "找到 %d 项",
	"search.count_more":         "找到超过 %d 项（显示最相关的）",
	"search.none":               "没有找到。",
	"search.more":               "全部 %d 项 →",
	"search.kind.entry":         "条目",
	"search.kind.proposal":      "提案",
	"search.kind.evidence":      "证据",
	"nav.search":                "搜索",
	"field.unknown_search_kind": "{field}：应为 entry、proposal 或 evidence，而不是“{value}”。",
}
