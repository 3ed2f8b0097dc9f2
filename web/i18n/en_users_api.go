package i18n

// enUsersAPI holds the English words of the users and account routes of
// the JSON API.
var enUsersAPI = map[string]string{
	"account.password_needs_session": "A password is changed signed in with the password (the account page, or the API with the session cookie), not with an API token.",
	"account.token_needs_session":    "An API token is issued signed in with a session (the account page, or the API with the session cookie), not with another API token: a token cannot make tokens that outlive it.",
	"account.mail_needs_session":     "The mail address is changed signed in with a session (the account page, or the API with the session cookie), not with an API token.",
}
