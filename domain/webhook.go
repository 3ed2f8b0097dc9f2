package domain

import (
	"regexp"

	"github.com/crossrank/crossrank/events"
)

// RequestRedelivery asks a webhook's sender to post an edition again.
type RequestRedelivery struct {
	CommandID string
	Webhook   string // the webhook's aggregate id, "wh-" and 32 hex digits
	Ranking   string
	Edition   int
}

// webhookIDPattern is the form of a webhook's aggregate id: the sender
// names it after the hash of its URL, which never appears itself.
var webhookIDPattern = regexp.MustCompile(`^wh-[0-9a-f]{32}$`)

// WebhookID returns the aggregate of a webhook; id is "wh-<hash>".
func WebhookID(id string) events.Aggregate {
	return events.Aggregate{Kind: events.KindWebhook, ID: id}
}

// ValidWebhookID reports whether id has the form of a webhook's aggregate id.
func ValidWebhookID(id string) bool { return webhookIDPattern.MatchString(id) }

// DecideRequestRedelivery lets a publisher ask for a published edition.
func DecideRequestRedelivery(ed *Edition, a Actor, c RequestRedelivery) ([]Change, error) {
	if err := a.require(RolePublisher); err != nil {
		return nil, err
	}
	if c.Edition < 1 || c.Edition > ed.Number {
		return nil, ErrEditionMissing
	}
	return one(WebhookID(c.Webhook), &events.WebhookRedeliveryRequested{Ranking: c.Ranking, Edition: c.Edition}), nil
}
