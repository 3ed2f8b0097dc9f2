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

// zhChat 是排行榜聊天 Webhook 的文字。
var zhChat = map[string]string{
	"chat.lang":                      "{field}必须是 zh 或 en。",
	"chat.unchanged":                 "{field}已是该排行榜的聊天 Webhook。",
	"label.lang":                     "语言",
	"audit.msg.chat_webhook_set":     "将聊天 Webhook 设为 {url}（{lang}）",
	"audit.msg.chat_webhook_removed": "移除了聊天 Webhook",
	"audit.msg.chat_posted":          "已发送到聊天 Webhook {url}（HTTP {status}）",
	"audit.msg.chat_failed":          "放弃发送到聊天 Webhook {url}：{error}",
	"chat.review_requested":          "%[1]s 请 %[2]s 审核「%[3]s」（%[4]s）：%[5]s",
	"chat.review_requested_due":      "%[1]s 请 %[2]s 在 %[6]s 前审核「%[3]s」（%[4]s）：%[5]s",
	"chat.published":                 "%[2]s 第 %[1]d 版已由 %[3]s 发布：%[4]s",
	"webhooks.chat.heading":          "排行榜的聊天 Webhook",
	"webhooks.chat.help":             "一个接收消息的 Webhook 地址（Slack 或 Mattermost），接收该排行榜的审核邀请和发布。留空即移除。",
	"webhooks.chat.ranking":          "排行榜",
	"webhooks.chat.url":              "Webhook 地址",
	"webhooks.chat.lang":             "消息语言",
	"webhooks.chat.submit":           "保存聊天 Webhook",
	"webhooks.done.chat":             "已保存该排行榜的聊天 Webhook。",
}
