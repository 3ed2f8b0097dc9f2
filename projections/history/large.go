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
	add := domain.AddEvidence{Proposal: id, Claim: events.Text{Zh: LargeName(i) + " 按小时计费", En: e + " bills by the hour"},
		SourceURL: fmt.Sprintf("https://docs.vendor%d.example/pricing/%s", i%50, e), Excerpt: excerpt,
		ObservedOn: s.Clock.Format(time.DateOnly)}
	if err := s.As(a)(domain.DecideAddEvidence(s.Proposal(id), a, add)); err != nil {
		return "", err
	}
	ev := s.Proposal(id).EvidenceIDs()
	for c := 1; c <= l.Criteria; c++ {
		sc := domain.ProposeScore{Proposal: id, Criterion: fmt.Sprintf("c%d", c), To: (i*7 + c*3) % 11,
			Rationale: events.Text{En: "Follows from the source."}, Evidence: ev}
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
}
