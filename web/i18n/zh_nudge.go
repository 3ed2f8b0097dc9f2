package i18n

// zhNudge 是审核邀请的截止时间、到期提醒和排行榜聊天 Webhook 的文字。
var zhNudge = map[string]string{
	"due.past":    "{field}必须是将来的时间。",
	"due.too_far": "{field}必须在一年之内。",
	"due.format":  "{field}必须是 RFC 3339 时间（如 2026-12-05T17:00:00+08:00）或日期（如 2026-12-05）。",
	"label.due":   "截止时间",

	"inbox.kind.review_overdue":       "你对提案 %[2]s 的审核已逾期",
	"lists.inbox.kind.review_overdue": "逾期的审核",
	"audit.msg.review_nudged":         "已提醒 {reviewer}：审核截止于 {due}",

	"desk.reviewers.due":      "截止时间（可选）",
	"desk.reviewers.due_zone": "截止时间的时区",
	"desk.reviewers.due_of":   "%s（截止 %s）",
	"desk.reviewers.overdue":  "%s（自 %s 起逾期）",

	"desk.queue.overdue": "逾期：%s",
}
