package events

// The facts about a user's mail address the log keeps. The address itself
// is personal data that must be erasable, so it never enters the log: it
// lives in the mailer's key-value bucket (cmd/crossrank/mail).
const (
	TypeMailAddressConfirmed = "crossrank.user.mail_address_confirmed.v1"
	TypeMailAddressErased    = "crossrank.user.mail_address_erased.v1"
)

// The ways an address is confirmed.
const (
	MailByLink     = "link"     // its user opened the link mailed to it
	MailByOperator = "operator" // an admin or the operator vouched for it
)

// MailAddressConfirmed records that a user's mail now goes to a confirmed
// address (a first one, or a changed one); By is MailByLink or
// MailByOperator.
type MailAddressConfirmed struct {
	By string `json:"by"`
}

// MailAddressErased records that a user's mail address and mail settings
// were erased: nothing is mailed to them any more.
type MailAddressErased struct{}
