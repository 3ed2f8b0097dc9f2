package i18n

// zhInboxItems holds the Chinese words of an inbox item that stands for
// several rows (see enInboxItems).
var zhInboxItems = map[string]string{
	"inbox.group.review_requested": "%[1]s 请你审核 %[2]d 个提案，首个为 %[3]s",
	"inbox.group.veto":             "%[1]s 否决了你的 %[2]d 个提案，首个为 %[3]s",
	"inbox.group.comment":          "%[1]s 评论了 %[2]d 个提案，首个为 %[3]s",
	"inbox.group.cross_validated":  "%[1]s 交叉验证了你的 %[2]d 个提案，首个为 %[3]s",
	"inbox.group.published":        "%[1]s 发布了你的 %[2]d 个提案，首个为 %[3]s",
	"inbox.group.returned":         "你的 %[2]d 个提案已退回审核（%[1]s），首个为 %[3]s",
	"inbox.group.schedule_failed":  "你的 %[2]d 个定时发布未能发布（%[1]s）",
	"inbox.group.source_changed":   "你在 %[2]d 个提案中引用的来源已变化（%[1]s），首个为 %[3]s",
	"inbox.group.source_dead":      "你在 %[2]d 个提案中引用的来源已失效（%[1]s），首个为 %[3]s",
	"inbox.group.review_overdue":   "你对 %[2]d 个提案的审核已逾期，首个为 %[3]s",
	"inbox.group.vendor_edition":   "%[1]s 发布的版本改动了你的 %[2]d 个条目",
	"inbox.group.vendor_report":    "%[1]s 采纳了关于你的条目的 %[2]d 份读者报告，首个提案为 %[3]s",
	"inbox.group.vendor_preview":   "%[1]s 向你发送了 %[2]d 份下一版的禁发预览",
}
