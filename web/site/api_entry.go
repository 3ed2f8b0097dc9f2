package site

import (
	"context"
	"net/http"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

type apiEvidence struct {
	Proposal     string      `json:"proposal"`
	ID           string      `json:"id"`
	Claim        events.Text `json:"claim"` // both languages, either may be ""
	SourceURL    string      `json:"source_url,omitempty"`
	SourceName   string      `json:"source_name,omitempty"`
	Section      string      `json:"section,omitempty"`
	Excerpt      string      `json:"excerpt,omitempty"`
	ObservedOn   string      `json:"observed_on"`
	ValidForDays int         `json:"valid_for_days,omitempty"`
	StaleAfter   string      `json:"stale_after,omitempty"`
	Stale        bool        `json:"stale"`
	// Tier is where the claim comes from: "vendor", "third_party" or
	// "own"; absent where the editor did not say.
	Tier string `json:"tier,omitempty"`
	// Capture is the archived copy of the source; absent until one is.
	Capture *apiCapture `json:"capture,omitempty"`
	// Drift is what the latest re-check that found the source different
	// saw; absent until one did.
	Drift *apiDrift `json:"drift,omitempty"`
}

// apiDrift describes an evidence item's source as a scheduled re-check
// found it: "changed" since its capture, or "dead".
type apiDrift struct {
	State     string `json:"state"`      // "changed" or "dead"
	CheckedAt string `json:"checked_at"` // when the re-check's fetch began
	// SHA256 names the new archived version (changed), or the version
	// last seen (dead).
	SHA256 string `json:"sha256,omitempty"`
	Status int    `json:"status,omitempty"` // the HTTP status the re-check got
	// QuoteFound says whether the excerpt is still in the changed source;
	// absent when dead or when it could not be checked.
	QuoteFound *bool  `json:"quote_found,omitempty"`
	Reason     string `json:"reason,omitempty"` // why it is dead: one of domain.DeadReasons
}

func apiDriftOf(d projections.DriftView) *apiDrift {
	if d.State != domain.DriftChanged && d.State != domain.DriftDead {
		return nil
	}
	out := &apiDrift{State: string(d.State), CheckedAt: d.At, SHA256: d.SHA256, Status: d.Status, Reason: d.Reason}
	if d.State == domain.DriftChanged && d.QuoteChecked {
		out.QuoteFound = &d.QuoteFound
	}
	return out
}

// apiCapture describes an evidence item's archived source: its body is at
// /captures/{sha256}.
type apiCapture struct {
	SHA256      string `json:"sha256"`
	Status      int    `json:"status"` // the HTTP status of the captured response
	FetchedAt   string `json:"fetched_at"`
	ContentType string `json:"content_type"`
	Size        int64  `json:"size"`
	// QuoteFound says whether the excerpt was found in the capture;
	// null when it could not be checked (a PDF, say).
	QuoteFound *bool `json:"quote_found"`
}

func apiCaptureOf(c projections.CaptureView) *apiCapture {
	if c.State != domain.CaptureDone {
		return nil
	}
	out := &apiCapture{SHA256: c.SHA256, Status: c.Status, FetchedAt: c.At, ContentType: c.ContentType, Size: c.Size}
	if c.QuoteChecked {
		out.QuoteFound = &c.QuoteFound
	}
	return out
}

type apiEntryScore struct {
	Criterion string        `json:"criterion"`
	Score     int           `json:"score"`
	Edition   int           `json:"edition"`
	Proposal  string        `json:"proposal"`
	Rationale events.Text   `json:"rationale"`
	Evidence  []apiEvidence `json:"evidence"`
}

type apiEntryAttribute struct {
	Key      string        `json:"key"`
	Tags     []string      `json:"tags"`
	Edition  int           `json:"edition"`
	Proposal string        `json:"proposal"`
	Evidence []apiEvidence `json:"evidence"`
}

type apiRankPoint struct {
	Edition int `json:"edition"`
	Rank    int `json:"rank"`
	Total   int `json:"total"`
}

type apiEntry struct {
	Ranking      string              `json:"ranking"`
	Slug         string              `json:"slug"`
	Name         events.Text         `json:"name"`
	Category     string              `json:"category"`
	Website      string              `json:"website,omitempty"`
	Description  events.Text         `json:"description"`
	Edition      int                 `json:"edition"`
	Rank         int                 `json:"rank"`
	Tier         int                 `json:"tier,omitempty"` // the overall rank's tier (see domain.Stability)
	CategoryRank int                 `json:"category_rank"`
	Total        int                 `json:"total"`
	Scores       []apiEntryScore     `json:"scores"`
	Attributes   []apiEntryAttribute `json:"attributes"`
	History      []apiRankPoint      `json:"history"`
	Stability    *apiStability       `json:"stability,omitempty"` // how solid the overall rank is
	// Replies are the vendor's statements about the entry: its own
	// words, never part of a rank or a snapshot; the live API only, absent
	// when there are none (and from a static export).
	Replies []projections.Reply `json:"replies,omitempty"`
}

func apiEntryOf(ctx context.Context, read *projections.Store, slug, entry string, now time.Time) (apiEntry, error) {
	e, err := read.Entry(ctx, slug, entry)
	if err != nil {
		return apiEntry{}, err
	}
	if !e.Published {
		return apiEntry{}, projections.ErrNotFound
	}
	evs := func(list []projections.EvidenceView) []apiEvidence {
		out := []apiEvidence{}
		for _, v := range list {
			out = append(out, apiEvidence{Proposal: v.Proposal, ID: v.ID, Claim: v.Claim, SourceURL: v.SourceURL,
				SourceName: v.SourceName, Section: v.Section, Excerpt: v.Excerpt, ObservedOn: v.ObservedOn,
				ValidForDays: v.ValidForDays, StaleAfter: v.StaleAfter, Stale: v.Stale(now), Tier: string(v.Tier),
				Capture: apiCaptureOf(v.Capture), Drift: apiDriftOf(v.Drift)})
		}
		return out
	}
	out := apiEntry{Ranking: slug, Slug: e.Slug, Name: e.Name, Category: e.Category, Website: e.Website, Description: e.Description,
		Edition: e.Edition, Rank: e.Rank, CategoryRank: e.CategoryRnk, Total: e.Total,
		Scores: []apiEntryScore{}, Attributes: []apiEntryAttribute{}, History: []apiRankPoint{}}
	for _, s := range e.Scores {
		out.Scores = append(out.Scores, apiEntryScore{Criterion: s.Criterion, Score: s.Score, Edition: s.Edition,
			Proposal: s.Proposal, Rationale: s.Rationale, Evidence: evs(s.Evidence)})
	}
	for _, a := range e.Attributes {
		out.Attributes = append(out.Attributes, apiEntryAttribute{Key: a.Key, Tags: nonNil(a.Tags), Edition: a.Edition,
			Proposal: a.Proposal, Evidence: evs(a.Evidence)})
	}
	for _, h := range e.History {
		out.History = append(out.History, apiRankPoint{Edition: h.Edition, Rank: h.Rank, Total: h.Total})
	}
	m, err := read.EditionMark(ctx, slug)
	if err != nil {
		return out, err
	}
	stab, err := read.Stability(ctx, slug, m.Edition)
	if err != nil {
		return out, err
	}
	out.Stability = apiStabilityOf(stab, entry, true)
	out.Tier = stab[entry].Tier
	return out, nil
}

func (s *Site) apiEntry(w http.ResponseWriter, r *http.Request) {
	slug, entry := r.PathValue("slug"), r.PathValue("entry")
	mark, err := s.read.RepliesMark(r.Context(), slug, entry)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	s.serveAPIOf(w, r, slug, nil, true, mark, func(ctx context.Context) (any, error) {
		e, err := apiEntryOf(ctx, s.read, slug, entry, httpx.Now(ctx))
		if err != nil {
			return nil, err
		}
		e.Replies, err = s.read.Replies(ctx, slug, entry)
		return e, err
	})
}
