package bundle

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/crossrank/crossrank/events"
)

// envelope is an event line: events.Canonical's fields.
type envelope struct {
	Seq             uint64          `json:"seq"`
	ID              string          `json:"id"`
	Source          string          `json:"source"`
	Type            string          `json:"type"`
	Subject         string          `json:"subject"`
	DataContentType string          `json:"datacontenttype"`
	Time            string          `json:"time"`
	Actor           string          `json:"actor"`
	CorrelationID   string          `json:"correlationid"`
	CausationID     string          `json:"causationid"`
	AuthVia         string          `json:"authvia"`
	Data            json.RawMessage `json:"data"`
}

// decodeEvent reads an event line with the decoder the event store uses
// (upcasting older versions), and requires the line to be the event's
// canonical bytes, so a line cannot say two things.
func decodeEvent(line []byte) (events.Event, error) {
	var en envelope
	if err := decodeStrict(line, &en); err != nil {
		return events.Event{}, err
	}
	h := events.Header{events.HeaderSpecVersion: {events.SpecVersion}, events.HeaderID: {en.ID}, events.HeaderSource: {en.Source},
		events.HeaderType: {en.Type}, events.HeaderSubject: {en.Subject}, events.HeaderTime: {en.Time},
		events.HeaderContentType: {en.DataContentType}}
	for k, s := range map[string]string{events.HeaderActor: en.Actor, events.HeaderAuthVia: en.AuthVia,
		events.HeaderCorrelationID: en.CorrelationID, events.HeaderCausationID: en.CausationID} {
		if s != "" {
			h[k] = []string{s}
		}
	}
	e, err := events.Decode("", h, en.Data, en.Seq)
	if err != nil {
		return events.Event{}, err
	}
	if !bytes.Equal(events.Canonical(e), line) {
		return events.Event{}, errors.New("not the event's canonical bytes")
	}
	return e, nil
}
