package domain_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// The aggregate tests are given-events / command / want-events tables: the
// given events are built with events.New, round-tripped through the catalog
// (as a reload from the store would) and evolved into a world of states; the
// command is a call of a Decide function; the want is the []domain.Change it
// must return, or the sentinel error it must wrap.

var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

const rk = "gpu" // the ranking every table works on

func ptr[T any](v T) *T { return &v }

// actors holds every user the tables act as, by name.
var actors = map[string]domain.Actor{
	"alice":  {Name: "alice", Roles: []string{domain.RoleEditor}},                       // the usual author
	"bob":    {Name: "bob", Roles: []string{domain.RoleEditor}},                         // another editor
	"eve":    {Name: "eve", Roles: []string{domain.RoleEditor, domain.RoleReviewer}},    // author who also reviews
	"rex":    {Name: "rex", Roles: []string{domain.RoleEditor, domain.RoleReviewer}},    // reviewer who revises
	"rita":   {Name: "rita", Roles: []string{domain.RoleReviewer}},                      // reviewers
	"ravi":   {Name: "ravi", Roles: []string{domain.RoleReviewer}},                      //
	"rosa":   {Name: "rosa", Roles: []string{domain.RoleReviewer}},                      //
	"pat":    {Name: "pat", Roles: []string{domain.RolePublisher}},                      // the publisher
	"paula":  {Name: "paula", Roles: []string{domain.RoleEditor, domain.RolePublisher}}, // publisher who also writes
	"ada":    {Name: "ada", Roles: []string{domain.RoleAdmin}},                          // administers users, nothing else
	"nobody": {Name: "nobody"},
}

func actor(name string) domain.Actor {
	a, ok := actors[name]
	if !ok {
		panic("unknown test actor " + name)
	}
	return a
}

// given is one event of a table's history.
type given struct {
	actor string
	agg   events.Aggregate
	data  any
}

// world is the state of every aggregate the tables touch.
type world struct {
	t       testing.TB
	seq     uint64
	ranking *domain.Ranking
	edition *domain.Edition
	entries map[string]*domain.Entry    // by entry slug
	props   map[string]*domain.Proposal // by proposal id
}

func newWorld(t testing.TB, history ...[]given) *world {
	t.Helper()
	w := &world{t: t, ranking: &domain.Ranking{},
		edition: &domain.Edition{Ranking: rk, Entries: map[string]*domain.PublishedEntry{}},
		entries: map[string]*domain.Entry{}, props: map[string]*domain.Proposal{}}
	for _, h := range history {
		for _, g := range h {
			w.apply(g.actor, g.agg, g.data)
		}
	}
	return w
}

// apply stores one event: it gets the next sequence, goes through the JSON
// of the catalog and is evolved into its aggregate's state.
func (w *world) apply(who string, agg events.Aggregate, data any) {
	w.t.Helper()
	w.seq++
	e, err := events.New(fmt.Sprintf("ev-%d", w.seq), t0.Add(time.Duration(w.seq)*time.Minute), who, agg.ID, data)
	if err != nil {
		w.t.Fatalf("events.New(%T): %v", data, err)
	}
	if e.Kind() != agg.Kind {
		w.t.Fatalf("%s event given for %v", e.Type, agg)
	}
	_, _, decoded, err := events.DecodeData(e.Type, e.Raw)
	if err != nil {
		w.t.Fatalf("decode %s: %v", e.Type, err)
	}
	e.Data, e.Sequence = decoded, w.seq
	switch agg.Kind {
	case events.KindRanking:
		w.ranking.Evolve(e)
	case events.KindEdition:
		w.edition.Evolve(e)
	case events.KindEntry:
		d, ok := decoded.(*events.EntryCreated)
		if !ok {
			w.t.Fatalf("unexpected entry event %s", e.Type)
		}
		en := w.entries[d.Slug]
		if en == nil {
			en = &domain.Entry{}
			w.entries[d.Slug] = en
		}
		en.Evolve(e)
	case events.KindProposal:
		p := w.props[agg.ID]
		if p == nil {
			p = &domain.Proposal{}
			w.props[agg.ID] = p
		}
		p.Evolve(e)
	default:
		w.t.Fatalf("no state for %v", agg)
	}
}

// applyChanges stores what a decision returned, as the handler would.
func (w *world) applyChanges(who string, cs []domain.Change) {
	w.t.Helper()
	for _, c := range cs {
		w.apply(who, c.Aggregate, c.Data)
	}
}

// prop returns a proposal's state; a proposal never opened is the zero value.
func (w *world) prop(id string) *domain.Proposal {
	if p := w.props[id]; p != nil {
		return p
	}
	return &domain.Proposal{}
}

func (w *world) entry(slug string) *domain.Entry {
	if e := w.entries[slug]; e != nil {
		return e
	}
	return &domain.Entry{}
}

// decideTest is one row: history, command, and the events or the error.
type decideTest struct {
	name  string
	given []given
	when  func(w *world) ([]domain.Change, error)
	want  []domain.Change
	err   error // a sentinel the error must wrap (errors.Is)
}

func runDecide(t *testing.T, tests []decideTest) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, tt.given)
			got, err := tt.when(w)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("error = %v, want %v", err, tt.err)
				}
				if got != nil {
					t.Errorf("events = %s alongside the error, want none", show(got))
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("events:\n got %s\nwant %s", show(got), show(tt.want))
			}
		})
	}
}

// show prints changes with their payloads, not pointer addresses.
func show(cs []domain.Change) string {
	s := "["
	for i, c := range cs {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%v %T%+v", c.Aggregate, c.Data, reflect.Indirect(reflect.ValueOf(c.Data)).Interface())
	}
	return s + "]"
}

func cat(hs ...[]given) []given {
	var out []given
	for _, h := range hs {
		out = append(out, h...)
	}
	return out
}

// --- the ranking and its first edition ---------------------------------

func rankingDefinition() events.RankingDefined {
	return events.RankingDefined{
		Slug:  rk,
		Title: events.Text{Zh: "GPU 云租用平台", En: "GPU cloud rental"},
		Categories: []events.Category{
			{Slug: "cloud", Name: events.Text{Zh: "公有云", En: "Public cloud"}},
			{Slug: "market", Name: events.Text{Zh: "算力市场", En: "Marketplace"}},
		},
		Criteria: []events.Criterion{
			{Slug: "price", Name: events.Text{En: "Price"}, Weight: 40},
			{Slug: "perf", Name: events.Text{En: "Performance"}, Weight: 35},
			{Slug: "support", Name: events.Text{En: "Support"}, Weight: 25},
		},
		Attributes: []events.AttributeDef{
			{Key: "root", Name: events.Text{En: "Root access"}, Values: []events.AttributeValue{
				{Value: "yes", Label: events.Text{En: "Yes"}}, {Value: "no", Label: events.Text{En: "No"}}}},
			{Key: "region", Name: events.Text{En: "Data location"}},
		},
		Quorum: domain.DefaultQuorum,
	}
}

// defined is the ranking, with acme and bolt registered and published in
// edition 1: acme price 5, perf 6, root [yes]; bolt price 7.
func defined() []given {
	d := rankingDefinition()
	return []given{
		{"pat", domain.RankingID(rk), &d},
		{"alice", domain.EntryID(rk, "acme"), &events.EntryCreated{Ranking: rk, Slug: "acme",
			Name: events.Text{En: "Acme Cloud"}, Category: "cloud", Proposal: "p0"}},
		{"alice", domain.EntryID(rk, "bolt"), &events.EntryCreated{Ranking: rk, Slug: "bolt",
			Name: events.Text{En: "Bolt GPU"}, Category: "market", Proposal: "p0"}},
		{"pat", domain.EditionID(rk), &events.EditionPublished{Ranking: rk, Number: 1, Proposals: []string{"p0"},
			NewEntries: []events.PublishedEntry{
				{Slug: "acme", Name: events.Text{En: "Acme Cloud"}, Category: "cloud", Proposal: "p0"},
				{Slug: "bolt", Name: events.Text{En: "Bolt GPU"}, Category: "market", Proposal: "p0"},
			},
			Changes: []events.AppliedChange{
				{Proposal: "p0", Entry: "acme", Target: "score:price", ToScore: ptr(5), Evidence: []string{"e1"}},
				{Proposal: "p0", Entry: "acme", Target: "score:perf", ToScore: ptr(6), Evidence: []string{"e1"}},
				{Proposal: "p0", Entry: "acme", Target: "attr:root", ToTags: []string{"yes"}, Evidence: []string{"e1"}},
				{Proposal: "p0", Entry: "bolt", Target: "score:price", ToScore: ptr(7), Evidence: []string{"e1"}},
			}}},
	}
}

// --- proposal events ------------------------------------------------------

func opened(id, author, entry string) given {
	return given{author, domain.ProposalID(id), &events.ProposalOpened{Ranking: rk, Entry: entry, Title: "Update " + entry}}
}

func evidence(id, who, evID string, rev int) given {
	return given{who, domain.ProposalID(id), &events.EvidenceAdded{EvidenceID: evID, Revision: rev,
		Claim: events.Text{En: "claim " + evID}, SourceURL: "https://example.com/" + evID, Excerpt: "excerpt " + evID, ObservedOn: "2026-02-01"}}
}

func score(id, who string, rev int, crit string, from *int, to int, cites ...string) given {
	return given{who, domain.ProposalID(id), &events.ScoreChangeProposed{Revision: rev, Criterion: crit,
		From: from, To: to, Rationale: events.Text{En: "because"}, Evidence: cites}}
}

func submitted(id, who string, rev int) given {
	return given{who, domain.ProposalID(id), &events.ProposalSubmitted{Revision: rev}}
}

func revised(id, who string, rev int) given {
	return given{who, domain.ProposalID(id), &events.ProposalRevised{Revision: rev}}
}

func voted(id, who string, rev int, verdict string, verified ...string) given {
	v := &events.VoteCast{Revision: rev, Verdict: verdict, VerifiedEvidence: verified}
	if verdict == events.Reject {
		v.Comment = "the source says otherwise"
	}
	return given{who, domain.ProposalID(id), v}
}

func validated(id string, rev int, approvers ...string) given {
	return given{approvers[0], domain.ProposalID(id), &events.ProposalCrossValidated{Revision: rev, Approvers: approvers}}
}

func dismissed(id, publisher, voter string) given {
	return given{publisher, domain.ProposalID(id), &events.VetoDismissed{Voter: voter, Reason: "the source was misread"}}
}

func closedBy(id, who string, data any) given { return given{who, domain.ProposalID(id), data} }

// p1Draft: alice's proposal on acme with evidence e1 and e2 and one score
// change, price 5 → 7, citing e1 (e2 is evidence nobody cites, which every
// approver set must still cover).
func p1Draft() []given {
	return cat(defined(), []given{
		opened("p1", "alice", "acme"),
		evidence("p1", "alice", "e1", 1),
		evidence("p1", "alice", "e2", 1),
		score("p1", "alice", 1, "price", ptr(5), 7, "e1"),
	})
}

func p1InReview() []given { return cat(p1Draft(), []given{submitted("p1", "alice", 1)}) }

// p1Validated: rita and ravi approved revision 1, verifying both items.
func p1Validated() []given {
	return cat(p1InReview(), []given{
		voted("p1", "rita", 1, events.Approve, "e1", "e2"),
		voted("p1", "ravi", 1, events.Approve, "e1", "e2"),
		validated("p1", 1, "ravi", "rita"),
	})
}

// --- commands and wanted events ---------------------------------------------

func castVote(who, id string, rev int, verdict string, verified ...string) func(w *world) ([]domain.Change, error) {
	return func(w *world) ([]domain.Change, error) {
		c := domain.CastVote{Proposal: id, Revision: rev, Verdict: verdict, VerifiedEvidence: verified}
		if verdict == events.Reject {
			c.Comment = "the source says otherwise"
		}
		return domain.DecideCastVote(w.ranking, w.edition, w.prop(id), actor(who), c)
	}
}

func vote(id string, rev int, verdict string, verified ...string) domain.Change {
	v := &events.VoteCast{Revision: rev, Verdict: verdict, VerifiedEvidence: verified}
	if v.VerifiedEvidence == nil {
		v.VerifiedEvidence = []string{}
	}
	if verdict == events.Reject {
		v.Comment = "the source says otherwise"
	}
	return domain.Change{Aggregate: domain.ProposalID(id), Data: v}
}

func crossValidated(rev int, approvers ...string) events.Transition {
	return events.Transition{CrossValidated: &events.ProposalCrossValidated{Revision: rev, Approvers: approvers}}
}

// carrying returns c, a vote or a dismissed veto, carrying the proposal's
// change of status t: one event where there were two.
func carrying(c domain.Change, t events.Transition) domain.Change {
	switch d := c.Data.(type) {
	case *events.VoteCast:
		d.Transition = t
	case *events.VetoDismissed:
		d.Transition = t
	default:
		panic(fmt.Sprintf("carrying: %T carries no transition", c.Data))
	}
	return c
}

func changes(cs ...domain.Change) []domain.Change { return cs }
