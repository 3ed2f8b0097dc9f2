package i18n

// zhEditionSize holds the Chinese words of a large edition's publish page:
// its size, its largest moves and its pages.
var zhEditionSize = map[string]string{
	"publish.ready_count":   "共 %s，本预览包含 %d 个。",
	"publish.size":          "本期发布 %s：%s，%s；发布后榜单共 %s。",
	"publish.largest_moves": "名次变化最大",
	"publish.pages":         "预览分页",
	"publish.page_of":       "第 %d 页，共 %d 页",
	"field.page_number":     "{Field}必须是页码：1 或更大。",
	"label.page":            "页码",
}
