package desk

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// diffRow is one proposed change, field by field: before → after, with
// the labels readers know.
type diffRow struct {
	Target    string // "score:price" or "attr:billing", as the remove form sends it
	ID        string // the target made safe for a test id: "score-price"
	Label     string
	Before    string
	After     string
	Added     []string // attribute tags the change adds
	Removed   []string // and those it drops
	Rationale ui.Bilingual
	Evidence  string // the evidence ids it cites
	Stale     bool   // the baseline was published over since
	StaleNote string
}

// diffRows lists the proposal's changes with their labels.
func diffRows(p ui.Page, l rankingLabels, d projections.ProposalDetail, ed *domain.Edition) []diffRow {
	pub := ed.Entry(d.Entry)
	var out []diffRow
	for _, c := range d.Changes {
		kind, key, _ := strings.Cut(c.Target, ":")
		row := diffRow{Target: c.Target, ID: kind + "-" + key, Label: l.target(p.Lang, c.Target),
			Rationale: ui.BilingualOf(p, c.Rationale), Evidence: strings.Join(c.Evidence, listSep(p.Lang)),
			Stale: slices.Contains(d.Quorum.StaleTarget, c.Target)}
		if kind == "attr" {
			row.Before, row.After = l.tags(p.Lang, key, c.FromTags), l.tags(p.Lang, key, c.ToTags)
			for _, t := range c.ToTags {
				if !slices.Contains(c.FromTags, t) {
					row.Added = append(row.Added, l.tag(p.Lang, key, t))
				}
			}
			for _, t := range c.FromTags {
				if !slices.Contains(c.ToTags, t) {
					row.Removed = append(row.Removed, l.tag(p.Lang, key, t))
				}
			}
			if row.Stale {
				var now []string
				if pub != nil {
					now = pub.Attributes[key]
				}
				row.StaleNote = p.T("desk.diff.stale", l.tags(p.Lang, key, now))
			}
		} else {
			row.Before, row.After = scoreText(p, c.FromScore), scoreText(p, c.ToScore)
			if row.Stale {
				var now *int
				if pub != nil {
					if n, ok := pub.Scores[key]; ok {
						now = &n
					}
				}
				row.StaleNote = p.T("desk.diff.stale", scoreText(p, now))
			}
		}
		out = append(out, row)
	}
	return out
}

func scoreText(p ui.Page, n *int) string {
	if n == nil {
		return p.T("desk.diff.unscored")
	}
	return strconv.Itoa(*n)
}

// evidenceRow is one evidence item with its source and who verified it.
type evidenceRow struct {
	ID         string
	Claim      ui.Bilingual
	Source     string // the source's name, or its URL when unnamed
	Href       string // the source URL when it is http(s); "" shows no link
	Section    string
	Excerpt    string
	Observed   string
	Validity   string // "valid for 30 days" or "does not expire"
	Stale      bool
	StaleText  string
	Removed    bool
	AddedBy    string
	CitedBy    string      // the changes citing it, by label
	VerifiedBy string      // approvers of the current revision who checked it
	Unverified bool        // no approver of the current revision checked it yet
	Removable  bool        // the editor may remove it (not cited, not removed)
	Capture    *captureRow // nil: no http(s) source to capture
	Tier       ui.Tier
}

// evidenceRows lists the proposal's evidence, current first.
func evidenceRows(p ui.Page, l rankingLabels, d projections.ProposalDetail, editable bool, now time.Time) []evidenceRow {
	verified := map[string][]string{}
	for _, v := range d.Votes {
		if v.Current && v.Verdict == events.Approve && v.Revision == d.Revision {
			for _, id := range v.Verified {
				verified[id] = append(verified[id], v.Voter)
			}
		}
	}
	cited := map[string][]string{}
	for _, c := range d.Changes {
		for _, id := range c.Evidence {
			cited[id] = append(cited[id], c.Target)
		}
	}
	var out []evidenceRow
	for _, e := range d.Evidence {
		row := evidenceRow{
			ID: e.ID, Claim: ui.BilingualOf(p, e.Claim), Source: e.SourceName, Href: sourceHref(e.SourceURL), Section: e.Section,
			Excerpt: e.Excerpt, Observed: p.Day(e.ObservedOn), Stale: e.Stale(now), Removed: e.Removed,
			AddedBy: e.AddedBy, VerifiedBy: joinNames(p.Lang, verified[e.ID]), Capture: captureOf(p, e),
			Tier: ui.TierOf(p, e.Tier),
		}
		if row.Source == "" {
			row.Source = e.SourceURL
		}
		if e.ValidForDays > 0 {
			row.Validity = plural(p.Lang, "desk.evidence.valid_for", e.ValidForDays, e.ValidForDays)
		} else {
			row.Validity = p.T("desk.evidence.no_expiry")
		}
		if row.Stale {
			row.StaleText = p.T("desk.stale.since", p.Day(e.StaleAfter))
		}
		row.Unverified = !e.Removed && len(verified[e.ID]) == 0
		var targets []string
		for _, t := range cited[e.ID] {
			targets = append(targets, l.target(p.Lang, t))
		}
		row.CitedBy = strings.Join(targets, listSep(p.Lang))
		row.Removable = editable && !e.Removed && len(targets) == 0
		out = append(out, row)
	}
	return out
}

// sourceHref returns u when it may become a link: an absolute http or https
// URL with a host, as the domain accepts. Anything else (javascript:, data:,
// a relative path) is shown as text, never as href.
func sourceHref(u string) string {
	if u == "" || domain.CheckURL("source_url", u) != nil {
		return ""
	}
	return u
}

// voteRow is one vote as the page lists it.
type voteRow struct {
	Voter       string
	Verdict     string // "approve" or "reject"
	VerdictText string
	Revision    int
	Verified    string
	Comment     string
	At          string
	Outdated    bool // an approval of an earlier revision
	Veto        bool // an open reject
	Dismissed   string
}

// approvedBy reports whether user's current vote approves d's current
// revision, and whether that revision has evidence the approval did not
// verify.
func approvedBy(user string, d projections.ProposalDetail) (approved, more bool) {
	for _, v := range d.Votes {
		if v.Voter != user || !v.Current || v.Verdict != events.Approve || v.Revision != d.Revision {
			continue
		}
		for _, e := range citable(d) {
			if !slices.Contains(v.Verified, e.ID) {
				return true, true
			}
		}
		return true, false
	}
	return false, false
}

// voteRows splits the votes into every reviewer's current vote and the
// history of replaced ones.
func voteRows(p ui.Page, d projections.ProposalDetail) (current, history []voteRow) {
	for _, v := range d.Votes {
		row := voteRow{Voter: v.Voter, Verdict: v.Verdict, VerdictText: p.T("desk.vote." + v.Verdict),
			Revision: v.Revision, Verified: joinNames(p.Lang, v.Verified), Comment: v.Comment,
			At: p.DateTime(parseTime(v.CastAt)), Outdated: v.Outdated}
		if v.Verdict == events.Reject {
			if v.DismissedBy != "" {
				row.Dismissed = p.T("desk.vote.dismissed", v.DismissedBy, v.Dismissal)
			} else {
				row.Veto = v.Current
			}
		}
		if v.Current {
			current = append(current, row)
		} else {
			history = append(history, row)
		}
	}
	return current, history
}

// revisionRow is one revision of the proposal.
type revisionRow struct {
	Revision int
	Actor    string
	At       string
	Note     string
}

func revisionRows(p ui.Page, d projections.ProposalDetail) []revisionRow {
	out := make([]revisionRow, 0, len(d.Revisions))
	for _, r := range d.Revisions {
		out = append(out, revisionRow{Revision: r.Revision, Actor: r.Actor, At: p.DateTime(parseTime(r.At)), Note: r.Note})
	}
	return out
}
