package domain

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Error is a domain error with a stable code. The code, not the English
// text, is what the web's catalogs translate; the text is for logs and the
// command line. A specific error wraps its kind, so errors.Is(err, ErrState)
// holds for every state error.
type Error struct {
	code string
	kind *Error // nil for the kinds themselves
}

// Code returns the error's code, a key of the web's message catalogs.
func (e *Error) Code() string { return e.code }

func (e *Error) Error() string {
	if e.kind == nil {
		return english[e.code]
	}
	return e.kind.Error() + ": " + english[e.code]
}

// Unwrap returns the error's kind, or nil for a kind.
func (e *Error) Unwrap() error {
	if e.kind == nil {
		return nil
	}
	return e.kind
}

// The four kinds of domain error. Every specific error wraps one of them, so
// the web layer maps errors to status codes in one place: ErrInvalid → 422,
// ErrForbidden → 403, ErrNotFound → 404, ErrState and events.ErrConflict → 409.
var (
	ErrInvalid   = &Error{code: "invalid"}
	ErrForbidden = &Error{code: "forbidden"}
	ErrNotFound  = &Error{code: "not_found"}
	ErrState     = &Error{code: "state"}
)

func kindErr(kind *Error, code string) *Error { return &Error{code: code, kind: kind} }

// Specific errors, each wrapping its kind.
var (
	ErrSelfApproval      = kindErr(ErrForbidden, "proposal.self_approval")
	ErrSelfPublish       = kindErr(ErrForbidden, "proposal.self_publish")
	ErrRoleRequired      = kindErr(ErrForbidden, "user.role_required")
	ErrNotAuthor         = kindErr(ErrForbidden, "proposal.not_author")
	ErrNotVoter          = kindErr(ErrForbidden, "proposal.not_voter")
	ErrTokenNotOwn       = kindErr(ErrForbidden, "token.not_own")
	ErrSelfGrant         = kindErr(ErrForbidden, "user.self_grant")
	ErrOwnAdminRole      = kindErr(ErrState, "user.own_admin_role")
	ErrRankingExists     = kindErr(ErrState, "ranking.exists")
	ErrRankingMissing    = kindErr(ErrNotFound, "ranking.missing")
	ErrEditionMissing    = kindErr(ErrNotFound, "edition.missing")
	ErrWebhookMissing    = kindErr(ErrNotFound, "webhook.missing")
	ErrEntryExists       = kindErr(ErrState, "entry.exists")
	ErrEntryMissing      = kindErr(ErrNotFound, "entry.missing")
	ErrProposalMissing   = kindErr(ErrNotFound, "proposal.missing")
	ErrProposalExists    = kindErr(ErrState, "proposal.exists")
	ErrNotDraft          = kindErr(ErrState, "proposal.not_draft")
	ErrAlreadyDraft      = kindErr(ErrState, "proposal.already_draft")
	ErrNotWithdrawable   = kindErr(ErrState, "proposal.not_withdrawable")
	ErrNotInReview       = kindErr(ErrState, "proposal.not_in_review")
	ErrNotCrossValidated = kindErr(ErrState, "proposal.not_cross_validated")
	ErrClosed            = kindErr(ErrState, "proposal.closed")
	ErrStaleRevision     = kindErr(ErrState, "proposal.stale_revision")
	ErrStaleBaseline     = kindErr(ErrState, "proposal.stale_baseline")
	ErrPreviewChanged    = kindErr(ErrState, "edition.preview_changed")
	ErrNoVeto            = kindErr(ErrState, "proposal.no_veto")
	ErrNothingToSubmit   = kindErr(ErrInvalid, "proposal.nothing_to_submit")
	ErrUncitedChange     = kindErr(ErrInvalid, "change.uncited")
	ErrUnknownEvidence   = kindErr(ErrInvalid, "evidence.unknown")
	ErrNothingToPublish  = kindErr(ErrInvalid, "edition.nothing_to_publish")
	ErrDuplicateTarget   = kindErr(ErrInvalid, "edition.duplicate_target")
	ErrUserExists        = kindErr(ErrState, "user.exists")
	ErrUserMissing       = kindErr(ErrNotFound, "user.missing")
	ErrTokenMissing      = kindErr(ErrNotFound, "token.missing")
	ErrHasRole           = kindErr(ErrState, "user.has_role")
	ErrLacksRole         = kindErr(ErrState, "user.lacks_role")
	ErrCaptureBySystem   = kindErr(ErrForbidden, "evidence.capture_by_system")
	ErrCaptureRecorded   = kindErr(ErrState, "evidence.capture_recorded")
	ErrRecheckRecorded   = kindErr(ErrState, "evidence.recheck_recorded")
	ErrNotCommentAuthor  = kindErr(ErrForbidden, "comment.not_author")
	ErrCommentResolved   = kindErr(ErrState, "comment.resolved")
	ErrConflictDeclared  = kindErr(ErrState, "conflict.declared")
	ErrScheduleExists    = kindErr(ErrState, "schedule.exists")
	ErrScheduleMissing   = kindErr(ErrNotFound, "schedule.missing")
	ErrScheduleDone      = kindErr(ErrState, "schedule.done")
	ErrNotOwnInbox       = kindErr(ErrForbidden, "inbox.not_own")
	ErrConflictForOther  = kindErr(ErrForbidden, "conflict.not_own")
	ErrScheduleRevised   = kindErr(ErrState, "schedule.revised")
	// Accounts: nobody but its owner ever knows a password.
	ErrPasswordNotOwn    = kindErr(ErrForbidden, "user.password_not_own")
	ErrOwnPasswordReset  = kindErr(ErrForbidden, "user.own_password_reset")
	ErrInvitationInvalid = kindErr(ErrNotFound, "invitation.invalid")
	ErrNoInvitation      = kindErr(ErrState, "invitation.none")
	ErrAccountPending    = kindErr(ErrState, "user.pending")
)

// StateError is a state error that names what it is about: its code is the
// catalog key of its words and Args fill them ("proposal": an id). It wraps
// its kind, a specific error (ErrPreviewChanged), so errors.Is holds for
// that and the web answers 409 as for any state error.
type StateError struct {
	kind *Error
	code string
	Args Args
}

func stateErr(kind *Error, code string, args Args) *StateError {
	return &StateError{kind: kind, code: code, Args: args}
}

// Code returns the catalog key of the error's words.
func (e *StateError) Code() string { return e.code }

func (e *StateError) Error() string { return e.kind.Error() + ": " + e.Args.Fill(english[e.code]) }

// Unwrap returns the error's kind.
func (e *StateError) Unwrap() error { return e.kind }

// FieldError reports invalid input in one named field. Code names the rule
// the input broke and Args fill its message; Msg is that message in English,
// for logs.
type FieldError struct {
	Field string
	Code  string
	Args  Args
	Msg   string
}

// Args are the named values of a field error's message ("limit": 200).
type Args map[string]any

func (e *FieldError) Error() string {
	if e.Msg == "" {
		return e.Field + ": " + e.Code
	}
	return e.Field + ": " + e.Msg
}

// Unwrap makes every FieldError an ErrInvalid.
func (e *FieldError) Unwrap() error { return ErrInvalid }

// Invalid returns the field error code with args, its English message
// filled in from the domain's wording.
func Invalid(field, code string, args Args) *FieldError {
	return &FieldError{Field: field, Code: code, Args: args, Msg: args.Fill(english[code])}
}

func invalid(field, code string, args Args) error { return Invalid(field, code, args) }

// Fill replaces each {name} in template with the value of args[name]. A
// string is written as it would be inside a Go string literal, so a quote,
// a control or an invisible character in user input shows as an escape.
func (a Args) Fill(template string) string {
	if len(a) == 0 {
		return template
	}
	pairs := make([]string, 0, 2*len(a))
	for name, v := range a {
		s, ok := v.(string)
		if ok {
			s = strconv.Quote(s)
			s = s[1 : len(s)-1]
		} else {
			s = fmt.Sprint(v)
		}
		pairs = append(pairs, "{"+name+"}", s)
	}
	return strings.NewReplacer(pairs...).Replace(template)
}

// Codes lists every code a domain error can carry, sorted; the web's
// catalogs must put each into words.
func Codes() []string {
	out := make([]string, 0, len(english))
	for c := range english {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}
