package rankfile

import (
	"context"
	"errors"
	"fmt"

	"github.com/crossrank/crossrank/domain"
)

// Options adjust an import; the zero value is what the command line uses.
type Options struct {
	// DefinitionID names the methodology proposal; "": derived from the
	// ranking's slug and a hash of the methodology.
	DefinitionID string
	// ProposalID names an entry's proposal; nil: derived from the
	// ranking's slug, the entry's slug and a hash of the entry.
	ProposalID func(Entry) string
	// Rationale is the methodology proposal's; "": it says it was imported.
	Rationale string
	// Draft leaves every proposal a draft instead of submitting it.
	Draft bool
}

// Report says what an import opened.
type Report struct {
	Definition string   // the methodology proposal ("": the methodology was the ranking's already)
	Proposals  []string // one per entry, in the file's order
	Appended   bool     // false: everything was already there
}

// Import opens, as actor, the proposals a ranking file asks for and submits
// them for review: a methodology proposal when the ranking is new or its
// methodology differs from the file's, and one proposal per entry with its
// evidence, scores and attributes. Nothing is published. Every id is
// derived from the file's content, so importing the same file again opens
// nothing new. The whole file is checked before anything is stored.
func Import(ctx context.Context, h *domain.Handler, f *File, actor domain.Actor) (Report, error) {
	return ImportWith(ctx, h, f, actor, Options{})
}

// ImportWith is Import with options.
func ImportWith(ctx context.Context, h *domain.Handler, f *File, actor domain.Actor, o Options) (Report, error) {
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
	return pl.run(ctx, h, actor)
}

// build makes the plan and checks it whole against the store's states.
func build(ctx context.Context, h *domain.Handler, f *File, actor domain.Actor, o Options) (*plan, error) {
	r, err := h.Ranking(ctx, f.Slug)
	isNew := errors.Is(err, domain.ErrRankingMissing)
	if err != nil && !isNew {
		return nil, err
	}
	ed, err := h.Edition(ctx, f.Slug)
	if err != nil {
		return nil, err
	}
	pl := &plan{draft: o.Draft}
	against := r
	if isNew {
		r, against = &domain.Ranking{}, domain.ProposedRanking(f.Slug, f.Methodology)
	}
	if isNew || len(domain.DiffMethodology(r.Methodology(), f.Methodology, false)) > 0 {
		pl.definition = definition(f, isNew, o)
		stored, err := exists(ctx, h, pl.definition.open.ID)
		if err != nil {
			return nil, err
		}
		if !stored {
			if err := pl.definition.check(r, ed, actor); err != nil {
				return nil, err
			}
		}
	}
	seen := map[string]bool{}
	for i, e := range f.Entries {
		ep := entryPlan{path: fmt.Sprintf("entries[%d]", i), submit: !o.Draft}
		if seen[e.Slug] {
			return nil, domain.Invalid(ep.path+".slug", "field.repeats", domain.Args{"value": e.Slug})
		}
		seen[e.Slug] = true
		id := contentID(e.Slug, f.Slug, e)
		if o.ProposalID != nil {
			id = o.ProposalID(e)
		}
		ep.open = domain.OpenProposal{CommandID: id + "-open", ID: id, Ranking: f.Slug, Entry: e.Slug, Title: title(e.Name)}
		if isNew {
			ep.open.DependsOn = pl.definition.open.ID
		}
		entry, err := h.Entry(ctx, f.Slug, e.Slug)
		switch {
		case errors.Is(err, domain.ErrEntryMissing):
			entry = nil
			if ed.Entry(e.Slug) == nil {
				ep.open.NewEntry = &domain.NewEntry{Name: e.Name, Category: e.Category, Website: e.Website, Description: e.Description}
			}
		case err != nil:
			return nil, err
		}
		if err := entryCommands(&ep, e); err != nil {
			return nil, err
		}
		if ep.exists, err = exists(ctx, h, id); err != nil {
			return nil, err
		}
		if !ep.exists {
			if err := ep.check(against, entry, ed, actor); err != nil {
				return nil, err
			}
		}
		pl.entries = append(pl.entries, ep)
	}
	return pl, nil
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
	if rationale == "" {
		rationale = "由榜单文件导入 / Imported from a ranking file"
	}
	return &definitionPlan{
		open: domain.OpenProposal{CommandID: id + "-open", ID: id, Ranking: f.Slug, Methodology: true, NewRanking: isNew,
			Title: titleText},
		propose: domain.ProposeMethodology{CommandID: id + "-methodology", Proposal: id, Methodology: m, Rationale: rationale},
	}
}

// exists reports whether proposal id is stored.
func exists(ctx context.Context, h *domain.Handler, id string) (bool, error) {
	_, err := h.Proposal(ctx, id)
	if errors.Is(err, domain.ErrProposalMissing) {
		return false, nil
	}
	return err == nil, err
}

// run carries out a checked plan. A command already carried out (same
// command id) replays and appends nothing.
func (pl *plan) run(ctx context.Context, h *domain.Handler, a domain.Actor) (Report, error) {
	var rep Report
	var err error
	do := func(path string, cmd func() (domain.Result, error)) {
		if err != nil {
			return
		}
		var res domain.Result
		if res, err = cmd(); err != nil {
			err = at(path, err)
		} else if !res.Replayed {
			rep.Appended = true
		}
	}
	submit := func(path, id string) {
		if !pl.draft {
			do(path, func() (domain.Result, error) {
				return h.Submit(ctx, a, domain.Submit{CommandID: id + "-submit", Proposal: id})
			})
		}
	}
	if d := pl.definition; d != nil {
		rep.Definition = d.open.ID
		do("methodology", func() (domain.Result, error) { return h.OpenProposal(ctx, a, d.open) })
		do("methodology", func() (domain.Result, error) { return h.ProposeMethodology(ctx, a, d.propose) })
		submit("methodology", d.open.ID)
	}
	for _, e := range pl.entries {
		rep.Proposals = append(rep.Proposals, e.open.ID)
		if !e.exists {
			// Only opening cannot replay by its command id once the entry
			// exists: its first event went to the entry it created. An
			// existing proposal with this content-derived id was opened by
			// an earlier import of the same entry.
			do(e.path, func() (domain.Result, error) { return h.OpenProposal(ctx, a, e.open) })
		}
		for _, c := range e.evidence {
			do(e.path, func() (domain.Result, error) { return h.AddEvidence(ctx, a, c) })
		}
		for _, c := range e.scores {
			do(e.path, func() (domain.Result, error) { return h.ProposeScore(ctx, a, c) })
		}
		for _, c := range e.attrs {
			do(e.path, func() (domain.Result, error) { return h.ProposeAttribute(ctx, a, c) })
		}
		submit(e.path, e.open.ID)
	}
	return rep, err
}
