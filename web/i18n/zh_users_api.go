package i18n

// zhUsersAPI holds the Chinese words of the users and account routes of
// the JSON API.
var zhUsersAPI = map[string]string{
	"account.password_needs_session": "修改密码须以密码登录（在账户页面，或以会话 Cookie 调用 API），不能使用 API 令牌。",
}
