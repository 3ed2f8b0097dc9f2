package i18n

// zhUsersAPI holds the Chinese words of the users and account routes of
// the JSON API.
var zhUsersAPI = map[string]string{
	"account.password_needs_session": "修改密码须以密码登录（在账户页面，或以会话 Cookie 调用 API），不能使用 API 令牌。",
	"account.token_needs_session":    "API 令牌须以会话登录后签发（在账户页面，或以会话 Cookie 调用 API），不能用另一个 API 令牌签发：令牌不能生出比它活得更久的令牌。",
	"account.mail_needs_session":     "修改邮件地址须以会话登录（在账户页面，或以会话 Cookie 调用 API），不能使用 API 令牌。",
}
