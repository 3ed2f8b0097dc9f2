package api

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// ReadModels is what the API reads from the read models.
type ReadModels interface {
	// ProposalIDs returns one page of the proposals a filter selects.
	ProposalIDs(ctx context.Context, f projections.ProposalFilter) (projections.ProposalPage, error)
	// Definition returns a ranking's definition and its latest edition.
	Definition(ctx context.Context, slug string) (*domain.Ranking, int, error)
	// MethodologyChanges returns what a methodology proposal changes.
	MethodologyChanges(ctx context.Context, proposal string) ([]events.MethodologyChange, error)
	// MethodologyHistory lists the editions that published a ranking's methodology.
	MethodologyHistory(ctx context.Context, ranking string) ([]projections.MethodologyEdition, error)
	// Schedules lists a ranking's scheduled editions.
	Schedules(ctx context.Context, ranking string) ([]projections.ScheduleRow, error)
	// Conflicts lists a ranking's declared conflicts of interest.
	Conflicts(ctx context.Context, ranking string) ([]projections.ConflictRow, error)
	// WebhookDeliveryPage returns a page of the delivery records, newest
	// first, and how many there are.
	WebhookDeliveryPage(ctx context.Context, limit, offset int) ([]projections.WebhookDelivery, int, error)
	// Inbox returns a page of a user's inbox.
	Inbox(ctx context.Context, f projections.InboxFilter) (projections.InboxPage, error)
	InboxItems(ctx context.Context, f projections.InboxFilter) (projections.InboxPage, error)
	// Search returns a page of the entries, proposals or evidence a search finds.
	Search(ctx context.Context, q projections.SearchQuery) (projections.SearchResults, error)
}

var _ ReadModels = (*projections.Store)(nil)

// ProposalList is one page of GET /api/v1/proposals. Next is the cursor of
// the following page, passed back as ?after=; it is absent on the last page.
type ProposalList struct {
	Proposals []Proposal `json:"proposals"`
	Next      string     `json:"next,omitempty"`
}

// statuses are the values ?status= accepts.
var statuses = []domain.Status{domain.StatusDraft, domain.StatusInReview, domain.StatusCrossValidated,
	domain.StatusPublished, domain.StatusRejected, domain.StatusWithdrawn}

// proposalList answers GET /api/v1/proposals?ranking=&status=&entry=&author=&limit=&after=:
// the read models choose the page (in the order proposals were opened) and
// each item is read as GET /api/v1/proposals/{id} reads it, so both
// answer the same JSON for the same proposal.
func proposalList(cmds *handler.Handler, read ReadModels) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		f, err := proposalFilterOf(r.URL.Query())
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		page, err := read.ProposalIDs(ctx, f)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		out := ProposalList{Proposals: []Proposal{}}
		if !page.Next.IsZero() {
			out.Next = encodeCursor(page.Next)
		}
		now := httpx.Now(ctx)
		rankings := map[string]rankingState{}
		for _, id := range page.IDs {
			p, err := cmds.Proposal(ctx, id)
			if err != nil {
				ui.Fail(w, r, err)
				return
			}
			// Proposals of one ranking in review depend on one proposal
			// that defines it, as a rule: one lookup for the page.
			key := p.Ranking + " " + p.DependsOn
			rs, ok := rankings[key]
			if !ok {
				if rs, err = proposalRankingState(ctx, cmds, p); err != nil {
					ui.Fail(w, r, err)
					return
				}
				rankings[key] = rs
			}
			v := proposalOf(p, now)
			if err := judgedNow(ctx, cmds, p, rs, &v); err != nil {
				ui.Fail(w, r, err)
				return
			}
			if err := withChanges(ctx, read, &v); err != nil {
				ui.Fail(w, r, err)
				return
			}
			out.Proposals = append(out.Proposals, v)
		}
		httpx.WriteJSON(w, http.StatusOK, out)
	}
}

// rankingState is what a proposal's quorum is judged against.
type rankingState struct {
	judging domain.Judging
	edition *domain.Edition
}

// proposalRankingState is the ranking p is judged by (domain.JudgedBy: the
// ranking as defined, or the methodology proposed for it while it is in
// review) and its published state.
func proposalRankingState(ctx context.Context, cmds *handler.Handler, p *domain.Proposal) (rankingState, error) {
	j, err := cmds.JudgedBy(ctx, p)
	if err != nil {
		return rankingState{}, err
	}
	ed, err := cmds.Edition(ctx, p.Ranking)
	return rankingState{j, ed}, err
}

// proposalFilterOf reads the list's query. An unknown status is a field
// error (422); a limit or cursor that is not one is malformed (400). A
// limit above projections.MaxProposalLimit is capped, as the audit
// trail's is.
func proposalFilterOf(q url.Values) (projections.ProposalFilter, error) {
	f := projections.ProposalFilter{Ranking: q.Get("ranking"), Entry: q.Get("entry"), Author: q.Get("author")}
	if s := q.Get("status"); s != "" {
		st := domain.Status(s)
		if !slices.Contains(statuses, st) {
			return f, domain.Invalid("status", "field.unknown_status", domain.Args{"value": s})
		}
		f.Status = s
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return f, &httpx.BadField{Field: "limit", Code: "field.whole_number"}
		}
		f.Limit = n
	}
	if v := q.Get("after"); v != "" {
		k, ok := decodeCursor(v)
		if !ok {
			return f, &httpx.BadField{Field: "after", Code: "field.cursor"}
		}
		f.After = k
	}
	return f, nil
}

// A cursor is opaque to clients: the key of the page's last proposal,
// "opened id" in unpadded base64url.
func encodeCursor(k projections.ProposalKey) string {
	return base64.RawURLEncoding.EncodeToString([]byte(k.Opened + " " + k.ID))
}

func decodeCursor(s string) (projections.ProposalKey, bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return projections.ProposalKey{}, false
	}
	opened, id, ok := strings.Cut(string(b), " ")
	if !ok || opened == "" || id == "" {
		return projections.ProposalKey{}, false
	}
	return projections.ProposalKey{Opened: opened, ID: id}, true
}
