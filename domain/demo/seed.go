package demo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/crossrank/crossrank/domain"
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
func Seed(ctx context.Context, h *domain.Handler, o Options) (Summary, error) {
	sd := &seeder{ctx: ctx, h: h, o: o, observed: o.Now.AddDate(0, 0, -40).Format(time.DateOnly)}
	for _, u := range DemoUsers {
		hash, err := o.HashPassword(o.Password)
		if err != nil {
			return Summary{}, err
		}
		sd.do(func() (domain.Result, error) {
			return h.RegisterUser(ctx, domain.System(), domain.RegisterUser{CommandID: "seed-user-" + u.Name,
				Username: u.Name, DisplayName: u.Name, PasswordHash: hash, Roles: u.Roles})
		}, domain.ErrUserExists)
	}
	ed, err := h.Edition(ctx, RankingSlug)
	if err != nil {
		return Summary{}, err
	}
	if ed.Number == 0 {
		ids := []string{definitionProposal}
		sd.definition()
		for _, p := range Platforms() {
			id := "demo-" + p.Slug + "-1"
			ids = append(ids, id)
			sd.proposal(p, id, func(s Score) bool { return heldBack[p.Slug].criterion != s.Criterion }, true, "validated")
		}
		sd.publish(ids)
	}
	for _, p := range Platforms() {
		hb, ok := heldBack[p.Slug]
		if !ok {
			continue
		}
		sd.proposal(p, "demo-"+p.Slug+"-2", func(s Score) bool { return s.Criterion == hb.criterion }, false, hb.stage)
	}
	if sd.err != nil {
		return Summary{}, sd.err
	}
	ed, err = h.Edition(ctx, RankingSlug)
	return Summary{Appended: sd.appended, Edition: ed.Number}, err
}

type seeder struct {
	ctx      context.Context
	h        *domain.Handler
	o        Options
	observed string
	appended bool
	err      error
}

// do runs one command unless an earlier one failed; the listed errors mean
// "already there" (for data created outside the seed).
func (sd *seeder) do(cmd func() (domain.Result, error), already ...error) {
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

// proposal opens a proposal for p with the scores keep selects (and, when
// attrs, its attributes), the evidence those cite, and takes it to stage:
// "draft", "review" (one approval) or "validated" (two approvals).
func (sd *seeder) proposal(p Platform, id string, keep func(Score) bool, attrs bool, stage string) {
	ctx, h := sd.ctx, sd.h
	open := domain.OpenProposal{CommandID: id + "-open", ID: id, Ranking: RankingSlug, Entry: p.Slug, DependsOn: definitionProposal,
		Title: p.Name.Zh + "：依据来源文章建立评分 / " + p.Name.En + ": scores from the source article"}
	if attrs {
		open.NewEntry = &domain.NewEntry{Name: p.Name, Category: p.Category, Description: p.Description}
	} else {
		open.Title = p.Name.Zh + "：补充评分 / " + p.Name.En + ": additional score"
	}
	sd.do(func() (domain.Result, error) { return h.OpenProposal(ctx, editor, open) })
	var scores []Score
	cited := map[string]bool{}
	for _, s := range p.Scores {
		if keep(s) {
			scores = append(scores, s)
			for _, e := range s.Evidence {
				cited[e] = true
			}
		}
	}
	if attrs {
		for _, keys := range p.AttributeEvidence {
			for _, e := range keys {
				cited[e] = true
			}
		}
	}
	evID := map[string]string{}
	n := 0
	for _, e := range p.Evidence {
		if !cited[e.Key] {
			continue
		}
		n++
		evID[e.Key] = fmt.Sprintf("e%d", n)
		sd.do(func() (domain.Result, error) {
			return h.AddEvidence(ctx, editor, domain.AddEvidence{CommandID: id + "-ev-" + e.Key, Proposal: id,
				Claim: e.Claim + " / " + e.ClaimEn, SourceName: SourceName, Section: e.Section,
				Excerpt: e.Excerpt, ObservedOn: sd.observed, ValidForDays: e.ValidForDays})
		})
	}
	ids := func(keys []string) []string {
		out := make([]string, len(keys))
		for i, k := range keys {
			out[i] = evID[k]
		}
		return out
	}
	for _, s := range scores {
		sd.do(func() (domain.Result, error) {
			return h.ProposeScore(ctx, editor, domain.ProposeScore{CommandID: id + "-score-" + s.Criterion, Proposal: id,
				Criterion: s.Criterion, To: s.Value, Rationale: s.Rationale + " / " + s.RationaleEn, Evidence: ids(s.Evidence)})
		})
	}
	if attrs {
		for _, key := range sortedKeys(p.Attributes) {
			sd.do(func() (domain.Result, error) {
				return h.ProposeAttribute(ctx, editor, domain.ProposeAttribute{CommandID: id + "-attr-" + key, Proposal: id,
					Attribute: key, To: p.Attributes[key], Rationale: "来源文章所述 / As stated in the source article",
					Evidence: ids(p.AttributeEvidence[key])})
			})
		}
	}
	sd.review(id, n, stage)
}

// definitionProposal is the new-ranking proposal that defines the demo
// ranking; edition 1 publishes it with the nine platforms.
const definitionProposal = "demo-ranking-definition"

// definition opens and cross-validates the methodology proposal that
// defines the demo ranking, the way any research team starts a ranking.
func (sd *seeder) definition() {
	ctx, h, id := sd.ctx, sd.h, definitionProposal
	sd.do(func() (domain.Result, error) {
		return h.OpenProposal(ctx, editor, domain.OpenProposal{CommandID: id + "-open", ID: id, Ranking: RankingSlug,
			Methodology: true, NewRanking: true,
			Title: "定义榜单：GPU 云算力租用平台 / Define the ranking: GPU cloud rental platforms"})
	})
	sd.do(func() (domain.Result, error) {
		return h.ProposeMethodology(ctx, editor, domain.ProposeMethodology{CommandID: id + "-methodology", Proposal: id,
			Methodology: Methodology(),
			Rationale:   "评分维度与场景依据来源文章的四种交付路径与选型问题 / Criteria and scenarios follow the source article's four delivery paths and buyer's questions"})
	})
	sd.review(id, 0, "validated")
}

// review submits proposal id and takes it to stage: "draft" (left as it
// is), "review" (one approval) or "validated" (two), each approval
// verifying its n evidence items.
func (sd *seeder) review(id string, n int, stage string) {
	ctx, h := sd.ctx, sd.h
	if stage == "draft" {
		return
	}
	sd.do(func() (domain.Result, error) {
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
		sd.do(func() (domain.Result, error) {
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
	sd.do(func() (domain.Result, error) { return h.Publish(ctx, publisher, c) })
}

func sortedKeys(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
