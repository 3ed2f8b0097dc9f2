package i18n

// enUsersAPI holds the English words of the users and account routes of
// the JSON API.
var enUsersAPI = map[string]string{
	"account.password_needs_session": "A password is changed signed in with the password (the account page, or the API with the session cookie), not with an API token.",
}
