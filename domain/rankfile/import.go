package rankfile

import (
	"context"
	"errors"
	"fmt"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
)

// Options adjust an import; the zero value is what the command line uses.
type Options struct {
	// DefinitionID names the methodology proposal; "": derived from the
	// ranking's slug and a hash of the methodology.
	DefinitionID string
	// ProposalID names an entry's proposal; nil: derived from the
	// ranking's slug, the entry's slug and a hash of the entry.
	ProposalID func(Entry) string
	// Rationale is the methodology proposal's; empty: it says it was
	// imported.
	Rationale events.Text
	// Draft leaves every proposal a draft instead of submitting it.
	Draft bool
	// Progress, when set, hears how far the check and the opening are:
	// done of total entries. It is called from the importing goroutine.
	Progress func(s Stage, done, total int)
}

// Stage names what an import is doing when it reports progress.
type Stage string

const (
	StageCheck Stage = "check" // checking every entry against the domain
	StageOpen  Stage = "open"  // opening the proposals
)

// progressEvery is how many entries pass between two progress reports.
const progressEvery = 50

func (o Options) progress(s Stage, done, total int) {
	if o.Progress != nil && (done%progressEvery == 0 || done == total) {
		o.Progress(s, done, total)
	}
}

// Report says what an import opened.
type Report struct {
	Definition string   // the methodology proposal ("": the methodology was the ranking's already)
	Proposals  []string // one per entry, in the file's order
	Appended   bool     // false: everything was already there
	Summary    Summary  // what the import found to do, as DryRun reports it
}

// Import opens, as actor, the proposals a ranking file asks for and submits
// them for review: a methodology proposal when the ranking is new or its
// methodology differs from the file's, and one proposal per entry with its
// evidence, scores and attributes. Nothing is published. Every id is
// derived from the file's content, so importing the same file again opens
// nothing new. The whole file is checked before anything is stored.
func Import(ctx context.Context, h *handler.Handler, f *File, actor domain.Actor) (Report, error) {
	return ImportWith(ctx, h, f, actor, Options{})
}

// ImportWith is Import with options.
func ImportWith(ctx context.Context, h *handler.Handler, f *File, actor domain.Actor, o Options) (Report, error) {
	if !actor.Has(domain.RoleEditor) {
		return Report{}, fmt.Errorf("import as %q: %w", actor.Name, domain.ErrRoleRequired)
	}
	if err := domain.CheckSlug("slug", f.Slug); err != nil {
		return Report{}, err
	}
	pl, err := build(ctx, h, f, actor, o)
	if err != nil {
		return Report{}, err
	}
	rep, err := pl.run(ctx, h, actor, o)
	rep.Summary.Ranking, rep.Summary.Entries = f.Slug, len(f.Entries)
	return rep, err
}

// build makes the plan and checks it whole against the store's states.
// A file's mistakes come back together as Problems (at most maxProblems),
// so one dry run names them all; any other error stops it.
func build(ctx context.Context, h *handler.Handler, f *File, actor domain.Actor, o Options) (*plan, error) {
	r, err := h.Ranking(ctx, f.Slug)
	isNew := errors.Is(err, domain.ErrRankingMissing)
	if err != nil && !isNew {
		return nil, err
	}
	ed, err := h.Edition(ctx, f.Slug)
	if err != nil {
		return nil, err
	}
	pl := &plan{draft: o.Draft, newRanking: isNew}
	var problems Problems
	against := r
	if isNew {
		r, against = &domain.Ranking{}, domain.ProposedRanking(f.Slug, f.Methodology)
	}
	if isNew || len(domain.DiffMethodology(r.Methodology(), f.Methodology, false)) > 0 {
		pl.definition = definition(f, isNew, o)
		if pl.definition.exists, err = exists(ctx, h, pl.definition.open.ID); err != nil {
			return nil, err
		}
		if !pl.definition.exists {
			if err := pl.definition.check(r, ed, actor); err != nil {
				problems = problems.add(err)
			}
		}
	}
	seen := map[string]bool{}
	for i, e := range f.Entries {
		o.progress(StageCheck, i, len(f.Entries))
		if len(problems) >= maxProblems {
			break
		}
		path := fmt.Sprintf("entries[%d]", i)
		if seen[e.Slug] {
			problems = problems.add(domain.Invalid(path+".slug", "field.repeats", domain.Args{"value": e.Slug}))
			continue
		}
		seen[e.Slug] = true
		ep, err := entryOf(ctx, h, f.Slug, e, ed, o)
		if err != nil {
			return nil, err
		}
		ep.path = path
		if isNew {
			ep.open.DependsOn = pl.definition.open.ID
		}
		if ep.unchanged {
			pl.unchanged = append(pl.unchanged, ep)
			continue
		}
		if err := entryCommands(&ep, ep.entry); err != nil {
			problems = problems.add(err)
			continue
		}
		if !ep.exists {
			if err := ep.check(against, ep.stored, ed, actor); err != nil {
				problems = problems.add(err)
				continue
			}
		}
		pl.entries = append(pl.entries, ep)
	}
	o.progress(StageCheck, len(f.Entries), len(f.Entries))
	if len(problems) > 0 {
		return pl, problems
	}
	return pl, nil
}

// entryOf starts e's plan: its proposal's id, whether that proposal is
// stored, the entry as it is, and the values e holds that are already
// published without new evidence (unchanged: nothing to propose for them).
func entryOf(ctx context.Context, h *handler.Handler, slug string, e Entry, ed *domain.Edition, o Options) (entryPlan, error) {
	ep := entryPlan{submit: !o.Draft}
	stored, err := h.Entry(ctx, slug, e.Slug)
	switch {
	case errors.Is(err, domain.ErrEntryMissing):
		stored = nil
	case err != nil:
		return ep, err
	}
	ep.stored = stored
	pub := ed.Entry(e.Slug)
	ep.entry, ep.same = unchangedScores(e, pub)
	ep.unchanged = pub != nil && len(ep.entry.Scores) == 0 && len(ep.entry.Attributes) == 0 && len(ep.entry.Evidence) == 0
	id := contentID(e.Slug, slug, ep.entry)
	if o.ProposalID != nil {
		id = o.ProposalID(ep.entry)
	}
	ep.open = domain.OpenProposal{CommandID: id + "-open", ID: id, Ranking: slug, Entry: e.Slug, Title: title(e.Name)}
	if stored == nil && pub == nil {
		ep.open.NewEntry = &domain.NewEntry{Name: e.Name, Category: e.Category, Website: e.Website, Description: e.Description}
	}
	if !ep.unchanged {
		if ep.exists, err = exists(ctx, h, id); err != nil {
			return ep, err
		}
	}
	for _, s := range ep.entry.Scores {
		var from *int
		if pub != nil {
			if v, ok := pub.Scores[s.Criterion]; ok {
				from = &v
			}
		}
		ep.scoreFrom = append(ep.scoreFrom, from)
	}
	return ep, nil
}

// unchangedScores returns e without the scores that repeat a published
// value and cite no evidence (a ranking's own CSV read back holds only
// such rows), and how many it left out. Such a score proposes nothing; a
// score citing evidence is kept, since the evidence is news.
func unchangedScores(e Entry, pub *domain.PublishedEntry) (Entry, int) {
	if pub == nil {
		return e, 0
	}
	out, same := e, 0
	out.Scores = nil
	for _, s := range e.Scores {
		if v, ok := pub.Scores[s.Criterion]; ok && v == s.Value && len(s.Evidence) == 0 {
			same++
			continue
		}
		out.Scores = append(out.Scores, s)
	}
	return out, same
}

// definition builds the methodology proposal for f.
func definition(f *File, isNew bool, o Options) *definitionPlan {
	m := f.Methodology
	id, titleText := o.DefinitionID, "定义榜单："+m.Title.Zh+" / Define the ranking: "+m.Title.En
	if id == "" {
		id = contentID(f.Slug+"-methodology", f.Slug, m)
	}
	if !isNew {
		titleText = "修改方法论：" + m.Title.Zh + " / Change the methodology: " + m.Title.En
	}
	if r := []rune(titleText); len(r) > domain.MaxTitle {
		titleText = string(r[:domain.MaxTitle])
	}
	rationale := o.Rationale
	if rationale == (events.Text{}) {
		rationale = events.Text{Zh: "由榜单文件导入", En: "Imported from a ranking file"}
	}
	return &definitionPlan{
		open: domain.OpenProposal{CommandID: id + "-open", ID: id, Ranking: f.Slug, Methodology: true, NewRanking: isNew,
			Title: titleText},
		propose: domain.ProposeMethodology{CommandID: id + "-methodology", Proposal: id, Methodology: m, Rationale: rationale},
	}
}

// exists reports whether proposal id is stored.
func exists(ctx context.Context, h *handler.Handler, id string) (bool, error) {
	_, err := h.Proposal(ctx, id)
	if errors.Is(err, domain.ErrProposalMissing) {
		return false, nil
	}
	return err == nil, err
}

// run carries out a checked plan. A command already carried out (same
// command id) replays and appends nothing.
func (pl *plan) run(ctx context.Context, h *handler.Handler, a domain.Actor, o Options) (Report, error) {
	rep := Report{Summary: pl.summary()}
	var err error
	do := func(path string, cmd func() (handler.Result, error)) {
		if err != nil {
			return
		}
		var res handler.Result
		if res, err = cmd(); err != nil {
			err = at(path, err)
		} else if !res.Replayed {
			rep.Appended = true
		}
	}
	submit := func(path, id string) {
		if !pl.draft {
			do(path, func() (handler.Result, error) {
				return h.Submit(ctx, a, domain.Submit{CommandID: id + "-submit", Proposal: id})
			})
		}
	}
	if d := pl.definition; d != nil {
		rep.Definition = d.open.ID
		do("methodology", func() (handler.Result, error) { return h.OpenProposal(ctx, a, d.open) })
		do("methodology", func() (handler.Result, error) { return h.ProposeMethodology(ctx, a, d.propose) })
		submit("methodology", d.open.ID)
	}
	for i, e := range pl.entries {
		o.progress(StageOpen, i, len(pl.entries))
		rep.Proposals = append(rep.Proposals, e.open.ID)
		// An entry's commands are stored together (one atomic append), or
		// none of them.
		steps := handler.ProposalSteps{Proposal: e.open.ID, Evidence: e.evidence, Scores: e.scores, Attributes: e.attrs}
		if !e.exists {
			// Only opening cannot replay by its command id once the entry
			// exists: its first event went to the entry it created. An
			// existing proposal with this content-derived id was opened by
			// an earlier import of the same entry.
			steps.Open = &e.open
		}
		if !pl.draft {
			steps.Submit = &domain.Submit{CommandID: e.open.ID + "-submit", Proposal: e.open.ID}
		}
		do(e.path, func() (handler.Result, error) { return h.RunProposalSteps(ctx, a, steps) })
	}
	if err == nil {
		o.progress(StageOpen, len(pl.entries), len(pl.entries))
	}
	return rep, err
}
