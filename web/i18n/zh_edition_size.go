package i18n

// zhEditionSize holds the Chinese words of a large edition's publish page:
// its size, its largest moves and its pages.
var zhEditionSize = map[string]string{
	"publish.ready_count":   "共 %d 个已交叉验证的提案，本预览包含 %d 个。",
	"publish.size":          "本期发布 %d 个提案：%d 个新条目，%d 处变更；发布后榜单共 %d 个条目。",
	"publish.largest_moves": "名次变化最大",
	"publish.pages":         "预览分页",
	"publish.page_of":       "第 %d 页，共 %d 页",
	"field.page_number":     "{Field}必须是页码：1 或更大。",
	"label.page":            "页码",
}
