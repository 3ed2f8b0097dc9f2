package demo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/events"
)

// DemoUsers are the desk's demo accounts and their roles. The admin
// administers users and nothing else: no demo account both manages accounts
// and takes part in review.
var DemoUsers = []struct {
	Name  string
	Roles []string
}{
	{"editor", []string{domain.RoleEditor}},
	{"reviewer1", []string{domain.RoleReviewer}},
	{"reviewer2", []string{domain.RoleReviewer}},
	{"publisher", []string{domain.RolePublisher}},
	{"admin", []string{domain.RoleAdmin}},
}

// Options configure Seed.
type Options struct {
	Password       string                                          // for every demo user
	HashPassword   func(string) (string, error)                    // argon2id, from web
	AuditHead      func(context.Context) (string, uint64, error)   // optional: the read model's chain head
	CrossValidated func(context.Context, string) ([]string, error) // optional: candidates returned to review
	Now            time.Time
}

// Summary says what Seed did.
type Summary struct {
	Appended bool // false: everything was already there
	Edition  int
}

// heldBack are scores kept out of edition 1 so that every desk queue has
// something in it: one proposal waits in review, one is cross-validated and
// unpublished, one is the editor's draft.
var heldBack = map[string]struct {
	criterion string
	stage     string
}{
	"huawei-cloud": {CritOnboarding, "review"},
	"qingjiao":     {CritOnboarding, "validated"},
	"matpool":      {CritCluster, "draft"},
}

// Seed loads the demo ranking through the same commands the browser sends:
// users, the ranking, one proposal per platform with its evidence, scores and
// attributes, submit, two cross-validating votes, edition 1, then the
// held-back proposals. Every command carries a fixed id, so running Seed
// again appends nothing.
func Seed(ctx context.Context, h *handler.Handler, o Options) (Summary, error) {
	sd := &seeder{ctx: ctx, h: h, o: o}
	for _, u := range DemoUsers {
		hash, err := o.HashPassword(o.Password)
		if err != nil {
			return Summary{}, err
		}
		sd.do(func() (handler.Result, error) {
			return h.RegisterUser(ctx, domain.System(), domain.RegisterUser{CommandID: "seed-user-" + u.Name,
				Username: u.Name, DisplayName: u.Name, PasswordHash: hash, Roles: u.Roles})
		}, domain.ErrUserExists)
	}
	ed, err := h.Edition(ctx, RankingSlug)
	if err != nil {
		return Summary{}, err
	}
	f := File()
	observed := o.Now.AddDate(0, 0, -40).Format(time.DateOnly)
	for i := range f.Entries {
		for j := range f.Entries[i].Evidence {
			// The demo's evidence is always 40 days old, so its freshness
			// badges show what an ageing source looks like.
			f.Entries[i].Evidence[j].ObservedOn = observed
		}
	}
	if ed.Number == 0 {
		first := *f
		first.Entries = nil
		for _, e := range f.Entries {
			first.Entries = append(first.Entries, part(e, func(s rankfile.Score) bool { return heldBack[e.Slug].criterion != s.Criterion }, true))
		}
		ids := sd.importFile(&first, "1", false)
		sd.review(definitionProposal, 0, "validated")
		for _, e := range first.Entries {
			sd.review("demo-"+e.Slug+"-1", len(e.Evidence), "validated")
		}
		sd.publish(append([]string{definitionProposal}, ids...))
	}
	for _, draft := range []bool{false, true} {
		held := *f
		held.Entries = nil
		for _, e := range f.Entries {
			if hb, ok := heldBack[e.Slug]; ok && (hb.stage == "draft") == draft {
				held.Entries = append(held.Entries, part(e, func(s rankfile.Score) bool { return s.Criterion == hb.criterion }, false))
			}
		}
		sd.importFile(&held, "2", draft)
		for _, e := range held.Entries {
			sd.review("demo-"+e.Slug+"-2", len(e.Evidence), heldBack[e.Slug].stage)
		}
	}
	if sd.err != nil {
		return Summary{}, sd.err
	}
	ed, err = h.Edition(ctx, RankingSlug)
	return Summary{Appended: sd.appended, Edition: ed.Number}, err
}

type seeder struct {
	ctx      context.Context
	h        *handler.Handler
	o        Options
	appended bool
	err      error
}

// do runs one command unless an earlier one failed; the listed errors mean
// "already there" (for data created outside the seed).
func (sd *seeder) do(cmd func() (handler.Result, error), already ...error) {
	if sd.err != nil {
		return
	}
	res, err := cmd()
	for _, a := range already {
		if errors.Is(err, a) {
			return
		}
	}
	if err != nil {
		sd.err = fmt.Errorf("demo seed: %w", err)
		return
	}
	if !res.Replayed {
		sd.appended = true
	}
}

// The demo users' own commands are run by the command line that seeds the
// demo, and their events say so (ce-authvia cli): nobody signed in.
var seededBy = events.Via{Method: events.ViaCLI}

var editor = domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}, Via: seededBy}

func reviewer(n string) domain.Actor {
	return domain.Actor{Name: n, Roles: []string{domain.RoleReviewer}, Via: seededBy}
}

// part is entry e with the scores keep selects (and, when attrs, its
// attributes) and only the evidence those cite.
func part(e rankfile.Entry, keep func(rankfile.Score) bool, attrs bool) rankfile.Entry {
	cited := map[string]bool{}
	out := e
	out.Scores, out.Attributes, out.Evidence = nil, nil, nil
	for _, s := range e.Scores {
		if keep(s) {
			out.Scores = append(out.Scores, s)
			for _, k := range s.Evidence {
				cited[k] = true
			}
		}
	}
	if attrs {
		out.Attributes = e.Attributes
		for _, a := range e.Attributes {
			for _, k := range a.Evidence {
				cited[k] = true
			}
		}
	}
	for _, ev := range e.Evidence {
		if cited[ev.Key] {
			out.Evidence = append(out.Evidence, ev)
		}
	}
	return out
}

// definitionProposal is the new-ranking proposal that defines the demo
// ranking; edition 1 publishes it with the nine platforms.
const definitionProposal = "demo-ranking-definition"

// importFile imports f as the editor through the ranking-file path, with
// the demo's fixed proposal ids ("demo-<entry>-<round>"), and returns the
// entry proposals' ids.
func (sd *seeder) importFile(f *rankfile.File, round string, draft bool) []string {
	if sd.err != nil || len(f.Entries) == 0 {
		return nil
	}
	rep, err := rankfile.ImportWith(sd.ctx, sd.h, f, editor, rankfile.Options{
		DefinitionID: definitionProposal,
		ProposalID:   func(e rankfile.Entry) string { return "demo-" + e.Slug + "-" + round },
		Rationale:    events.Text{Zh: "评分维度与场景依据来源文章的四种交付路径与选型问题", En: "Criteria and scenarios follow the source article's four delivery paths and buyer's questions"},
		Draft:        draft,
	})
	if err != nil {
		sd.err = fmt.Errorf("demo seed: %w", err)
		return nil
	}
	sd.appended = sd.appended || rep.Appended
	return rep.Proposals
}

// review submits proposal id and takes it to stage: "draft" (left as it
// is), "review" (one approval) or "validated" (two), each approval
// verifying its n evidence items.
func (sd *seeder) review(id string, n int, stage string) {
	ctx, h := sd.ctx, sd.h
	if stage == "draft" {
		return
	}
	sd.do(func() (handler.Result, error) {
		return h.Submit(ctx, editor, domain.Submit{CommandID: id + "-submit", Proposal: id})
	})
	all := make([]string, 0, n)
	for i := 1; i <= n; i++ {
		all = append(all, fmt.Sprintf("e%d", i))
	}
	voters := []string{"reviewer1", "reviewer2"}
	if stage == "review" {
		voters = voters[:1]
	}
	for _, v := range voters {
		sd.do(func() (handler.Result, error) {
			return h.CastVote(ctx, reviewer(v), domain.CastVote{CommandID: id + "-vote-" + v, Proposal: id, Revision: 1,
				Verdict: events.Approve, VerifiedEvidence: all, Comment: "已核对来源文章原文 / Checked against the source article"})
		})
	}
}

func (sd *seeder) publish(ids []string) {
	if sd.err != nil {
		return
	}
	ctx, h := sd.ctx, sd.h
	pv, _, err := h.PreviewEdition(ctx, RankingSlug, ids)
	if err != nil {
		sd.err = fmt.Errorf("demo seed: preview: %w", err)
		return
	}
	c := domain.PublishEdition{CommandID: "seed-edition-1", Ranking: RankingSlug, Proposals: ids, PreviewHash: pv.Hash,
		Note: "第一期：九个平台，评分为示例性编辑判断 / Edition 1: nine platforms; scores are illustrative editorial judgments"}
	if sd.o.AuditHead != nil {
		if c.AuditHead, c.AuditSeq, err = sd.o.AuditHead(ctx); err != nil {
			sd.err = err
			return
		}
	}
	if sd.o.CrossValidated != nil {
		if c.Candidates, err = sd.o.CrossValidated(ctx, RankingSlug); err != nil {
			sd.err = err
			return
		}
	}
	publisher := domain.Actor{Name: "publisher", Roles: []string{domain.RolePublisher}, Via: seededBy}
	sd.do(func() (handler.Result, error) { return h.Publish(ctx, publisher, c) })
}
