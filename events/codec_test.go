package events_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
)

func intp(v int) *int { return &v }

// samples holds one filled payload per catalog type; TestSamplesCoverCatalog
// fails when a type is added without one.
var samples = map[string]any{
	events.TypeRankingDefined: &events.RankingDefined{
		Slug: "gpu-cloud", Title: events.Text{Zh: "GPU 云租赁平台", En: "GPU cloud rental"},
		Categories: []events.Category{{Slug: "marketplace", Name: events.Text{Zh: "算力市场", En: "Marketplace"}}},
		Criteria:   []events.Criterion{{Slug: "price", Name: events.Text{En: "Price"}, Weight: 60}, {Slug: "supply", Weight: 40}},
		Attributes: []events.AttributeDef{{Key: "root", Values: []events.AttributeValue{{Value: "yes", Label: events.Text{En: "Root"}}}}},
		Quorum:     events.QuorumPolicy{MinApprovals: 2, RequireEvidenceVerified: true},
	},
	events.TypeWeightsSet: &events.WeightsSet{Weights: map[string]int{"price": 50, "supply": 50}},
	events.TypeScenariosSet: &events.ScenariosSet{
		Scenarios: []events.Scenario{{Slug: "training", Weights: map[string]int{"price": 30, "supply": 70}}},
		Filters: []events.Filter{{Key: "root", Options: []events.FilterOption{{
			Value: "need", Requires: []events.Requirement{{Attribute: "root", AnyOf: []string{"yes"}}},
		}}}},
	},
	events.TypeMethodologyProposed: &events.MethodologyProposed{Revision: 1, Base: 3, Rationale: events.Text{En: "Elasticity matters more"},
		Methodology: events.Methodology{Title: events.Text{Zh: "GPU 云", En: "GPU clouds"},
			Categories: []events.Category{{Slug: "marketplace", Name: events.Text{En: "Marketplace"}}},
			Criteria:   []events.Criterion{{Slug: "price", Name: events.Text{En: "Price"}, Weight: 100}},
			Quorum:     events.QuorumPolicy{MinApprovals: 2}, License: "CC-BY-4.0"}},
	events.TypeMethodologyPublished: &events.MethodologyPublished{Edition: 4, Proposal: "m1", Slug: "gpu-cloud",
		Methodology: events.Methodology{Title: events.Text{En: "GPU clouds"},
			Criteria: []events.Criterion{{Slug: "price", Name: events.Text{En: "Price"}, Weight: 100}}},
		Changes: []events.MethodologyChange{{Kind: "weight", Target: "price", From: "60", To: "100"}, {Kind: "criterion_retired", Target: "supply", From: "40"}}},
	events.TypeReviewersRequested: &events.ReviewersRequested{Reviewers: []string{"rita", "ravi"}, Due: "2026-12-04T17:00:00Z"},
	events.TypeReviewNudged:       &events.ReviewNudged{Reviewer: "rita", Due: "2026-12-04T17:00:00Z"},
	events.TypeChatWebhookSet:     &events.ChatWebhookSet{URL: "https://hooks.slack.com/services/T0/B0/x", Lang: "zh"},
	events.TypeChatPosted:         &events.ChatPosted{URL: "https://hooks.slack.com/services/T0/B0/x", Ranking: "gpu-cloud", Source: "id-9", Status: 200, Attempts: 1},
	events.TypeChatFailed:         &events.ChatFailed{URL: "https://hooks.slack.com/services/T0/B0/x", Ranking: "gpu-cloud", Source: "id-9", Attempt: 8, Error: "receiver answered HTTP 500"},
	events.TypeCommentAdded:       &events.CommentAdded{CommentID: "c2", Revision: 1, On: "evidence:e1", ReplyTo: "c1", Body: "是当前的价目表吗？"},
	events.TypeCommentResolved:    &events.CommentResolved{CommentID: "c1"},
	events.TypeConflictDeclared:   &events.ConflictDeclared{User: "ravi", Entry: "autodl", Reason: "I consult for AutoDL."},
	events.TypeEditionScheduled: &events.EditionScheduled{Schedule: "0195eb2c-1a00-7000-8000-0000000000ab", At: "2026-12-01T09:00:00+08:00",
		Proposals: []events.ScheduledPick{{Proposal: "p1", Revision: 2}}, PreviewHash: strings.Repeat("a", 64), SnapshotHash: strings.Repeat("b", 64)},
	events.TypeEditionScheduleCanceled: &events.EditionScheduleCanceled{Schedule: "s1", Reason: "Publishing now instead."},
	events.TypeEditionScheduleFailed:   &events.EditionScheduleFailed{Schedule: "s1", Code: "schedule.revised", Detail: "p1"},
	events.TypeInboxRead:               &events.InboxRead{UpTo: 1234},
	events.TypeFeedTokenSet:            &events.FeedTokenSet{Hash: strings.Repeat("c", 64)},
	events.TypeMailAddressConfirmed:    &events.MailAddressConfirmed{By: events.MailByLink},
	events.TypeMailAddressErased:       &events.MailAddressErased{},
	events.TypeEntryCreated:            &events.EntryCreated{Ranking: "gpu-cloud", Slug: "autodl", Name: events.Text{Zh: "AutoDL", En: "AutoDL"}, Category: "marketplace", Proposal: "p1"},
	events.TypeProposalOpened:          &events.ProposalOpened{Ranking: "gpu-cloud", Entry: "autodl", NewEntry: true, Title: "Add AutoDL"},
	events.TypeEvidenceAdded:           &events.EvidenceAdded{EvidenceID: "e1", Revision: 1, Claim: events.Text{En: "4090 from ¥1.98/h"}, SourceURL: "https://example.com/price", Excerpt: "RTX 4090 ¥1.98/小时", ObservedOn: "2026-03-01", ValidForDays: 90},
	events.TypeEvidenceRemoved:         &events.EvidenceRemoved{EvidenceID: "e1", Revision: 1},
	events.TypeEvidenceCaptured: &events.EvidenceCaptured{EvidenceID: "e1", URL: "https://example.com/price",
		FinalURL: "https://www.example.com/price", Status: 200, ContentType: "text/html; charset=utf-8", Size: 5120,
		SHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", FetchedAt: "2026-03-01T08:00:00Z",
		QuoteFound: true, QuoteChecked: true},
	events.TypeEvidenceCaptureFailed: &events.EvidenceCaptureFailed{EvidenceID: "e1", URL: "http://169.254.169.254/", Reason: "forbidden_address", At: "2026-03-01T08:00:00Z"},
	events.TypeEvidenceSourceChanged: &events.EvidenceSourceChanged{EvidenceID: "e1", URL: "https://example.com/price",
		FinalURL: "https://www.example.com/price", Status: 200, ContentType: "text/html; charset=utf-8", Size: 5200,
		SHA256: "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752", CheckedAt: "2026-06-01T08:00:00Z",
		QuoteChecked: true, Tick: "42@2026-06-01T08:00:00.000000001Z"},
	events.TypeEvidenceSourceDead: &events.EvidenceSourceDead{EvidenceID: "e1", URL: "https://example.com/price", Reason: "not_found",
		Status: 404, CheckedAt: "2026-06-02T08:00:00Z", Tick: "43@2026-06-02T08:00:00.000000001Z"},
	events.TypeScoreChangeProposed: &events.ScoreChangeProposed{
		Revision: 1, Criterion: "price", From: intp(0), To: 8, Rationale: events.Text{En: "cheap"}, Evidence: []string{"e1"},
	},
	events.TypeAttributeChangeProposed: &events.AttributeChangeProposed{Revision: 1, Attribute: "root", From: []string{}, To: []string{"yes"}, Evidence: []string{"e1"}},
	events.TypeChangeRemoved:           &events.ChangeRemoved{Revision: 1, Target: "score:price"},
	events.TypeProposalSubmitted:       &events.ProposalSubmitted{Revision: 1},
	events.TypeProposalRevised:         &events.ProposalRevised{Revision: 2, Note: "rebased", Rebase: []events.Rebase{{Target: "score:price", Score: intp(7)}}},
	events.TypeVoteCast:                &events.VoteCast{Revision: 2, Verdict: events.Reject, VerifiedEvidence: []string{"e1"}, Comment: "source is stale"},
	events.TypeVetoDismissed:           &events.VetoDismissed{Voter: "bob", Reason: "source refreshed"},
	events.TypeProposalCrossValidated:  &events.ProposalCrossValidated{Revision: 2, Approvers: []string{"bob", "carol"}},
	events.TypeProposalReturnedToReview: &events.ProposalReturnedToReview{
		Edition: 3, Targets: []string{"score:price"}, Reason: "baseline changed",
	},
	events.TypeProposalRejected:  &events.ProposalRejected{Reason: "no source"},
	events.TypeProposalWithdrawn: &events.ProposalWithdrawn{Reason: "duplicate"},
	events.TypeProposalPublished: &events.ProposalPublished{Edition: 3, Revision: 2},
	events.TypeEditionPublished: &events.EditionPublished{
		Ranking: "gpu-cloud", Number: 3, Proposals: []string{"p1"},
		NewEntries:  []events.PublishedEntry{{Slug: "autodl", Category: "marketplace", Proposal: "p1"}},
		Changes:     []events.AppliedChange{{Proposal: "p1", Entry: "autodl", Target: "score:price", ToScore: intp(8), Evidence: []string{"e1"}}},
		PreviewHash: "aa", SnapshotHash: "bb", AuditHead: "cc", AuditSeq: 42,
	},
	events.TypeUserRegistered:  &events.UserRegistered{Username: "alice", DisplayName: "Alice", PasswordHash: "$argon2id$v=19$m=65536,t=1,p=4$c2FsdA$aGFzaA", Roles: []string{"editor"}},
	events.TypeRoleGranted:     &events.RoleGranted{Role: "reviewer"},
	events.TypeRoleRevoked:     &events.RoleRevoked{Role: "reviewer"},
	events.TypePasswordChanged: &events.PasswordChanged{PasswordHash: "$argon2id$v=19$m=65536,t=1,p=4$c2FsdA$b3RoZXI"},
	events.TypeTokenIssued:     &events.TokenIssued{TokenID: "t1", Name: "ci", Hash: "ab12", ExpiresAt: "2027-01-01T00:00:00Z"},
	events.TypeTokenRevoked:    &events.TokenRevoked{TokenID: "t1"},
	events.TypeUserInvited: &events.UserInvited{Username: "rita", DisplayName: "Rita", Roles: []string{"reviewer"},
		LinkHash: strings.Repeat("d", 64), ExpiresAt: "2026-12-04T14:00:00Z"},
	events.TypePasswordReset: &events.PasswordReset{RevokedTokens: []string{"t1"}, FeedTokenRevoked: true,
		LinkHash: strings.Repeat("e", 64), ExpiresAt: "2026-12-04T14:00:00Z"},
	events.TypeInvitationAccepted: &events.InvitationAccepted{PasswordHash: "$argon2id$v=19$m=65536,t=1,p=4$c2FsdA$bmV3"},
	events.TypeInvitationRevoked:  &events.InvitationRevoked{},
	events.TypeIdentityBound:      &events.IdentityBound{Issuer: "https://id.example.org/realms/newsroom", Subject: "f3b0c2d4-9a1e-4c55-8d7e-2b6f0a9c1e77"},
	events.TypeReportOpened: &events.ReportOpened{Ranking: "gpu-cloud", Entry: "aliyun", Criterion: "price",
		Kind: "wrong", Text: "价格已经变了 — the price changed"},
	events.TypeReportFolded:          &events.ReportFolded{},
	events.TypeReportAccepted:        &events.ReportAccepted{Proposal: "p-1"},
	events.TypeReportDeclined:        &events.ReportDeclined{Reason: "the source says otherwise"},
	events.TypeReportMarkedDuplicate: &events.ReportMarkedDuplicate{Of: "rp-0123"},
	events.TypePreviewCreated: &events.PreviewCreated{Ranking: "gpu-cloud", Proposals: []string{"p-1", "p-2"},
		Entries: []string{"aliyun"}, ExpiresAt: "2026-12-08T00:00:00Z", Note: "禁发至周一 — embargoed until Monday",
		Vendors: []string{"acme"}, TokenHash: strings.Repeat("f", 64)},
	events.TypePreviewRevoked:   &events.PreviewRevoked{},
	events.TypePreviewOpened:    &events.PreviewOpened{},
	events.TypeVendorEntriesSet: &events.VendorEntriesSet{Entries: []string{"gpu-cloud/aliyun"}},
	events.TypeReplyWritten: &events.ReplyWritten{Ranking: "gpu-cloud", Entry: "aliyun", Criterion: "price",
		TextEn: "Prices fell in November.", TextZh: "十一月已降价。"},
	events.TypeReplyHidden: &events.ReplyHidden{Reason: "names a private person"},
	events.TypeEditionPartRecorded: &events.EditionPartRecorded{Number: 3, Part: 1, Proposals: []string{"p1"},
		NewEntries: []events.PublishedEntry{{Slug: "autodl", Category: "marketplace", Proposal: "p1"}},
		Changes:    []events.AppliedChange{{Proposal: "p1", Entry: "autodl", Target: "score:price", ToScore: intp(8), Evidence: []string{"e1"}}},
	},
	events.TypeWebhookDelivered:           &events.WebhookDelivered{URL: "https://example.com/hook", Ranking: "gpu-cloud", Edition: 3, Status: 204, Attempts: 1},
	events.TypeWebhookFailed:              &events.WebhookFailed{URL: "https://example.com/hook", Ranking: "gpu-cloud", Edition: 3, Attempt: 2, Error: "503"},
	events.TypeWebhookRedeliveryRequested: &events.WebhookRedeliveryRequested{Ranking: "gpu-cloud", Edition: 3},
}

func TestSamplesCoverCatalog(t *testing.T) {
	for _, typ := range events.Types() {
		if _, ok := samples[typ]; !ok {
			t.Errorf("no sample payload for %s", typ)
		}
	}
	if got, want := len(samples), len(events.Types()); got != want {
		t.Errorf("%d samples for %d catalog types", got, want)
	}
}

// TestCodecRoundTrip encodes and decodes one event of every catalog type.
func TestCodecRoundTrip(t *testing.T) {
	at := time.Date(2026, 3, 14, 9, 26, 53, 589793238, time.FixedZone("CST", 8*3600))
	for typ, payload := range samples {
		t.Run(typ, func(t *testing.T) {
			e, err := events.New(events.NewID(at), at, "alice", "agg-1", payload)
			if err != nil {
				t.Fatal(err)
			}
			if e.Type != typ {
				t.Fatalf("New: type %q, want %q", e.Type, typ)
			}
			e.CorrelationID, e.CausationID = "corr-1", "cause-1"
			e.AuthVia = events.Via{Method: events.ViaToken, TokenID: "t1", TokenName: "ci; 机器人=1"}.String()
			subject, h, body, err := events.Encode(e)
			if err != nil {
				t.Fatal(err)
			}
			kind, name, _, _ := events.ParseType(typ)
			if want := "crossrank." + string(kind) + ".agg-1." + name; subject != want {
				t.Errorf("subject %q, want %q", subject, want)
			}
			if h[events.HeaderMsgID][0] != e.ID {
				t.Errorf("Nats-Msg-Id %v, want the event id %s", h[events.HeaderMsgID], e.ID)
			}
			got, err := events.Decode(subject, h, body, 7)
			if err != nil {
				t.Fatal(err)
			}
			want := e
			want.Time, want.Sequence = at.UTC(), 7
			if !reflect.DeepEqual(got, want) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestDecodeRejects(t *testing.T) {
	e, _ := events.New("id-1", time.Unix(0, 0), "alice", "p1", samples[events.TypeVoteCast])
	subject, good, body, _ := events.Encode(e)
	with := func(k, v string) events.Header {
		h := events.Header{}
		for hk, hv := range good {
			h[hk] = hv
		}
		if v == "" {
			delete(h, k)
		} else {
			h[k] = []string{v}
		}
		return h
	}
	tests := []struct {
		name    string
		subject string
		h       events.Header
		body    []byte
		want    error
	}{
		{"no specversion", subject, with(events.HeaderSpecVersion, ""), body, events.ErrMalformed},
		{"specversion 0.3", subject, with(events.HeaderSpecVersion, "0.3"), body, events.ErrMalformed},
		{"no id", subject, with(events.HeaderID, ""), body, events.ErrMalformed},
		{"no source", subject, with(events.HeaderSource, ""), body, events.ErrMalformed},
		{"aggregate id with a dot", subject, with(events.HeaderSubject, "p.1"), body, events.ErrMalformed},
		{"content type xml", subject, with(events.HeaderContentType, "application/xml"), body, events.ErrMalformed},
		{"unknown type", "", with(events.HeaderType, "crossrank.proposal.teleported.v1"), body, events.ErrUnknownType},
		{"malformed type", "", with(events.HeaderType, "vote_cast"), body, events.ErrUnknownType},
		{"subject of another aggregate", "crossrank.proposal.p2.vote_cast", good, body, events.ErrMalformed},
		{"bad time", subject, with(events.HeaderTime, "yesterday"), body, events.ErrMalformed},
		{"body not JSON", subject, good, []byte("{"), events.ErrMalformed},
		{"body of the wrong shape", subject, good, []byte(`{"revision":"two"}`), events.ErrMalformed},
		{"body not UTF-8", subject, good, []byte("{\"comment\":\"\xff\"}"), events.ErrMalformed},
		{"body too large", subject, good, []byte(`"` + strings.Repeat("x", events.MaxBody) + `"`), events.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := events.Decode(tt.subject, tt.h, tt.body, 99)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Decode error = %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), "seq 99") {
				t.Errorf("error %q does not name the sequence", err)
			}
		})
	}
}

func TestEncodeRejects(t *testing.T) {
	e, _ := events.New("id-1", time.Unix(0, 0), "alice", "p1", samples[events.TypeVoteCast])
	big, bad := e, e
	big.Raw = []byte(`"` + strings.Repeat("x", events.MaxBody) + `"`)
	bad.Subject = "P1"
	if _, _, _, err := events.Encode(big); !errors.Is(err, events.ErrTooLarge) {
		t.Errorf("oversized body: error = %v, want ErrTooLarge", err)
	}
	if _, _, _, err := events.Encode(bad); !errors.Is(err, events.ErrMalformed) {
		t.Errorf("upper-case aggregate id: error = %v, want ErrMalformed", err)
	}
	if _, err := events.New("id", time.Now(), "a", "p1", struct{ X int }{}); !errors.Is(err, events.ErrUnknownType) {
		t.Errorf("payload outside the catalog: error = %v, want ErrUnknownType", err)
	}
}

// TestRankingDefinedIllustrativeIsOptional: the illustrative flag came after
// v1. A definition stored before it decodes as not illustrative, and one
// that is not illustrative encodes without the key, byte for byte as before.
func TestRankingDefinedIllustrativeIsOptional(t *testing.T) {
	old := `{"slug":"gpu","title":{"zh":"","en":"GPU"},"description":{"zh":"","en":""},"categories":[],"criteria":[],"attributes":[],"quorum":{"min_approvals":2,"require_evidence_verified":true}}`
	_, _, data, err := events.DecodeData(events.TypeRankingDefined, []byte(old))
	if err != nil {
		t.Fatal(err)
	}
	d, ok := data.(*events.RankingDefined)
	if !ok || d.Illustrative {
		t.Fatalf("decoded %#v, want a RankingDefined that is not illustrative", data)
	}
	for _, illustrative := range []bool{false, true} {
		d.Illustrative = illustrative
		e, err := events.New("id-1", time.Unix(0, 0).UTC(), "pat", "gpu", d)
		if err != nil {
			t.Fatal(err)
		}
		if has := strings.Contains(string(e.Raw), `"illustrative"`); has != illustrative {
			t.Errorf("illustrative %v encodes as %s", illustrative, e.Raw)
		}
		if !illustrative && string(e.Raw) != old {
			t.Errorf("re-encoded\n got %s\nwant %s", e.Raw, old)
		}
	}
}

// TestFoldedPayloadsAreOptional: a vote, a dismissed veto, an opening and a
// password change stored before transitions, methodologies and token
// revocations were folded into them decode
// without one and encode byte for byte as stored; one that carries it
// round-trips, its part holding exactly the body of the separate event.
func TestFoldedPayloadsAreOptional(t *testing.T) {
	for _, tt := range []struct {
		typ, old, folded, part string
	}{
		{events.TypeVoteCast, `{"revision":2,"verdict":"approve","verified_evidence":["e1"]}`,
			`{"revision":2,"verdict":"approve","verified_evidence":["e1"],"cross_validated":{"revision":2,"approvers":["ravi","rita"]}}`,
			`{"revision":2,"approvers":["ravi","rita"]}`},
		{events.TypeVoteCast, `{"revision":1,"verdict":"reject","verified_evidence":[],"comment":"no"}`,
			`{"revision":1,"verdict":"reject","verified_evidence":[],"comment":"no","returned_to_review":{"edition":0,"targets":null,"reason":"veto"}}`,
			`{"edition":0,"targets":null,"reason":"veto"}`},
		{events.TypeVetoDismissed, `{"voter":"rosa","reason":"misread"}`,
			`{"voter":"rosa","reason":"misread","cross_validated":{"revision":1,"approvers":["ravi"]}}`,
			`{"revision":1,"approvers":["ravi"]}`},
		{events.TypeProposalOpened, `{"ranking":"gpu","entry":"","new_entry":false,"title":"T","methodology":true}`,
			`{"ranking":"gpu","entry":"","new_entry":false,"title":"T","methodology":true,"proposed":{"revision":1,"methodology":{"title":{"zh":"","en":"G"},"description":{"zh":"","en":""},"categories":null,"criteria":null,"attributes":null,"scenarios":null,"filters":null,"quorum":{"min_approvals":2,"require_evidence_verified":false}},"base":0,"rationale":{"zh":"","en":"r"}}}`,
			`{"revision":1,"methodology":{"title":{"zh":"","en":"G"},"description":{"zh":"","en":""},"categories":null,"criteria":null,"attributes":null,"scenarios":null,"filters":null,"quorum":{"min_approvals":2,"require_evidence_verified":false}},"base":0,"rationale":{"zh":"","en":"r"}}`},
		{events.TypePasswordChanged, `{"password_hash":"$argon2id$x"}`,
			`{"password_hash":"$argon2id$x","revoked_tokens":["t1","t3"]}`, `["t1","t3"]`},
	} {
		for _, body := range []string{tt.old, tt.folded} {
			_, _, data, err := events.DecodeData(tt.typ, []byte(body))
			if err != nil {
				t.Fatalf("%s %s: %v", tt.typ, body, err)
			}
			e, err := events.New("id-1", time.Unix(0, 0).UTC(), "pat", "p1", data)
			if err != nil {
				t.Fatal(err)
			}
			if string(e.Raw) != body {
				t.Errorf("%s re-encoded\n got %s\nwant %s", tt.typ, e.Raw, body)
			}
			var part any
			switch d := data.(type) {
			case *events.VoteCast:
				part = transitionPart(d.Transition)
			case *events.VetoDismissed:
				part = transitionPart(d.Transition)
			case *events.ProposalOpened:
				if d.Proposed != nil {
					part = d.Proposed
				}
			case *events.PasswordChanged:
				if d.RevokedTokens != nil {
					part = d.RevokedTokens
				}
			}
			if (part != nil) != (body == tt.folded) {
				t.Fatalf("%s %s decoded with part %v", tt.typ, body, part)
			}
			if part == nil {
				continue
			}
			raw, err := json.Marshal(part)
			if err != nil {
				t.Fatal(err)
			}
			if string(raw) != tt.part {
				t.Errorf("%s: the folded part encodes as\n%s\nwant the separate event's body\n%s", tt.typ, raw, tt.part)
			}
		}
	}
}

func transitionPart(tr events.Transition) any {
	switch {
	case tr.CrossValidated != nil:
		return tr.CrossValidated
	case tr.ReturnedToReview != nil:
		return tr.ReturnedToReview
	}
	return nil
}
