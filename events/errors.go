package events

import (
	"errors"
	"fmt"
)

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

// ErrStorageFull: the disk holding the store is full, so nothing can be
// written until space is freed. It comes as a *StorageFullError naming
// the disk, which is also ErrUnavailable (nothing was saved; the same
// request sent again later is safe).
var ErrStorageFull = errors.New("event store disk full")

// StorageFullError says which disk is full.
type StorageFullError struct {
	Path string // the store's directory
	Free uint64 // bytes free on its file system when last looked
	Err  error  // what the store said
}

func (e *StorageFullError) Error() string {
	return fmt.Sprintf("event store cannot write: the disk holding %s is full (%d KiB free): %v", e.Path, e.Free/1024, e.Err)
}

func (e *StorageFullError) Unwrap() error { return e.Err }

// Is makes a full disk both ErrStorageFull and ErrUnavailable.
func (e *StorageFullError) Is(target error) bool {
	return target == ErrStorageFull || target == ErrUnavailable
}
