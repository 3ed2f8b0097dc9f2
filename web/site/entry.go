package site

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// evidenceView is one evidence item as readers see it.
type evidenceView struct {
	Anchor     string // id on the entry page: "ev-<proposal>-<id>"
	Claim      ui.Bilingual
	Excerpt    string
	Href       string // the source's address; "" when it is not an http(s) URL
	SourceText string // what the source link (or plain text) says
	Section    string
	Observed   string // the observed date in the reader's language
	Stale      bool   // past its validity: "may be out of date"
	StaleAfter string
	AuditHref  string
	Archive    bool // the source is itself an archive (web.archive.org, perma.cc)
	Copy       copyView
	Drift      driftView
	Tier       ui.Tier
}

// driftView is what an evidence item shows of the latest re-check that
// found its source different: nothing (Key "") until one did.
type driftView struct {
	Key    string // i18n key: public.drift_changed, public.drift_quote_lost or public.drift_dead
	TestID string // drift-changed, drift-quote-lost or drift-dead
	Day    string // the re-check's day in the reader's language
}

// driftOf returns the drift view of d.
func driftOf(p ui.Page, d projections.DriftView) driftView {
	var v driftView
	switch {
	case d.State == domain.DriftDead:
		v = driftView{Key: "public.drift_dead", TestID: "drift-dead"}
	case d.State == domain.DriftChanged && d.QuoteChecked && !d.QuoteFound:
		v = driftView{Key: "public.drift_quote_lost", TestID: "drift-quote-lost"}
	case d.State == domain.DriftChanged:
		v = driftView{Key: "public.drift_changed", TestID: "drift-changed"}
	default:
		return v
	}
	if at, err := time.Parse(time.RFC3339, d.At); err == nil {
		v.Day = p.Day(at.UTC().Format(time.DateOnly))
	}
	return v
}

// copyView is what an evidence item shows of its source's capture.
type copyView struct {
	Href         string // the archived copy; "" when there is none to link
	Day          string // YYYY-MM-DD of the fetch, for data-versiondate
	Title        string // "the page as fetched on …"
	QuoteChecked bool
	QuoteFound   bool
}

// sourceHref returns raw as a link target only when it is an http or
// https URL the domain accepts; anything else (javascript:, data:, a bare
// name) is shown as text and never becomes an href.
func sourceHref(raw string) string {
	if raw == "" || domain.CheckURL("source_url", raw) != nil {
		return ""
	}
	return raw
}

func evidenceOf(p ui.Page, l linkSet, e projections.EvidenceView, now time.Time) evidenceView {
	v := evidenceView{Anchor: evidenceAnchor(e.Proposal, e.ID), Claim: ui.BilingualOf(p, e.Claim), Excerpt: e.Excerpt,
		Href: sourceHref(e.SourceURL), Section: e.Section, Observed: p.Day(e.ObservedOn),
		Stale: e.Stale(now), AuditHref: l.Audit(e.Proposal), Tier: ui.TierOf(p, e.Tier)}
	if e.StaleAfter != "" {
		v.StaleAfter = p.Day(e.StaleAfter)
	}
	v.Archive = isArchive(v.Href)
	v.Drift = driftOf(p, e.Drift)
	if c := e.Capture; c.State == domain.CaptureDone {
		v.Copy = copyView{Href: l.Capture(c.SHA256), QuoteChecked: c.QuoteChecked, QuoteFound: c.QuoteFound}
		if at, err := time.Parse(time.RFC3339, c.At); err == nil && v.Copy.Href != "" {
			v.Copy.Day = at.UTC().Format(time.DateOnly)
			v.Copy.Title = p.T("public.archived_copy_title", p.DateTime(at))
		} else {
			v.Copy.Href = ""
		}
	}
	switch {
	case e.SourceName != "":
		v.SourceText = e.SourceName
	case v.Href != "":
		v.SourceText = v.Href
	default:
		v.SourceText = e.SourceURL // not a link: shown as text
	}
	return v
}

// archiveHosts are the web archives whose copies evidence may cite.
var archiveHosts = []string{"web.archive.org", "perma.cc", "www.perma.cc"}

// isArchive reports whether href is an address in a web archive.
func isArchive(href string) bool {
	u, err := url.Parse(href)
	return err == nil && href != "" && slices.Contains(archiveHosts, strings.ToLower(u.Hostname()))
}

func evidenceAnchor(proposal, id string) string { return "ev-" + proposal + "-" + id }

func scoreAnchor(criterion string) string { return "score-" + criterion }

func attrAnchor(key string) string { return "attr-" + key }

// scoreView is one criterion of an entry with the evidence behind its score.
type scoreView struct {
	Anchor      string
	Criterion   string // the criterion's slug (the report form names it)
	Name        string
	Description string
	Weight      int
	Scored      bool
	Meter       meterView
	Rationale   ui.Bilingual
	Edition     int
	EditionHref string
	Evidence    []evidenceView
}

// attrView is one attribute with labelled values and its evidence.
type attrView struct {
	Key      string
	Anchor   string
	Name     string
	Values   []string
	Evidence []evidenceView
}

// entryView is the model of an entry page.
type entryView struct {
	ui.Page
	L            linkSet
	Live         liveUpdates
	Slug         string
	Entry        string
	RankingTitle string
	RankingHref  string
	Name         string
	Category     string
	Description  string
	Website      string // an http(s) link or ""
	Edition      int
	Rank         int
	CategoryRank int
	TotalText    string
	TotalFill    string
	Scores       []scoreView
	Attributes   []attrView
	Bump         bumpChart         // its rank across editions beside the top ten's
	ScoreHistory scoreHistoryChart // each criterion's score across editions
	Reach        intervalChart     // its stability interval beside those it could change places with
	StaleCount   int
	Stability    stabilityView // how solid the overall rank is
	Tier         int           // the overall rank's tier; 0: not known
	TierShared   string        // "shares its tier with 2 other entries"
	ChangesHref  string        // why it moved: the live site only (the view takes a query)
	Replies      []replyView   // the vendor's statements: the live site only (they change between editions)
	ContactHref  string        // the contact timeline: the live site only
	Record       []recordRow   // every change published to it, newest first
}

// buildEntry assembles an entry page; an entry not yet published is not
// found.
func buildEntry(ctx context.Context, read *projections.Store, p ui.Page, l linkSet, slug, entry string, now time.Time) (entryView, error) {
	e, err := read.Entry(ctx, slug, entry)
	if err != nil {
		return entryView{}, err
	}
	if !e.Published {
		return entryView{}, projections.ErrNotFound
	}
	r := e.Ranking
	v := entryView{Page: p, L: l, Slug: slug, Entry: entry, RankingTitle: r.Title.In(p.Lang),
		RankingHref: l.Ranking(slug, "", ""), Name: e.Name.In(p.Lang), Description: e.Description.In(p.Lang),
		Website: sourceHref(e.Website), Edition: e.Edition, Rank: e.Rank, CategoryRank: e.CategoryRnk,
		TotalText: totalText(e.Total), TotalFill: totalMeter(e.Total)}
	v.Page.Title = v.Name + " · " + v.RankingTitle
	if !l.static {
		v.ChangesHref = "/r/" + slug + "/e/" + entry + "/changes"
	}
	for _, c := range r.Categories {
		if c.Slug == e.Category {
			v.Category = c.Name.In(p.Lang)
		}
	}
	// The stale evidence items, each counted once however many values cite
	// it, as the desk's dashboard counts them.
	stale := map[string]bool{}
	scores := map[string]projections.ScoreView{}
	for _, s := range e.Scores {
		scores[s.Criterion] = s
	}
	for _, c := range r.Criteria {
		ps := scoreView{Anchor: scoreAnchor(c.Slug), Criterion: c.Slug, Name: c.Name.In(p.Lang), Description: c.Description.In(p.Lang), Weight: c.Weight}
		if s, ok := scores[c.Slug]; ok {
			ps.Scored, ps.Meter, ps.Rationale, ps.Edition = true, meterOf(s.Score), ui.BilingualOf(p, s.Rationale), s.Edition
			ps.EditionHref = l.Edition(slug, s.Edition)
			for _, ev := range s.Evidence {
				pe := evidenceOf(p, l, ev, now)
				pe.AuditHref = l.Record(slug, entry, ev.Proposal)
				if pe.Stale {
					stale[ev.Proposal+"/"+ev.ID] = true
				}
				ps.Evidence = append(ps.Evidence, pe)
			}
		}
		v.Scores = append(v.Scores, ps)
	}
	for _, a := range e.Attributes {
		pa := attrView{Key: a.Key, Anchor: attrAnchor(a.Key), Name: a.Key, Values: a.Tags}
		if def, ok := r.Attribute(a.Key); ok {
			pa.Name = def.Name.In(p.Lang)
			pa.Values = tagLabels(p, def.Values, a.Tags)
		}
		for _, ev := range a.Evidence {
			pe := evidenceOf(p, l, ev, now)
			pe.AuditHref = l.Record(slug, entry, ev.Proposal)
			if pe.Stale {
				stale[ev.Proposal+"/"+ev.ID] = true
			}
			pa.Evidence = append(pa.Evidence, pe)
		}
		v.Attributes = append(v.Attributes, pa)
	}
	v.StaleCount = len(stale)
	// Attributes in the order the ranking defines them.
	order := map[string]int{}
	for i, a := range r.Attributes {
		order[a.Key] = i
	}
	slices.SortStableFunc(v.Attributes, func(a, b attrView) int {
		return order[a.Key] - order[b.Key]
	})
	st, err := read.Standing(ctx, slug, "", nil)
	if err != nil {
		return v, err
	}
	stab, err := read.Stability(ctx, slug, st.Edition)
	if err != nil {
		return v, err
	}
	names, crit := map[string]string{}, map[string]string{}
	for _, row := range st.Rows {
		names[row.Slug] = row.Name.In(p.Lang)
	}
	for _, c := range r.Criteria {
		crit[c.Slug] = c.Name.In(p.Lang)
	}
	v.Stability = stabilityOf(p, stab, entry, names, crit)
	v.Tier, v.TierShared = tierOf(p, stab, entry)
	changes, err := read.PublishedChanges(ctx, slug, entry, 0, e.Edition)
	if err != nil {
		return v, err
	}
	publishers, err := read.EditionPublishers(ctx, slug)
	if err != nil {
		return v, err
	}
	v.Record = recordOf(p, l, e, changes, publishers)
	if err := v.charts(ctx, read, e, changes, st, stab, names); err != nil {
		return v, err
	}
	return v, nil
}

// tagLabels names attribute values by the ranking's labels.
func tagLabels(p ui.Page, defs []events.AttributeValue, tags []string) []string {
	out := make([]string, 0, len(tags))
	for _, t := range tags {
		label := t
		for _, d := range defs {
			if d.Value == t && d.Label.In(p.Lang) != "" {
				label = d.Label.In(p.Lang)
			}
		}
		out = append(out, label)
	}
	return out
}

// entry serves GET /r/{slug}/e/{entry}.
func (s *Site) entry(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	slug, entry := r.PathValue("slug"), r.PathValue("entry")
	mark, err := s.read.RepliesMark(ctx, slug, entry)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	s.servePageOf(w, r, slug, nil, true, mark, func(p ui.Page, live liveUpdates) (templ.Component, error) {
		l := liveLinks
		l.captures = s.captures != nil
		l.origin = s.origin
		v, err := buildEntry(ctx, s.read, p, l, slug, entry, httpx.Now(ctx))
		if err != nil {
			return nil, err
		}
		v.Live = live
		if v.Replies, err = s.replies(ctx, p, slug, entry); err != nil {
			return nil, err
		}
		v.ContactHref = "/r/" + slug + "/e/" + entry + "/contact"
		return entryPage(v), nil
	})
}
