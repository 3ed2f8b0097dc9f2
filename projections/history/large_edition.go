package history

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// ReadyEdition is the shape of a ranking written by LargeRanking.
type ReadyEdition struct {
	Entries  int // new-entry proposals, one per entry
	Criteria int // criteria of the ranking, each scored by every proposal
	Seed     int64
	// InReview is how many of the last proposals are left in review,
	// submitted with no vote; 0: every proposal is cross-validated.
	InReview int
	// PasswordHash is the hash of the users' password; "": a hash no
	// password matches.
	PasswordHash string
}

// LargeRanking writes a ranking of l.Criteria criteria (and three
// scenarios) and l.Entries new-entry proposals, each with one evidence
// item and a score on every criterion, submitted and approved by two
// reviewers: all cross-validated, ready for a first edition of
// l.Entries × l.Criteria changes, but for the last l.InReview, left in
// review. Every event comes from the domain's
// Decide functions, appended in atomic batches of about 1000, so 10,000
// entries take seconds, not the hours of as many requests. It returns the
// ranking's slug and the proposals' ids.
func LargeRanking(ctx context.Context, store events.Store, l ReadyEdition) (string, []string, error) {
	w, err := NewWriter(ctx, store, "large ranking", rand.New(rand.NewPCG(uint64(l.Seed), 0x6c61726765)),
		time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC), 2)
	if err != nil {
		return "", nil, err
	}
	w.Folded, w.BatchSize = true, 1000
	prefix := fmt.Sprintf("l%x", uint32(l.Seed))
	slug := prefix + "-ranking"
	sys := domain.System()
	names := map[string]string{"editor": domain.RoleEditor, "rev1": domain.RoleReviewer, "rev2": domain.RoleReviewer}
	for _, n := range []string{"editor", "rev1", "rev2"} {
		c := domain.RegisterUser{Username: prefix + "-" + n, DisplayName: n,
			PasswordHash: cmp.Or(l.PasswordHash, "$argon2id$v=19$m=65536,t=3,p=2$c3ludGhldGlj$aGFzaA"), Roles: []string{names[n]}}
		if err := w.As(sys)(domain.DecideRegisterUser(w.User(c.Username), sys, c)); err != nil {
			return "", nil, err
		}
	}
	def := events.RankingDefined{Slug: slug, Title: text("A large ranking"), Description: text("Generated at scale."),
		Quorum: events.QuorumPolicy{MinApprovals: 2, RequireEvidenceVerified: true}}
	for k := 1; k <= 4; k++ {
		def.Categories = append(def.Categories, events.Category{Slug: fmt.Sprintf("k%d", k), Name: text(fmt.Sprintf("Category %d", k))})
	}
	left := 100
	for c := 1; c <= l.Criteria; c++ {
		weight := 100 / l.Criteria
		if c == l.Criteria {
			weight = left
		}
		left -= weight
		def.Criteria = append(def.Criteria, events.Criterion{Slug: fmt.Sprintf("c%d", c), Name: text(fmt.Sprintf("Criterion %d", c)), Weight: weight})
	}
	if err := w.As(sys)(Legacy(slug, def)); err != nil {
		return "", nil, err
	}
	var sc events.ScenariosSet
	for i := 1; i <= 3; i++ {
		ws := map[string]int{}
		for c := range l.Criteria {
			ws[fmt.Sprintf("c%d", c+1)] = def.Criteria[(c+i)%l.Criteria].Weight
		}
		sc.Scenarios = append(sc.Scenarios, events.Scenario{Slug: fmt.Sprintf("sc%d", i), Name: text(fmt.Sprintf("Scenario %d", i)), Weights: ws})
	}
	if err := w.As(sys)(Legacy(slug, sc)); err != nil {
		return "", nil, err
	}
	ed := w.Edition(slug)
	editor, r1, r2 := w.Actor(prefix+"-editor"), w.Actor(prefix+"-rev1"), w.Actor(prefix+"-rev2")
	ids := make([]string, 0, l.Entries)
	for i := range l.Entries {
		entry := fmt.Sprintf("e%05d", i+1)
		id := fmt.Sprintf("%s-p%05d", prefix, i+1)
		open := domain.OpenProposal{ID: id, Ranking: slug, Entry: entry, Title: "Add " + entry,
			NewEntry: &domain.NewEntry{Name: text("Entry " + entry), Category: fmt.Sprintf("k%d", 1+i%4)}}
		if err := w.As(editor)(domain.DecideOpenProposal(w.Ranking(slug), w.Entry(slug, entry), ed, w.Proposal(id), editor, open)); err != nil {
			return "", nil, err
		}
		p := w.Proposal(id)
		if err := w.As(editor)(domain.DecideAddEvidence(p, editor, domain.AddEvidence{Proposal: id,
			Claim: events.Text{En: "Scores of " + entry}, SourceURL: "https://example.com/" + entry, Excerpt: excerpt[:120],
			ObservedOn: w.Clock.Format(time.DateOnly)})); err != nil {
			return "", nil, err
		}
		evidence := p.EvidenceIDs()
		for c := range l.Criteria {
			sc := domain.ProposeScore{Proposal: id, Criterion: fmt.Sprintf("c%d", c+1), To: w.Rng.IntN(11),
				Rationale: events.Text{En: "Follows from the source."}, Evidence: evidence}
			if err := w.As(editor)(domain.DecideProposeScore(w.Ranking(slug), ed, p, editor, sc)); err != nil {
				return "", nil, err
			}
		}
		if err := w.As(editor)(domain.DecideSubmit(ed, p, editor)); err != nil {
			return "", nil, err
		}
		if i >= l.Entries-l.InReview {
			ids = append(ids, id)
			continue
		}
		for _, r := range []domain.Actor{r1, r2} {
			v := domain.CastVote{Proposal: id, Revision: p.Revision, Verdict: events.Approve, VerifiedEvidence: evidence}
			if err := w.As(r)(domain.DecideCastVote(w.Ranking(slug), ed, p, r, v)); err != nil {
				return "", nil, err
			}
		}
		if p.Status != domain.StatusCrossValidated {
			return "", nil, fmt.Errorf("large ranking: %s ended %s, not cross-validated", id, p.Status)
		}
		ids = append(ids, id)
	}
	return slug, ids, w.Flush()
}
