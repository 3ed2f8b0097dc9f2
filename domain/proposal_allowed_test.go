package domain_test

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// allowedStates are the proposal states the matrix runs in: every status,
// with and without changes, vetoes, revisers and stale baselines. p1 is
// alice's; in the revised states rex is a reviser.
func allowedStates() []struct {
	name  string
	given []given
} {
	withEvidence := cat(defined(), []given{opened("p1", "alice", "acme"),
		evidence("p1", "alice", "e1", 1), evidence("p1", "alice", "e2", 1)})
	vetoed := cat(p1InReview(), []given{voted("p1", "rosa", 1, reject)})
	revisedByRex := cat(vetoed, []given{revised("p1", "rex", 2)})
	return []struct {
		name  string
		given []given
	}{
		{"missing", defined()},
		{"draft without changes", withEvidence},
		{"draft", p1Draft()},
		{"draft, baseline published over", cat(p1Draft(), []given{edition2()})},
		{"in review", p1InReview()},
		{"in review, open veto", vetoed},
		{"in review, dismissed veto", cat(vetoed, []given{dismissed("p1", "pat", "rosa")})},
		{"in review, baseline published over", cat(p1InReview(), []given{edition2()})},
		{"cross-validated", p1Validated()},
		{"cross-validated, baseline published over", cat(p1Validated(), []given{edition2()})},
		{"revised by a reviewer, veto carried over", revisedByRex},
		{"revision 2 in review", cat(revisedByRex, []given{submitted("p1", "rex", 2)})},
		{"published", cat(p1Validated(), []given{closedBy("p1", "pat", &events.ProposalPublished{Edition: 2, Revision: 1})})},
		{"rejected", cat(p1InReview(), []given{closedBy("p1", "pat", &events.ProposalRejected{Reason: "no"})})},
		{"withdrawn", cat(p1Draft(), []given{closedBy("p1", "alice", &events.ProposalWithdrawn{})})},
	}
}

// allowedActors: every set of roles, held by the author, by a reviser (in
// the revised states) and by a stranger, and a nameless actor holding all.
func allowedActors() []domain.Actor {
	out := []domain.Actor{{Roles: domain.Roles}}
	for _, name := range []string{"alice", "rex", "sam"} {
		for set := range 1 << len(domain.Roles) {
			a := domain.Actor{Name: name, Roles: []string{}}
			for i, r := range domain.Roles {
				if set&(1<<i) != 0 {
					a.Roles = append(a.Roles, r)
				}
			}
			out = append(out, a)
		}
	}
	return out
}

// allowedCommand runs one Decide function with input valid for the
// proposal as it stands, so that only the actor's roles and the proposal's
// state can refuse it. ok picks the Actions field that must say the same.
type allowedCommand struct {
	name string
	ok   func(domain.Actions) bool
	run  func(w *world, p *domain.Proposal, a domain.Actor) error
}

func allowedCommands() []allowedCommand {
	edit := func(c domain.Actions) bool { return c.Edit }
	errOf := func(_ []domain.Change, err error) error { return err }
	// the uncited evidence item every state with a proposal holds
	const uncited = "e2"
	return []allowedCommand{
		{"AddEvidence", edit, func(w *world, p *domain.Proposal, a domain.Actor) error {
			return errOf(domain.DecideAddEvidence(p, a, domain.AddEvidence{Claim: events.Text{En: "c"}, SourceName: "s", Excerpt: "x", ObservedOn: "2026-01-01"}))
		}},
		{"RemoveEvidence", edit, func(w *world, p *domain.Proposal, a domain.Actor) error {
			return errOf(domain.DecideRemoveEvidence(p, a, uncited))
		}},
		{"ProposeScore", edit, func(w *world, p *domain.Proposal, a domain.Actor) error {
			return errOf(domain.DecideProposeScore(w.ranking, w.edition, p, a,
				domain.ProposeScore{Criterion: "perf", To: 8, Rationale: events.Text{En: "r"}, Evidence: []string{"e1"}}))
		}},
		{"ProposeAttribute", edit, func(w *world, p *domain.Proposal, a domain.Actor) error {
			return errOf(domain.DecideProposeAttribute(w.ranking, w.edition, p, a,
				domain.ProposeAttribute{Attribute: "root", To: []string{"no"}, Rationale: events.Text{En: "r"}, Evidence: []string{"e1"}}))
		}},
		{"RemoveChange", edit, func(w *world, p *domain.Proposal, a domain.Actor) error {
			target := "score:price" // a change every state with changes holds
			if p.Exists() && len(p.Targets()) == 0 {
				return errNoInput
			}
			return errOf(domain.DecideRemoveChange(p, a, target))
		}},
		{"Submit", func(c domain.Actions) bool { return c.Submit }, func(w *world, p *domain.Proposal, a domain.Actor) error {
			return errOf(domain.DecideSubmit(w.edition, p, a))
		}},
		{"Revise", func(c domain.Actions) bool { return c.Revise }, func(w *world, p *domain.Proposal, a domain.Actor) error {
			return errOf(domain.DecideRevise(w.edition, p, a, ""))
		}},
		{"Withdraw", func(c domain.Actions) bool { return c.Withdraw }, func(w *world, p *domain.Proposal, a domain.Actor) error {
			return errOf(domain.DecideWithdraw(p, a, ""))
		}},
		{"CastVote approve", func(c domain.Actions) bool { return c.Vote }, func(w *world, p *domain.Proposal, a domain.Actor) error {
			return errOf(domain.DecideCastVote(w.ranking, w.edition, p, a,
				domain.CastVote{Revision: p.Revision, Verdict: approve, VerifiedEvidence: p.EvidenceIDs()}))
		}},
		{"CastVote reject", func(c domain.Actions) bool { return c.Vote }, func(w *world, p *domain.Proposal, a domain.Actor) error {
			return errOf(domain.DecideCastVote(w.ranking, w.edition, p, a,
				domain.CastVote{Revision: p.Revision, Verdict: reject, Comment: "unsure"}))
		}},
		{"DismissVeto", func(c domain.Actions) bool { return c.Dismiss }, func(w *world, p *domain.Proposal, a domain.Actor) error {
			voter := "rosa"
			if v := p.OpenVetoes(); len(v) > 0 {
				voter = v[0]
			}
			return errOf(domain.DecideDismissVeto(w.ranking, w.edition, p, a,
				domain.DismissVeto{Proposal: p.ID, Voter: voter, Reason: "misread"}))
		}},
		{"Reject", func(c domain.Actions) bool { return c.Reject }, func(w *world, p *domain.Proposal, a domain.Actor) error {
			return errOf(domain.DecideReject(p, a, "out of scope"))
		}},
	}
}

// errNoInput marks a command no input can be valid for in a state (removing
// a change from a draft without changes): nothing to compare there.
var errNoInput = errors.New("no valid input in this state")

// TestAllowedMatchesDecide runs every proposal command as every actor in
// every state and checks that Allowed says yes exactly when the Decide
// function accepts the command, and that every refusal is for the actor's
// roles or the proposal's state, never for the test's input. Allowed is
// what the pages offer, so a page can never show a button its command
// would refuse, nor hide one it would accept.
func TestAllowedMatchesDecide(t *testing.T) {
	rules := []error{domain.ErrForbidden, domain.ErrState, domain.ErrNotFound, domain.ErrNothingToSubmit}
	compared := 0
	for _, st := range allowedStates() {
		t.Run(st.name, func(t *testing.T) {
			for _, a := range allowedActors() {
				w := newWorld(t, st.given)
				p := w.prop("p1")
				got := p.Allowed(a, w.edition)
				for _, c := range allowedCommands() {
					err := c.run(w, p, a)
					if err == errNoInput {
						continue
					}
					compared++
					if err != nil && !slices.ContainsFunc(rules, func(r error) bool { return errors.Is(err, r) }) {
						t.Fatalf("%s as %q %v: the test's input is invalid: %v", c.name, a.Name, a.Roles, err)
					}
					if c.ok(got) != (err == nil) {
						t.Errorf("%s as %q %v: Allowed says %v, Decide returns %v", c.name, a.Name, a.Roles, c.ok(got), err)
					}
				}
				_, submitErr := domain.DecideSubmit(w.edition, p, a)
				if want := errors.Is(submitErr, domain.ErrStaleBaseline); got.Rebase != want {
					t.Errorf("Rebase as %q %v = %v, want %v (submit: %v)", a.Name, a.Roles, got.Rebase, want, submitErr)
				}
				if got.Rebase && !got.Edit {
					t.Errorf("Rebase as %q %v without Edit", a.Name, a.Roles)
				}
			}
		})
	}
	if compared == 0 {
		t.Fatal("nothing compared")
	}
}

// TestAllowedOffersEveryAction: the matrix above means something only if
// each action is allowed to someone in some state and refused elsewhere.
func TestAllowedOffersEveryAction(t *testing.T) {
	allowed, refused := map[string]bool{}, map[string]bool{}
	for _, st := range allowedStates() {
		for _, a := range allowedActors() {
			w := newWorld(t, st.given)
			got := reflect.ValueOf(w.prop("p1").Allowed(a, w.edition))
			for i := range got.NumField() {
				name := got.Type().Field(i).Name
				allowed[name] = allowed[name] || got.Field(i).Bool()
				refused[name] = refused[name] || !got.Field(i).Bool()
			}
		}
	}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[domain.Actions]()) {
		if !allowed[f.Name] || !refused[f.Name] {
			t.Errorf("%s: allowed somewhere %v, refused somewhere %v", f.Name, allowed[f.Name], refused[f.Name])
		}
	}
}

func TestOpenVetoes(t *testing.T) {
	tests := []struct {
		name  string
		given []given
		want  []string
	}{
		{"no votes", p1InReview(), nil},
		{"approvals are no vetoes", p1Validated(), nil},
		{"sorted", cat(p1InReview(), []given{voted("p1", "rosa", 1, reject), voted("p1", "ravi", 1, reject)}),
			[]string{"ravi", "rosa"}},
		{"a dismissed veto is not open", cat(p1InReview(), []given{voted("p1", "rosa", 1, reject),
			voted("p1", "ravi", 1, reject), dismissed("p1", "pat", "ravi")}), []string{"rosa"}},
		{"a later approval lifts the voter's veto", cat(p1InReview(), []given{voted("p1", "rosa", 1, reject),
			voted("p1", "rosa", 1, approve, "e1")}), nil},
		{"a veto carries over to the next revision", cat(p1InReview(), []given{voted("p1", "rosa", 1, reject),
			revised("p1", "alice", 2), submitted("p1", "alice", 2)}), []string{"rosa"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, tt.given)
			p := w.prop("p1")
			if got := p.OpenVetoes(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("OpenVetoes() = %q, want %q", got, tt.want)
			}
			if got := domain.Quorum(p, w.ranking.Quorum, w.edition).Vetoes; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Quorum().Vetoes = %q, want %q: the quorum and OpenVetoes disagree", got, tt.want)
			}
		})
	}
}
