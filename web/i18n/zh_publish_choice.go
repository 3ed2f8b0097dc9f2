package i18n

// zhPublishChoice holds the Chinese words of the publish page's choice:
// a form posted again after its preview was published.
var zhPublishChoice = map[string]string{
	"publish.already":             "此预览已作为第 %d 期发布，未再发布任何内容。",
	"publish.already_link":        "查看第 %d 期",
	"publish.choice.all":          "已选 %d 个：你可发布的全部就绪提案，除去你取消勾选的 %d 个。",
	"publish.choice.every":        "已选 %d 个：你可发布的全部就绪提案。",
	"publish.choice.some":         "已选 %d 个（共 %d 个）：各页中勾选的提案。",
	"publish.choose_across_pages": "各页的勾选会累计：使用列表下方的页码按钮翻页，本页的勾选会保留。更新预览即可查看这些提案组成的新一期。",
	"publish.select_all":          "全选 %d 个",
	"publish.select_none":         "清除选择",
	"publish.candidate_pages":     "待发布提案分页",
	"publish.pages_after":         "预览分页（新榜单下方）",
	// A publish refused because its preview no longer holds names what changed.
	"edition.changed_edition":     "预览之后已发布了第 {edition} 版，请查看新的预览。",
	"edition.changed_revised":     "预览之后提案 {proposal} 已修订（第 {from} 版 → 第 {to} 版），请查看新的预览。",
	"edition.changed_not_ready":   "预览之后提案 {proposal} 已不再处于交叉验证通过状态，请查看新的预览。",
	"edition.changed_left":        "预览之后提案 {proposal} 已不在待发布之列，请查看新的预览。",
	"edition.changed_joined":      "预览之后提案 {proposal} 已可发布并加入本版，请查看新的预览。",
	"edition.not_cross_validated": "提案 {proposal} 尚未通过交叉验证。",
	"edition.quorum_lost":         "提案 {proposal} 已不再满足通过条件（有否决票，或某个赞成票已不再计入）。",
	// 版本已存储、读模型仍在准备其公开页面时，编辑台显示的页面。
	"publish.pending.title":    "版本准备中",
	"publish.pending.heading":  "第 %d 版已发布",
	"publish.pending.status":   "公开页面正在准备中：读模型已应用 %d 个事件，共需 %d 个。本页会自动刷新，准备好后打开公开页面。",
	"publish.pending.size":     "%s，%s，%s。",
	"publish.pending.snapshot": "快照 SHA-256：",
	"publish.pending.open":     "打开公开页面",
}
