package events

import "errors"

// Errors every Store returns, wrapped with context.
var (
	// ErrConflict: the aggregate changed since the expected sequence.
	ErrConflict = errors.New("concurrent write: the aggregate changed, reload and retry")
	// ErrUnavailable: the event store cannot be reached. Nothing was written,
	// except after a timeout, when the ack may have been lost: appending the
	// same events (same ids) again is safe and settles it.
	ErrUnavailable = errors.New("event store unavailable")
	// ErrUnknownType: an event type outside the catalog (replay stops on it).
	ErrUnknownType = errors.New("unknown event type")
	// ErrMalformed: a message that is not a valid Crossrank event.
	ErrMalformed = errors.New("malformed event")
	// ErrTooLarge: a batch or event over the store's limits.
	ErrTooLarge = errors.New("event batch too large")
)
