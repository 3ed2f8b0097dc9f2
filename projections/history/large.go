package history

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// Large describes a published ranking of many entries for the tests of
// lists at real size: every entry new, scored on every criterion with one
// evidence item, approved by two reviewers and published in editions of
// PerEdition proposals (an edition's event holds its change list, so one
// edition of a thousand proposals would exceed an atomic batch).
type Large struct {
	Slug       string
	Entries    int
	Criteria   int // 1–10
	PerEdition int // 0: 500
	Seed       int64
}

// largeSyllables name the entries in Chinese: entry i is syllable i%100,
// syllable i/100%100 and 云, so every pair of syllables, hence every
// two-character substring before 云, belongs to one entry up to 10,000.
const largeSyllables = "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥金木水火土日月星山川河海湖江风雷电雨雪霜露光影虹石玉竹松梅兰菊桃李杏柳桑枫龙虎凤鹤鹰燕雀鱼鲸熊鹿狐狼豹象马牛羊鸡犬猫鼠春夏秋冬东西南北朝晖晨曦暮霞晴阴寒暑梦"

// LargeName is the Chinese name of entry i of a Large ranking.
func LargeName(i int) string {
	s := []rune(largeSyllables)
	return string(s[i%100]) + string(s[i/100%100]) + "云"
}

// LargeEntry is the slug of entry i.
func LargeEntry(i int) string { return fmt.Sprintf("e%05d", i) }

// WriteLarge appends the history of l to store (which has no other writer
// meanwhile) and returns how many events it wrote.
func WriteLarge(ctx context.Context, store events.Store, l Large) (int, error) {
	if l.PerEdition == 0 {
		l.PerEdition = 500
	}
	w, err := NewWriter(ctx, store, "large ranking", rand.New(rand.NewPCG(uint64(l.Seed), 0x6c61726765)),
		time.Date(2026, 2, 2, 8, 0, 0, 0, time.UTC), 10)
	if err != nil {
		return 0, err
	}
	w.Folded, w.BatchSize = true, 900
	s := &generator{Writer: w, prefix: l.Slug}
	if err := s.users(); err != nil {
		return 0, err
	}
	def := s.definition(l.Slug, 1)
	def.Criteria = def.Criteria[:0]
	for c := 1; c <= l.Criteria; c++ {
		def.Criteria = append(def.Criteria, events.Criterion{Slug: fmt.Sprintf("c%d", c), Name: text(fmt.Sprintf("Criterion %d", c)),
			Description: text("How well the entry does on this."), Weight: 100 / l.Criteria})
	}
	def.Criteria[0].Weight += 100 % l.Criteria
	if err := s.As(domain.System())(Legacy(l.Slug, def)); err != nil {
		return 0, err
	}
	d := &desk{slug: l.Slug, created: map[string]bool{}, orphan: map[string]bool{}}
	var chosen []string
	for i := range l.Entries {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		id, err := s.largeEntry(d, l, i)
		if err != nil {
			return 0, err
		}
		chosen = append(chosen, id)
		if len(chosen) == l.PerEdition || i == l.Entries-1 {
			if err := s.publish(d, chosen, nil); err != nil {
				return 0, err
			}
			chosen = chosen[:0]
		}
	}
	return s.Count(), s.Flush()
}

// largeEntry proposes entry i, scores it and has it approved.
func (s *generator) largeEntry(d *desk, l Large, i int) (string, error) {
	e := LargeEntry(i)
	id := fmt.Sprintf("%s-p%d", d.slug, i)
	a := s.Actor(s.editors[i%len(s.editors)])
	open := domain.OpenProposal{ID: id, Ranking: d.slug, Entry: e, Title: fmt.Sprintf("新条目 %s / New entry %s", LargeName(i), e),
		NewEntry: &domain.NewEntry{Name: events.Text{Zh: LargeName(i), En: fmt.Sprintf("Cloud %05d", i)},
			Category: fmt.Sprintf("k%d", 1+i%4), Website: "https://example.com/" + e, Description: text("A platform.")}}
	if err := s.As(a)(domain.DecideOpenProposal(s.Ranking(d.slug), s.Entry(d.slug, e), s.Edition(d.slug), s.Proposal(id), a, open)); err != nil {
		return "", err
	}
	add := domain.AddEvidence{Proposal: id, Claim: fmt.Sprintf("%s 按小时计费 / %s bills by the hour", LargeName(i), e),
		SourceURL: fmt.Sprintf("https://docs.vendor%d.example/pricing/%s", i%50, e), Excerpt: excerpt,
		ObservedOn: s.Clock.Format(time.DateOnly)}
	if err := s.As(a)(domain.DecideAddEvidence(s.Proposal(id), a, add)); err != nil {
		return "", err
	}
	ev := s.Proposal(id).EvidenceIDs()
	for c := 1; c <= l.Criteria; c++ {
		sc := domain.ProposeScore{Proposal: id, Criterion: fmt.Sprintf("c%d", c), To: (i*7 + c*3) % 11,
			Rationale: "Follows from the source.", Evidence: ev}
		if err := s.As(a)(domain.DecideProposeScore(s.Ranking(d.slug), s.Edition(d.slug), s.Proposal(id), a, sc)); err != nil {
			return "", err
		}
	}
	if err := s.As(a)(domain.DecideSubmit(s.Edition(d.slug), s.Proposal(id), a)); err != nil {
		return "", err
	}
	for _, r := range s.reviewers[:2] {
		if err := s.vote(d, id, r, events.Approve, ev); err != nil {
			return "", err
		}
	}
	return id, nil
// Large is the shape of a ranking written by LargeRanking.
type Large struct {
	Entries  int // new-entry proposals, one per entry
	Criteria int // criteria of the ranking, each scored by every proposal
	Seed     int64
}

// LargeRanking writes a ranking of l.Criteria criteria (and three
// scenarios) and l.Entries new-entry proposals, each with one evidence
// item and a score on every criterion, submitted and approved by two
// reviewers: all cross-validated, ready for a first edition of
// l.Entries × l.Criteria changes. Every event comes from the domain's
// Decide functions, appended in atomic batches of about 1000, so 10,000
// entries take seconds, not the hours of as many requests. It returns the
// ranking's slug and the proposals' ids.
func LargeRanking(ctx context.Context, store events.Store, l Large) (string, []string, error) {
	w, err := NewWriter(ctx, store, "large ranking", rand.New(rand.NewPCG(uint64(l.Seed), 0x6c61726765)),
		time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC), 2)
	if err != nil {
		return "", nil, err
	}
	w.Folded, w.Batch = true, 1000
	prefix := fmt.Sprintf("l%x", uint32(l.Seed))
	slug := prefix + "-ranking"
	sys := domain.System()
	names := map[string]string{"editor": domain.RoleEditor, "rev1": domain.RoleReviewer, "rev2": domain.RoleReviewer}
	for _, n := range []string{"editor", "rev1", "rev2"} {
		c := domain.RegisterUser{Username: prefix + "-" + n, DisplayName: n,
			PasswordHash: "$argon2id$v=19$m=65536,t=3,p=2$c3ludGhldGlj$aGFzaA", Roles: []string{names[n]}}
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
			Claim: "Scores of " + entry, SourceURL: "https://example.com/" + entry, Excerpt: excerpt[:120],
			ObservedOn: w.Clock.Format(time.DateOnly)})); err != nil {
			return "", nil, err
		}
		evidence := p.EvidenceIDs()
		for c := range l.Criteria {
			sc := domain.ProposeScore{Proposal: id, Criterion: fmt.Sprintf("c%d", c+1), To: w.Rng.IntN(11),
				Rationale: "Follows from the source.", Evidence: evidence}
			if err := w.As(editor)(domain.DecideProposeScore(w.Ranking(slug), ed, p, editor, sc)); err != nil {
				return "", nil, err
			}
		}
		if err := w.As(editor)(domain.DecideSubmit(ed, p, editor)); err != nil {
			return "", nil, err
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
