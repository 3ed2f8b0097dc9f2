package events

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
)

// The catalog: every event type Crossrank writes, at its current version.
const (
	TypeRankingDefined             = "crossrank.ranking.defined.v1"
	TypeWeightsSet                 = "crossrank.ranking.weights_set.v1"
	TypeScenariosSet               = "crossrank.ranking.scenarios_set.v1"
	TypeMethodologyPublished       = "crossrank.ranking.methodology_published.v1"
	TypeEntryCreated               = "crossrank.entry.created.v1"
	TypeProposalOpened             = "crossrank.proposal.opened.v3"
	TypeMethodologyProposed        = "crossrank.proposal.methodology_proposed.v2"
	TypeEvidenceAdded              = "crossrank.proposal.evidence_added.v3"
	TypeEvidenceRemoved            = "crossrank.proposal.evidence_removed.v1"
	TypeEvidenceCaptured           = "crossrank.proposal.evidence_captured.v1"
	TypeEvidenceCaptureFailed      = "crossrank.proposal.evidence_capture_failed.v1"
	TypeEvidenceSourceChanged      = "crossrank.proposal.evidence_source_changed.v1"
	TypeEvidenceSourceDead         = "crossrank.proposal.evidence_source_dead.v1"
	TypeScoreChangeProposed        = "crossrank.proposal.score_change_proposed.v2"
	TypeAttributeChangeProposed    = "crossrank.proposal.attribute_change_proposed.v2"
	TypeChangeRemoved              = "crossrank.proposal.change_removed.v1"
	TypeProposalSubmitted          = "crossrank.proposal.submitted.v1"
	TypeProposalRevised            = "crossrank.proposal.revised.v1"
	TypeVoteCast                   = "crossrank.proposal.vote_cast.v2"
	TypeVetoDismissed              = "crossrank.proposal.veto_dismissed.v2"
	TypeProposalCrossValidated     = "crossrank.proposal.cross_validated.v1"
	TypeProposalReturnedToReview   = "crossrank.proposal.returned_to_review.v1"
	TypeProposalRejected           = "crossrank.proposal.rejected.v1"
	TypeProposalWithdrawn          = "crossrank.proposal.withdrawn.v1"
	TypeProposalPublished          = "crossrank.proposal.published.v1"
	TypeEditionPublished           = "crossrank.edition.published.v1"
	TypeEditionPartRecorded        = "crossrank.edition.part_recorded.v1"
	TypeUserRegistered             = "crossrank.user.registered.v1"
	TypeRoleGranted                = "crossrank.user.role_granted.v1"
	TypeRoleRevoked                = "crossrank.user.role_revoked.v1"
	TypePasswordChanged            = "crossrank.user.password_changed.v2"
	TypeTokenIssued                = "crossrank.user.token_issued.v1"
	TypeTokenRevoked               = "crossrank.user.token_revoked.v1"
	TypeWebhookDelivered           = "crossrank.webhook.delivered.v1"
	TypeWebhookFailed              = "crossrank.webhook.failed.v1"
	TypeWebhookRedeliveryRequested = "crossrank.webhook.redelivery_requested.v1"
	TypeReviewersRequested         = "crossrank.proposal.reviewers_requested.v2"
	TypeReviewNudged               = "crossrank.proposal.review_nudged.v1"
	TypeChatWebhookSet             = "crossrank.ranking.chat_webhook_set.v1"
	TypeChatPosted                 = "crossrank.webhook.chat_posted.v1"
	TypeChatFailed                 = "crossrank.webhook.chat_failed.v1"
	TypeCommentAdded               = "crossrank.proposal.comment_added.v1"
	TypeCommentResolved            = "crossrank.proposal.comment_resolved.v1"
	TypeConflictDeclared           = "crossrank.ranking.conflict_declared.v1"
	TypeEditionScheduled           = "crossrank.edition.scheduled.v1"
	TypeEditionScheduleCanceled    = "crossrank.edition.schedule_canceled.v1"
	TypeEditionScheduleFailed      = "crossrank.edition.schedule_failed.v1"
	TypeInboxRead                  = "crossrank.user.inbox_read.v1"
	TypeFeedTokenSet               = "crossrank.user.feed_token_set.v1"
	TypeUserInvited                = "crossrank.user.invited.v1"
	TypePasswordReset              = "crossrank.user.password_reset.v1"
	TypeInvitationAccepted         = "crossrank.user.invitation_accepted.v1"
	TypeInvitationRevoked          = "crossrank.user.invitation_revoked.v1"
	TypeIdentityBound              = "crossrank.user.identity_bound.v1"
	TypeReportOpened               = "crossrank.report.opened.v1"
	TypeReportFolded               = "crossrank.report.folded.v1"
	TypeReportAccepted             = "crossrank.report.accepted.v1"
	TypeReportDeclined             = "crossrank.report.declined.v1"
	TypeReportMarkedDuplicate      = "crossrank.report.marked_duplicate.v1"
	TypePreviewCreated             = "crossrank.preview.created.v1"
	TypePreviewRevoked             = "crossrank.preview.revoked.v1"
	TypePreviewOpened              = "crossrank.preview.opened.v1"
	TypeVendorEntriesSet           = "crossrank.user.vendor_entries_set.v1"
	TypeReplyWritten               = "crossrank.reply.written.v1"
	TypeReplyHidden                = "crossrank.reply.hidden.v1"
)

var catalog = map[string]reflect.Type{
	TypeRankingDefined:             reflect.TypeFor[RankingDefined](),
	TypeWeightsSet:                 reflect.TypeFor[WeightsSet](),
	TypeScenariosSet:               reflect.TypeFor[ScenariosSet](),
	TypeMethodologyPublished:       reflect.TypeFor[MethodologyPublished](),
	TypeEntryCreated:               reflect.TypeFor[EntryCreated](),
	TypeProposalOpened:             reflect.TypeFor[ProposalOpened](),
	TypeMethodologyProposed:        reflect.TypeFor[MethodologyProposed](),
	TypeEvidenceAdded:              reflect.TypeFor[EvidenceAdded](),
	TypeEvidenceRemoved:            reflect.TypeFor[EvidenceRemoved](),
	TypeEvidenceCaptured:           reflect.TypeFor[EvidenceCaptured](),
	TypeEvidenceCaptureFailed:      reflect.TypeFor[EvidenceCaptureFailed](),
	TypeEvidenceSourceChanged:      reflect.TypeFor[EvidenceSourceChanged](),
	TypeEvidenceSourceDead:         reflect.TypeFor[EvidenceSourceDead](),
	TypeScoreChangeProposed:        reflect.TypeFor[ScoreChangeProposed](),
	TypeAttributeChangeProposed:    reflect.TypeFor[AttributeChangeProposed](),
	TypeChangeRemoved:              reflect.TypeFor[ChangeRemoved](),
	TypeProposalSubmitted:          reflect.TypeFor[ProposalSubmitted](),
	TypeProposalRevised:            reflect.TypeFor[ProposalRevised](),
	TypeVoteCast:                   reflect.TypeFor[VoteCast](),
	TypeVetoDismissed:              reflect.TypeFor[VetoDismissed](),
	TypeProposalCrossValidated:     reflect.TypeFor[ProposalCrossValidated](),
	TypeProposalReturnedToReview:   reflect.TypeFor[ProposalReturnedToReview](),
	TypeProposalRejected:           reflect.TypeFor[ProposalRejected](),
	TypeProposalWithdrawn:          reflect.TypeFor[ProposalWithdrawn](),
	TypeProposalPublished:          reflect.TypeFor[ProposalPublished](),
	TypeEditionPublished:           reflect.TypeFor[EditionPublished](),
	TypeEditionPartRecorded:        reflect.TypeFor[EditionPartRecorded](),
	TypeUserRegistered:             reflect.TypeFor[UserRegistered](),
	TypeRoleGranted:                reflect.TypeFor[RoleGranted](),
	TypeRoleRevoked:                reflect.TypeFor[RoleRevoked](),
	TypePasswordChanged:            reflect.TypeFor[PasswordChanged](),
	TypeTokenIssued:                reflect.TypeFor[TokenIssued](),
	TypeTokenRevoked:               reflect.TypeFor[TokenRevoked](),
	TypeWebhookDelivered:           reflect.TypeFor[WebhookDelivered](),
	TypeWebhookFailed:              reflect.TypeFor[WebhookFailed](),
	TypeWebhookRedeliveryRequested: reflect.TypeFor[WebhookRedeliveryRequested](),
	TypeReviewersRequested:         reflect.TypeFor[ReviewersRequested](),
	TypeReviewNudged:               reflect.TypeFor[ReviewNudged](),
	TypeChatWebhookSet:             reflect.TypeFor[ChatWebhookSet](),
	TypeChatPosted:                 reflect.TypeFor[ChatPosted](),
	TypeChatFailed:                 reflect.TypeFor[ChatFailed](),
	TypeCommentAdded:               reflect.TypeFor[CommentAdded](),
	TypeCommentResolved:            reflect.TypeFor[CommentResolved](),
	TypeConflictDeclared:           reflect.TypeFor[ConflictDeclared](),
	TypeEditionScheduled:           reflect.TypeFor[EditionScheduled](),
	TypeEditionScheduleCanceled:    reflect.TypeFor[EditionScheduleCanceled](),
	TypeEditionScheduleFailed:      reflect.TypeFor[EditionScheduleFailed](),
	TypeInboxRead:                  reflect.TypeFor[InboxRead](),
	TypeFeedTokenSet:               reflect.TypeFor[FeedTokenSet](),
	TypeUserInvited:                reflect.TypeFor[UserInvited](),
	TypePasswordReset:              reflect.TypeFor[PasswordReset](),
	TypeInvitationAccepted:         reflect.TypeFor[InvitationAccepted](),
	TypeInvitationRevoked:          reflect.TypeFor[InvitationRevoked](),
	TypeIdentityBound:              reflect.TypeFor[IdentityBound](),
	TypeReportOpened:               reflect.TypeFor[ReportOpened](),
	TypeReportFolded:               reflect.TypeFor[ReportFolded](),
	TypeReportAccepted:             reflect.TypeFor[ReportAccepted](),
	TypeReportDeclined:             reflect.TypeFor[ReportDeclined](),
	TypeReportMarkedDuplicate:      reflect.TypeFor[ReportMarkedDuplicate](),
	TypePreviewCreated:             reflect.TypeFor[PreviewCreated](),
	TypePreviewRevoked:             reflect.TypeFor[PreviewRevoked](),
	TypePreviewOpened:              reflect.TypeFor[PreviewOpened](),
	TypeMailAddressConfirmed:       reflect.TypeFor[MailAddressConfirmed](),
	TypeMailAddressErased:          reflect.TypeFor[MailAddressErased](),
	TypeVendorEntriesSet:           reflect.TypeFor[VendorEntriesSet](),
	TypeReplyWritten:               reflect.TypeFor[ReplyWritten](),
	TypeReplyHidden:                reflect.TypeFor[ReplyHidden](),
}

var typeOf = func() map[reflect.Type]string {
	m := make(map[reflect.Type]string, len(catalog))
	for name, t := range catalog {
		m[t] = name
	}
	return m
}()

// Upcaster turns the JSON body of an older version into the body of the next
// version. Upcasters chain until the current version is reached.
type Upcaster func(old json.RawMessage) (json.RawMessage, error)

// upcasters maps an old type to the next type and the function converting it.
var upcasters = map[string]struct {
	next string
	up   Upcaster
}{
	"crossrank.proposal.evidence_added.v1": {"crossrank.proposal.evidence_added.v2", upcastEvidenceV1},
	// Claims and rationales were one string, often both languages side by
	// side; from these versions on they are Text (issue 43). The string of
	// an older version is read as the language it is written in
	// (TextFrom); the stored bytes, and so every hash, stay as they are.
	"crossrank.proposal.evidence_added.v2":            {TypeEvidenceAdded, upcastTextField("claim")},
	"crossrank.proposal.score_change_proposed.v1":     {TypeScoreChangeProposed, upcastTextField("rationale")},
	"crossrank.proposal.attribute_change_proposed.v1": {TypeAttributeChangeProposed, upcastTextField("rationale")},
	"crossrank.proposal.methodology_proposed.v1":      {TypeMethodologyProposed, upcastTextField("rationale")},
	"crossrank.proposal.opened.v2":                    {TypeProposalOpened, upcastOpenedV2},
	// A v1 vote, dismissed veto, opened proposal or password change is a v2
	// one without the field v2 added (the status change, the methodology,
	// the revoked tokens it carries): its body reads as v2 unchanged. The
	// version moved so that a Crossrank older than these fields refuses the
	// v2 events (ErrUnknownType stops its replay) instead of reading them
	// without the field and showing a cross-validated proposal in review.
	"crossrank.proposal.vote_cast.v1":      {TypeVoteCast, upcastSame},
	"crossrank.proposal.veto_dismissed.v1": {TypeVetoDismissed, upcastSame},
	"crossrank.proposal.opened.v1":         {"crossrank.proposal.opened.v2", upcastSame},
	"crossrank.user.password_changed.v1":   {TypePasswordChanged, upcastSame},
	// A v1 request of reviewers is a v2 one without a due date.
	"crossrank.proposal.reviewers_requested.v1": {TypeReviewersRequested, upcastSame},
}

// upcastSame is the upcaster of a version whose body is a valid body of the
// next one.
func upcastSame(old json.RawMessage) (json.RawMessage, error) { return old, nil }

// TypeName returns the catalog type of a payload (a struct or a pointer to one).
func TypeName(payload any) (string, error) {
	t := reflect.TypeOf(payload)
	if t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	name, ok := typeOf[t]
	if !ok {
		return "", fmt.Errorf("%w: payload %v is not in the catalog", ErrUnknownType, t)
	}
	return name, nil
}

// Types lists every current type in the catalog, sorted.
func Types() []string {
	out := make([]string, 0, len(catalog))
	for name := range catalog {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Current returns the catalog type an event stored as typ is read as: typ
// itself when it is current, the type its upcasters lead to when it is
// older. ok is false for a type the catalog does not know.
func Current(typ string) (current string, ok bool) {
	for hops := 0; hops <= 16; hops++ {
		if _, ok := catalog[typ]; ok {
			return typ, true
		}
		u, ok := upcasters[typ]
		if !ok {
			return "", false
		}
		typ = u.next
	}
	return "", false
}

// Versions returns every type an event read as typ's current type may be
// stored as, the current one and the older ones, sorted; none when the
// catalog does not know typ.
func Versions(typ string) []string {
	cur, ok := Current(typ)
	if !ok {
		return nil
	}
	out := []string{cur}
	for old := range upcasters {
		if c, _ := Current(old); c == cur {
			out = append(out, old)
		}
	}
	sort.Strings(out)
	return out
}

// DecodeData upcasts raw to the current version of its type and decodes it.
// It returns the current type name, the (possibly upcast) body and a pointer
// to the payload struct.
func DecodeData(typ string, raw []byte) (string, json.RawMessage, any, error) {
	body := json.RawMessage(raw)
	for hops := 0; ; hops++ {
		if _, ok := catalog[typ]; ok {
			break
		}
		u, ok := upcasters[typ]
		if !ok || hops > 16 {
			return "", nil, nil, fmt.Errorf("%w: %q", ErrUnknownType, typ)
		}
		next, err := u.up(body)
		if err != nil {
			return "", nil, nil, fmt.Errorf("%w: upcasting %s: %v", ErrMalformed, typ, err)
		}
		typ, body = u.next, next
	}
	ptr := reflect.New(catalog[typ])
	if err := json.Unmarshal(body, ptr.Interface()); err != nil {
		return "", nil, nil, fmt.Errorf("%w: %s body: %v", ErrMalformed, typ, err)
	}
	return typ, body, ptr.Interface(), nil
}

// WrittenAs returns e as a Crossrank that wrote typ, an older version of
// e's type, built it: both Type and StoredType are typ, so it is stored,
// and hashed, under that version. typ's upcasters must lead to e's type
// and keep the body as it is; that the body holds nothing typ lacks (a v1
// vote has no transition) is the caller's to ensure. Generators of
// old-shaped histories use it.
func (e Event) WrittenAs(typ string) (Event, error) {
	cur, body, _, err := DecodeData(typ, e.Raw)
	if err != nil {
		return Event{}, err
	}
	if cur != e.Type || !bytes.Equal(body, e.Raw) {
		return Event{}, fmt.Errorf("%w: %s is not an older version of %s with the same body", ErrUnknownType, typ, e.Type)
	}
	e.Type, e.StoredType = typ, typ
	return e, nil
}
