package site

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// An embargoed preview's page (GET /preview/{token}) shows the ranking and
// the changed entries as the next edition of the preview's proposals would
// publish them, computed anew at each opening by the same function the
// publish page and the edition use. It is the one page of the site that
// shows what is not published, so it stays apart from the rest: never in
// the page cache (no servePage), no live updates, no feed, nothing a
// public page links to; headers keep it out of indexes, shared caches and
// Referer headers.

// PreviewEditions is what the page needs from the command handler.
type PreviewEditions interface {
	// PreviewEdition computes the next edition of ranking from proposals.
	PreviewEdition(ctx context.Context, ranking string, proposals []string) (domain.EditionPreview, *domain.Ranking, error)
	// OpenPreview records an opening (folded, see domain.PreviewOpenFold).
	OpenPreview(ctx context.Context, id, tokenHash string) (handler.Result, error)
	// Proposal loads a proposal, for the evidence its changes cite.
	Proposal(ctx context.Context, id string) (*domain.Proposal, error)
}

var _ PreviewEditions = (*handler.Handler)(nil)

// previewChanges bounds the changes, and the new entries, a preview's
// page lists: the first edition of a 10,000-entry ranking has 100,000
// changes; the ranking below pages the entries.
const previewChanges = 200

// PreviewRoute mounts GET /preview/{token} on mux; read wraps it as every
// page that queries the read models.
func (s *Site) PreviewRoute(mux *http.ServeMux, read func(http.Handler) http.Handler, eds PreviewEditions) {
	pp := &previewPages{site: s, eds: eds, opened: map[string]time.Time{}}
	mux.Handle("GET /preview/{token}", read(pp))
}

type previewPages struct {
	site *Site
	eds  PreviewEditions
	// opened is when this process last recorded each preview's opening:
	// within domain.PreviewOpenFold it records none, without asking the
	// store (the domain folds across processes).
	mu     sync.Mutex
	opened map[string]time.Time
}

func (pp *previewPages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Robots-Tag", "noindex, nofollow")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "private, no-store")
	ctx := r.Context()
	now := pp.site.now()
	// Every token, well-formed or not, takes the same path: hash, one
	// lookup by the hash, the same 404 for unknown, revoked and expired.
	// The lookup compares hashes, never the token: how long it takes says
	// nothing about any token's bytes (the domain compares the hash again
	// in constant time when it records the opening).
	sum := sha256.Sum256([]byte(r.PathValue("token")))
	hash := hex.EncodeToString(sum[:])
	row, found, err := pp.site.read.PreviewByHash(ctx, hash)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	if !found || row.Status(now) != domain.PreviewActive {
		ui.Fail(w, r, domain.ErrPreviewClosed)
		return
	}
	if err := pp.record(ctx, row.ID, hash, now); err != nil {
		ui.Fail(w, r, err)
		return
	}
	pv, _, err := pp.eds.PreviewEdition(ctx, row.Ranking, row.Proposals)
	if err != nil {
		// The proposals no longer make an edition (one was published,
		// or returned to review): the preview shows nothing any more.
		ui.Fail(w, r, domain.ErrPreviewClosed)
		return
	}
	p := ui.PageOf(r, "", "")
	p.SetURL(&url.URL{Path: r.URL.Path})
	page := 1
	if n, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil && n > 0 {
		page = n
	}
	v, err := buildPreview(ctx, pp.eds, p, r.URL.Path, row, pv, page, pp.site.rows)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	ui.Render(w, r, http.StatusOK, previewPage(v))
}

// record records an opening unless this process recorded one within the
// fold; a link revoked since the read models said otherwise is refused.
func (pp *previewPages) record(ctx context.Context, id, hash string, now time.Time) error {
	pp.mu.Lock()
	last, ok := pp.opened[id]
	if ok && now.Sub(last) < domain.PreviewOpenFold {
		pp.mu.Unlock()
		return nil
	}
	if len(pp.opened) > 4096 {
		for k, t := range pp.opened {
			if now.Sub(t) >= domain.PreviewOpenFold {
				delete(pp.opened, k)
			}
		}
	}
	pp.opened[id] = now
	pp.mu.Unlock()
	_, err := pp.eds.OpenPreview(ctx, id, hash)
	if errors.Is(err, domain.ErrPreviewClosed) {
		return err
	}
	// Failing to count an opening does not keep the page from the
	// reader; the next opening after the fold counts it.
	return nil
}

// previewView is the model of a preview's page.
type previewView struct {
	ui.Page
	L           linkSet
	Ranking     rankingView // the ranking after the edition, a page of it
	Until       string
	Note        string
	Number      int
	Scores      []changeRow
	Attributes  []changeRow
	NewEntries  []string
	More        int      // changes past previewChanges
	MoreEntries int      // new entries past previewChanges
	Anchors     []string // one per changed entry, which its rows link to
	Evidence    []previewEvidence
}

// previewEvidence is one evidence item a change cites.
type previewEvidence struct {
	Anchor, Source, Excerpt string
	Claim                   ui.Bilingual
}

func buildPreview(ctx context.Context, eds PreviewEditions, p ui.Page, self string, row projections.PreviewRow, pv domain.EditionPreview, page, perPage int) (previewView, error) {
	r := pv.Under
	l := liveLinks
	v := previewView{Page: p, L: l, Note: row.Note, Number: pv.Number}
	if len(row.ExpiresAt) >= 16 {
		v.Until = p.T("preview.utc", p.Day(row.ExpiresAt[:10]), row.ExpiresAt[11:16])
	}
	v.Page.Title = p.T("preview.title", r.Title.In(p.Lang))
	rv := rankingView{Page: v.Page, L: l, Slug: r.Slug, Title: r.Title.In(p.Lang), Description: r.Description.In(p.Lang),
		Edition: pv.Number}
	weights := r.Weights()
	for _, c := range r.Criteria {
		rv.Criteria = append(rv.Criteria, criterionView{Slug: c.Slug, Name: c.Name.In(p.Lang), Weight: weights[c.Slug]})
	}
	catNames := map[string]string{}
	for _, c := range r.Categories {
		catNames[c.Slug] = c.Name.In(p.Lang)
	}
	changed := map[string]bool{}
	for _, c := range pv.Changes {
		changed[c.Entry] = true
	}
	before := map[string]int{}
	for _, e := range pv.Before.Entries {
		before[e.Slug] = e.Rank
	}
	for _, e := range pv.After.Entries {
		moves := map[string]*int{}
		if b, ok := before[e.Slug]; ok {
			d := b - e.Rank
			moves[e.Slug] = &d
		} else {
			moves[e.Slug] = nil
		}
		scores := make(map[string]int, len(e.Scores))
		for _, sc := range e.Scores {
			scores[sc.Name] = sc.Value
		}
		href := l.Entry(r.Slug, e.Slug, "")
		if changed[e.Slug] {
			href = "#" + previewEntryAnchor(e.Slug)
		}
		er := entryRow{Pos: e.Rank, Rank: e.Rank, Slug: e.Slug, Name: e.Name.In(p.Lang), Category: catNames[e.Category],
			Href: href, Total: e.Total, TotalText: totalText(e.Total), Move: moveOf(p, moves, e.Slug)}
		for _, c := range rv.Criteria {
			sc, ok := scores[c.Slug]
			er.Scores = append(er.Scores, rowScore{Scored: ok, Score: clampScore(sc), Off: c.Weight == 0})
		}
		rv.Rows = append(rv.Rows, er)
	}
	// The preview's table is in rank order only: its headers link nowhere.
	rv.Columns = rankingColumns(p, l, r.Slug, viewQuery{}, rv.Criteria, false)
	for i := range rv.Columns {
		rv.Columns[i].Href = ""
	}
	rv.Pager = ui.NewPager(len(rv.Rows), page, perPage, func(n int) string {
		return self + "?page=" + strconv.Itoa(n)
	})
	if rv.Pager.Beyond() {
		return v, domain.ErrPreviewClosed
	}
	if rv.Pager.Total > 0 {
		rv.Rows = rv.Rows[rv.Pager.From-1 : rv.Pager.To]
	}
	v.Ranking = rv
	names := map[string]string{}
	for _, e := range pv.After.Entries {
		names[e.Slug] = e.Name.In(p.Lang)
	}
	for i, ne := range pv.NewEntries {
		if i >= previewChanges {
			v.MoreEntries = len(pv.NewEntries) - previewChanges
			break
		}
		v.NewEntries = append(v.NewEntries, ne.Name.In(p.Lang))
	}
	cited := map[string]bool{}
	for i, c := range pv.Changes {
		if i >= previewChanges {
			v.More = len(pv.Changes) - previewChanges
			break
		}
		if !slices.Contains(v.Anchors, previewEntryAnchor(c.Entry)) {
			v.Anchors = append(v.Anchors, previewEntryAnchor(c.Entry))
		}
		cr := changeRow{Entry: names[c.Entry], EntryHref: "#" + previewEntryAnchor(c.Entry), Proposal: c.Proposal}
		for _, id := range c.Evidence {
			anchor := evidenceAnchor(c.Proposal, id)
			cr.Evidence = append(cr.Evidence, evidenceLink{Href: "#" + anchor, Claim: id})
			cited[c.Proposal+"/"+id] = true
		}
		kind, key, _ := strings.Cut(c.Target, ":")
		cr.Target = key
		if kind == "score" {
			cr.IsScore = true
			for _, cn := range r.Criteria {
				if cn.Slug == key {
					cr.Target = cn.Name.In(p.Lang)
				}
			}
			cr.From, cr.To = scoreText(c.FromScore), scoreText(c.ToScore)
			v.Scores = append(v.Scores, cr)
			continue
		}
		labels := func(t []string) string { return joinTags(p, t) }
		if def, ok := r.Attribute(key); ok {
			cr.Target = def.Name.In(p.Lang)
			labels = func(t []string) string { return joinTags(p, tagLabels(p, def.Values, t)) }
		}
		cr.From, cr.To = orDash(labels(c.FromTags)), orDash(labels(c.ToTags))
		v.Attributes = append(v.Attributes, cr)
	}
	claims, err := previewEvidenceOf(ctx, eds, p, pv.Proposals, cited)
	if err != nil {
		return v, err
	}
	v.Evidence = claims
	claimOf := map[string]string{}
	for _, e := range claims {
		claimOf[e.Anchor] = e.Claim.Text
	}
	for _, rows := range [][]changeRow{v.Scores, v.Attributes} {
		for i := range rows {
			for j := range rows[i].Evidence {
				if c := claimOf[rows[i].Evidence[j].Href[1:]]; c != "" {
					rows[i].Evidence[j].Claim = c
				}
			}
		}
	}
	return v, nil
}

// previewEvidenceOf returns the evidence items cited (proposal/id), in
// the proposals' order; only the proposals cited are loaded.
func previewEvidenceOf(ctx context.Context, eds PreviewEditions, p ui.Page, proposals []string, cited map[string]bool) ([]previewEvidence, error) {
	citing := map[string]bool{}
	for k := range cited {
		id, _, _ := strings.Cut(k, "/")
		citing[id] = true
	}
	var out []previewEvidence
	for _, id := range proposals {
		if !citing[id] {
			continue
		}
		pr, err := eds.Proposal(ctx, id)
		if err != nil {
			return nil, err
		}
		for _, e := range pr.Evidence {
			if !cited[id+"/"+e.EvidenceID] {
				continue
			}
			src := e.SourceURL
			if src == "" {
				src = e.SourceName
			}
			out = append(out, previewEvidence{Anchor: evidenceAnchor(id, e.EvidenceID), Claim: ui.BilingualOf(p, e.Claim), Source: src, Excerpt: e.Excerpt})
		}
	}
	return out, nil
}

func previewEntryAnchor(entry string) string { return "changed-" + entry }

func joinTags(p ui.Page, t []string) string { return strings.Join(t, p.T("public.list_sep")) }
