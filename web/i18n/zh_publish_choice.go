package i18n

// zhPublishChoice holds the Chinese words of the publish page's choice:
// a form posted again after its preview was published.
var zhPublishChoice = map[string]string{
	"publish.already":             "此预览已作为第 %d 期发布，未再发布任何内容。",
	"publish.already_link":        "查看第 %d 期",
	"publish.choice.all":          "已选 %d 个：您可发布的全部就绪提案，除去您取消勾选的 %d 个。",
	"publish.choice.some":         "已选 %d 个（共 %d 个）：各页中勾选的提案。",
	"publish.choose_across_pages": "各页的勾选会累计：使用列表下方的页码按钮翻页，本页的勾选会保留。更新预览即可查看这些提案组成的新一期。",
	"publish.select_all":          "全选 %d 个",
	"publish.select_none":         "清除选择",
	"publish.candidate_pages":     "待发布提案分页",
	"publish.pages_after":         "预览分页（新榜单下方）",
}
