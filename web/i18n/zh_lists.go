package i18n

// zhLists holds the Chinese words of the desk's paged lists: the inbox's
// filter and the pages of the inbox and the audit trail.
var zhLists = map[string]string{
	"lists.inbox.kind":                  "显示",
	"lists.inbox.kind.all":              "全部",
	"lists.inbox.kind.review_requested": "请我审核的",
	"lists.inbox.kind.comment":          "评论",
	"lists.inbox.kind.veto":             "否决",
	"lists.inbox.kind.returned":         "退回审核",
	"lists.inbox.kind.cross_validated":  "已交叉验证",
	"lists.inbox.kind.published":        "已发布",
	"lists.inbox.kind.schedule_failed":  "未能发布的定时发布",
	"lists.inbox.kind.source_changed":   "来源已变化",
	"lists.inbox.kind.source_dead":      "来源已失效",
	"lists.apply":                       "应用",
	"lists.newer":                       "打开此列表后又有 %d 条新记录：显示最新",
	"lists.inbox.pages":                 "收件箱",
	"lists.audit.pages":                 "审计记录",
	"label.kind":                        "类型",
	"label.upto":                        "截至序号",
	"field.inbox_kind":                  "{field}不是收件箱条目的类型：“{value}”。",
}
