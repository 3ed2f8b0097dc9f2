package domain

import (
	"errors"
	"fmt"
)

// The four kinds of domain error. Every specific error wraps one of them, so
// the web layer maps errors to status codes in one place: ErrInvalid → 422,
// ErrForbidden → 403, ErrNotFound → 404, ErrState and events.ErrConflict → 409.
var (
	ErrInvalid   = errors.New("invalid input")
	ErrForbidden = errors.New("not allowed for this user")
	ErrNotFound  = errors.New("not found")
	ErrState     = errors.New("not possible in the current state")
)

func kindErr(kind error, msg string) error { return fmt.Errorf("%w: %s", kind, msg) }

// Specific errors, each wrapping its kind.
var (
	ErrSelfApproval      = kindErr(ErrForbidden, "the author or a reviser cannot vote on this proposal")
	ErrSelfPublish       = kindErr(ErrForbidden, "the author or a reviser cannot publish this proposal")
	ErrRoleRequired      = kindErr(ErrForbidden, "this action needs a role the user does not hold")
	ErrNotAuthor         = kindErr(ErrForbidden, "only the author or a reviser may edit this proposal")
	ErrNotVoter          = kindErr(ErrForbidden, "only the reviewer who cast a veto can lift it this way")
	ErrTokenNotOwn       = kindErr(ErrForbidden, "an API token can only be issued by its own user")
	ErrSelfGrant         = kindErr(ErrForbidden, "you cannot grant yourself a role")
	ErrOwnAdminRole      = kindErr(ErrState, "you cannot revoke your own admin role")
	ErrRankingExists     = kindErr(ErrState, "the ranking already exists")
	ErrRankingMissing    = kindErr(ErrNotFound, "no such ranking")
	ErrEntryExists       = kindErr(ErrState, "the entry already exists")
	ErrEntryMissing      = kindErr(ErrNotFound, "no such entry")
	ErrProposalMissing   = kindErr(ErrNotFound, "no such proposal")
	ErrProposalExists    = kindErr(ErrState, "the proposal already exists")
	ErrNotDraft          = kindErr(ErrState, "the proposal is not a draft; revise it first")
	ErrNotInReview       = kindErr(ErrState, "the proposal is not in review")
	ErrNotCrossValidated = kindErr(ErrState, "the proposal is not cross-validated")
	ErrClosed            = kindErr(ErrState, "the proposal is closed")
	ErrStaleRevision     = kindErr(ErrState, "the proposal has a newer revision; reload it")
	ErrStaleBaseline     = kindErr(ErrState, "a value this proposal changes was published since; revise it")
	ErrPreviewChanged    = kindErr(ErrState, "the edition changed since the preview; review the new preview")
	ErrNoVeto            = kindErr(ErrState, "there is no open veto by this reviewer")
	ErrNothingToSubmit   = kindErr(ErrInvalid, "the proposal has no change to review")
	ErrUncitedChange     = kindErr(ErrInvalid, "every change must cite at least one evidence item of this revision")
	ErrUnknownEvidence   = kindErr(ErrInvalid, "no such evidence item in this revision")
	ErrNothingToPublish  = kindErr(ErrInvalid, "choose at least one cross-validated proposal")
	ErrDuplicateTarget   = kindErr(ErrInvalid, "two chosen proposals change the same value")
	ErrUserExists        = kindErr(ErrState, "the user already exists")
	ErrUserMissing       = kindErr(ErrNotFound, "no such user")
	ErrTokenMissing      = kindErr(ErrNotFound, "no such token")
	ErrHasRole           = kindErr(ErrState, "the user already holds this role")
	ErrLacksRole         = kindErr(ErrState, "the user does not hold this role")
)

// FieldError reports invalid input in one named field.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

// Unwrap makes every FieldError an ErrInvalid.
func (e *FieldError) Unwrap() error { return ErrInvalid }

func invalid(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}
