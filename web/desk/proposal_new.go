package desk

import (
	"cmp"
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/ui"
)

// newProposalView is the model of the page that opens a proposal: for an
// entry of the chosen ranking, or for a new entry. Without script the
// ranking is chosen first (a GET form), then the entry.
type newProposalView struct {
	ui.Page
	Rankings     []selectOption // every ranking, to choose from
	Ranking      string         // the chosen ranking, "" before the choice
	RankingTitle string
	Entries      []selectOption // its published entries (and the one asked for)
	Categories   []selectOption
	// Reverify pre-fills the form for an existing entry to re-verify a
	// drifted source (?reverify=&evidence=); nil for none.
	Reverify *reverifyPrefill

	failed string // "existing" or "new": the form whose submit failed
	state  ui.FormState
}

// selectOption is one option of a select.
type selectOption struct {
	Value    string
	Label    string
	Selected bool
}

// Form returns the state of the named form after a failed submit.
func (v newProposalView) Form(name string) ui.FormState {
	if v.failed == name {
		return v.state
	}
	return ui.FormState{}
}

// ExistingVal returns what a field of the form for an existing entry
// shows: what a failed submit sent, else the re-verification's words.
func (v newProposalView) ExistingVal(field string) string {
	if v.failed == "existing" || v.Reverify == nil {
		return v.Form("existing").Value(field)
	}
	return map[string]string{"title": v.Reverify.Title, "summary": v.Reverify.Summary}[field]
}

// serveNewProposal shows the form; ?ranking= and ?entry= preselect (the desk
// entry page links here with both), and ?reverify= with ?evidence= name a
// drifted source to re-verify (the dashboard's queue links here so).
func (d *Desk) serveNewProposal(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	v, err := d.buildNewProposal(r, q.Get("ranking"), q.Get("entry"), "", ui.FormState{})
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	if ref, ok := reverifyRefOf(q); ok && v.Ranking != "" {
		s, err := d.reverifySourceOf(r.Context(), v.Ranking, q.Get("entry"), ref)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		if s != nil {
			def, _, err := d.read.Definition(r.Context(), v.Ranking)
			if err != nil {
				ui.Fail(w, r, err)
				return
			}
			v.Reverify = prefillOf(v.Page, rankingLabels{def}, s)
		}
	}
	ui.Render(w, r, http.StatusOK, newProposalPage(v))
}

// NewProposalChoice is what the new-proposal page preselects, and the form
// whose submit failed.
type NewProposalChoice struct {
	Ranking string
	Entry   string
	Failed  string // "existing" or "new"; "" for none
}

// RenderNewProposal shows the new-proposal page with status; st is the
// state of the failed form.
func (d *Desk) RenderNewProposal(w http.ResponseWriter, r *http.Request, status int, c NewProposalChoice, st ui.FormState) {
	v, err := d.buildNewProposal(r, c.Ranking, c.Entry, c.Failed, st)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	if ref, ok := reverifyRefOf(r.PostForm); ok && c.Failed == "existing" {
		v.Reverify = &reverifyPrefill{Ref: ref} // the form shows what was sent; keep where it started
	}
	ui.Render(w, r, status, newProposalPage(v))
}

func (d *Desk) buildNewProposal(r *http.Request, ranking, entry, failed string, st ui.FormState) (newProposalView, error) {
	ctx := r.Context()
	v := newProposalView{Page: ui.PageOf(r, "desk.new.title", "dashboard"), failed: failed, state: st}
	list, err := d.read.Rankings(ctx)
	if err != nil {
		return v, err
	}
	if ranking == "" && len(list) == 1 {
		ranking = list[0].Slug
	}
	for _, rk := range list {
		v.Rankings = append(v.Rankings, selectOption{Value: rk.Slug, Label: cmp.Or(rk.Title.In(v.Lang), rk.Slug), Selected: rk.Slug == ranking})
		if rk.Slug == ranking {
			v.Ranking, v.RankingTitle = rk.Slug, cmp.Or(rk.Title.In(v.Lang), rk.Slug)
		}
	}
	if v.Ranking == "" {
		return v, nil
	}
	def, _, err := d.read.Definition(ctx, v.Ranking)
	if err != nil {
		return v, err
	}
	for _, c := range def.Categories {
		v.Categories = append(v.Categories, selectOption{Value: c.Slug, Label: cmp.Or(c.Name.In(v.Lang), c.Slug),
			Selected: failed == "new" && st.Value("category") == c.Slug})
	}
	standing, err := d.read.Standing(ctx, v.Ranking, "", nil)
	if err != nil {
		return v, err
	}
	found := false
	for _, row := range standing.Rows {
		v.Entries = append(v.Entries, selectOption{Value: row.Slug, Label: entryLabel(row.Name.In(v.Lang), row.Slug), Selected: row.Slug == entry})
		found = found || row.Slug == entry
	}
	if !found && entry != "" && failed != "new" {
		// An entry registered by an open proposal but not published yet.
		if e := d.registeredEntry(ctx, v.Ranking, entry); e != nil {
			v.Entries = append(v.Entries, selectOption{Value: e.Slug, Label: entryLabel(e.Name.In(v.Lang), e.Slug), Selected: true})
		}
	}
	return v, nil
}

// registeredEntry returns an entry the event store knows, or nil.
func (d *Desk) registeredEntry(ctx context.Context, ranking, entry string) *events.EntryCreated {
	if domain.CheckSlug("entry", entry) != nil {
		return nil
	}
	e, err := d.cmd.Entry(ctx, ranking, entry)
	if err != nil {
		return nil
	}
	return &e.EntryCreated
}
