package desk

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// reverifyRef names the published evidence item a re-verification
// proposal starts from: ?reverify=<proposal>&evidence=<id> on the
// new-proposal page, carried by its form and by the redirect to the new
// proposal. The pages look the item up again each time: only its
// reference travels, never its text.
type reverifyRef struct {
	Proposal string
	Evidence string
}

// reverifyRefOf reads the reference from q; ok is false when it is
// absent or malformed.
func reverifyRefOf(q url.Values) (reverifyRef, bool) {
	r := reverifyRef{Proposal: q.Get("reverify"), Evidence: q.Get("evidence")}
	return r, events.ValidID(r.Proposal) && events.ValidID(r.Evidence)
}

// values is the reference as query parameters.
func (r reverifyRef) values() url.Values {
	return url.Values{"reverify": {r.Proposal}, "evidence": {r.Evidence}}
}

// ReverifyPath opens the new-proposal page pre-filled to re-verify the
// published evidence item of proposal whose source changed or died.
func ReverifyPath(ranking, entry, proposal, evidence string) string {
	v := reverifyRef{Proposal: proposal, Evidence: evidence}.values()
	v.Set("ranking", ranking)
	v.Set("entry", entry)
	return paths.Desk + "/proposals/new?" + v.Encode()
}

// reverifySource is a drifted source behind published values of one
// entry, with every value it backs.
type reverifySource struct {
	Ref      reverifyRef
	Evidence projections.EvidenceView
	Targets  []string // "score:<criterion>" or "attr:<key>", in the queue's order
}

// reverifySourceOf finds ref among the sources to re-verify of entry; nil
// when it is not one (never published for it, or its source is fine).
func (d *Desk) reverifySourceOf(ctx context.Context, ranking, entry string, ref reverifyRef) (*reverifySource, error) {
	all, err := d.read.SourcesToReverify(ctx, ranking)
	if err != nil {
		return nil, err
	}
	var out *reverifySource
	for _, s := range all {
		if s.Entry != entry || s.Evidence.Proposal != ref.Proposal || s.Evidence.ID != ref.Evidence {
			continue
		}
		if out == nil {
			out = &reverifySource{Ref: ref, Evidence: s.Evidence}
		}
		out.Targets = append(out.Targets, s.Target)
	}
	return out, nil
}

// Criterion returns the criterion of the first score the source backs, or
// "" when it backs only attributes.
func (s *reverifySource) Criterion() string {
	for _, t := range s.Targets {
		if c, ok := strings.CutPrefix(t, "score:"); ok {
			return c
		}
	}
	return ""
}

// reverifyPrefill is what a re-verification proposal starts with: the
// new-proposal form's title and summary.
type reverifyPrefill struct {
	Ref     reverifyRef
	Title   string
	Summary string
}

// maxTitleClaim bounds the claim quoted in a pre-filled title, so the
// title stays within domain.MaxTitle whatever the claim's length.
const maxTitleClaim = 120

// prefillOf words the title and the summary of a proposal re-verifying s:
// the values it backs, the old claim and its source, and what the
// re-check found.
func prefillOf(p ui.Page, labels rankingLabels, s *reverifySource) *reverifyPrefill {
	claim := s.Evidence.Claim.In(p.Lang)
	if utf8.RuneCountInString(claim) > maxTitleClaim {
		claim = string([]rune(claim)[:maxTitleClaim]) + "…"
	}
	var targets []string
	for _, t := range s.Targets {
		targets = append(targets, labels.target(p.Lang, t))
	}
	source := s.Evidence.SourceURL
	if source == "" {
		source = s.Evidence.SourceName
	}
	return &reverifyPrefill{Ref: s.Ref,
		Title: p.T("desk.reverify.prefill_title", claim),
		Summary: p.T("desk.reverify.prefill_summary", strings.Join(targets, listSep(p.Lang)), s.Evidence.ID,
			s.Evidence.Claim.In(p.Lang), source, driftNote(p, s.Evidence.Drift)),
	}
}

// proposalOpenedFrom is where a successful open goes: the new proposal,
// carrying the re-verification reference when the form had one, so its
// page pre-fills the evidence and the score to check again.
func proposalOpenedFrom(r *http.Request, res handler.Result) string {
	if len(res.EventIDs) == 0 {
		return paths.Desk
	}
	to := ProposalPath(res.EventIDs[0])
	if ref, ok := reverifyRefOf(r.PostForm); ok {
		to += "?" + ref.values().Encode()
	}
	return to
}

// reverifyNote tells the editor of a re-verification draft what the form
// below starts from: the old item, the values it backs, what the re-check
// found.
func reverifyNote(p ui.Page, labels rankingLabels, s *reverifySource) string {
	var targets []string
	for _, t := range s.Targets {
		targets = append(targets, labels.target(p.Lang, t))
	}
	return p.T("desk.reverify.prefill_note", s.Evidence.ID, s.Ref.Proposal, strings.Join(targets, listSep(p.Lang)),
		driftNote(p, s.Evidence.Drift))
}
