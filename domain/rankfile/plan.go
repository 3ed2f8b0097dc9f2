package rankfile

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// A plan is every command an import runs, built from the file and checked
// by the domain's own decisions on states held in memory before anything
// is appended: a file with one bad field stores nothing.
type plan struct {
	definition *definitionPlan // nil: the methodology is already the ranking's
	entries    []entryPlan
	unchanged  []entryPlan // published entries the file repeats: nothing to open
	draft      bool        // leave every proposal a draft
	newRanking bool
}

type definitionPlan struct {
	open    domain.OpenProposal
	propose domain.ProposeMethodology
	exists  bool // the proposal is already stored: its commands replay
}

type entryPlan struct {
	path      string // "entries[4]"
	entry     Entry  // as the file holds it, less the scores it repeats unchanged
	stored    *domain.Entry
	same      int    // scores left out: the published value, no new evidence
	scoreFrom []*int // per entry.Scores: the published value (nil: none)
	unchanged bool   // published, and the file changes nothing of it
	open      domain.OpenProposal
	evidence  []domain.AddEvidence
	scores    []domain.ProposeScore
	attrs     []domain.ProposeAttribute
	submit    bool
	exists    bool // the proposal is already stored: its commands replay
}

// contentID derives an id from a readable prefix and a hash of what it
// names, so importing the same content again names the same proposal.
func contentID(prefix string, parts ...any) string {
	h := sha256.New()
	for _, p := range parts {
		b, err := json.Marshal(p)
		if err != nil {
			panic("rankfile: " + err.Error()) // strings and plain structs: cannot fail
		}
		h.Write(b)
		h.Write([]byte{0})
	}
	if len(prefix) > 40 {
		prefix = strings.TrimRight(prefix[:40], "-")
	}
	return prefix + "-" + hex.EncodeToString(h.Sum(nil))[:16]
}

// at names err's field by its path in the file: a domain field error gets
// the path prefixed to its field, any other error is wrapped with it.
func at(path string, err error) error {
	if err == nil {
		return nil
	}
	var fe *domain.FieldError
	if errors.As(err, &fe) {
		c := *fe
		c.Field = path + "." + fe.Field
		return &c
	}
	return &pathError{path: path, err: err}
}

// evolve applies the changes a decision made to the proposal held in memory.
func evolve(p *domain.Proposal, id string, a domain.Actor, changes []domain.Change) {
	for _, c := range changes {
		if c.Aggregate == domain.ProposalID(id) {
			p.Evolve(events.Event{Subject: id, Actor: a.Name, Data: c.Data})
		}
	}
}

// checkDefinition runs the methodology proposal's decisions on r (the
// ranking as it is; empty when new).
func (d *definitionPlan) check(r *domain.Ranking, ed *domain.Edition, a domain.Actor) error {
	p := &domain.Proposal{}
	ch, err := domain.DecideOpenProposal(r, nil, nil, p, a, d.open)
	if err != nil {
		return at("slug", err)
	}
	evolve(p, d.open.ID, a, ch)
	if _, err := domain.DecideProposeMethodology(r, ed, p, a, d.propose); err != nil {
		return at("methodology", err)
	}
	return nil
}

// check runs the entry proposal's decisions against r, the ranking its
// values must fit (the proposed one while the ranking is new).
func (e *entryPlan) check(r *domain.Ranking, entry *domain.Entry, ed *domain.Edition, a domain.Actor) error {
	p := &domain.Proposal{}
	id := e.open.ID
	ch, err := domain.DecideOpenProposal(r, entry, ed, p, a, e.open)
	if err != nil {
		var fe *domain.FieldError
		if errors.As(err, &fe) && fe.Field == "title" { // the title is made of the name
			c := *fe
			c.Field = "name"
			err = &c
		}
		if errors.As(err, &fe) && fe.Field == "entry" {
			c := *fe
			c.Field = "slug"
			err = &c
		}
		return at(e.path, err)
	}
	evolve(p, id, a, ch)
	for j, c := range e.evidence {
		ch, err := domain.DecideAddEvidence(p, a, c)
		if err != nil {
			return at(fmt.Sprintf("%s.evidence[%d]", e.path, j), err)
		}
		evolve(p, id, a, ch)
	}
	for j, c := range e.scores {
		ch, err := domain.DecideProposeScore(r, ed, p, a, c)
		if err != nil {
			return at(fmt.Sprintf("%s.scores[%d]", e.path, j), renameField(err, "to", "value"))
		}
		evolve(p, id, a, ch)
	}
	for j, c := range e.attrs {
		ch, err := domain.DecideProposeAttribute(r, ed, p, a, c)
		if err != nil {
			return at(fmt.Sprintf("%s.attributes[%d]", e.path, j), renameField(err, "attribute", "key", "to", "tags"))
		}
		evolve(p, id, a, ch)
	}
	if e.submit {
		if _, err := domain.DecideSubmit(ed, p, a); err != nil {
			return at(e.path, err)
		}
	}
	return nil
}

// renameField maps the domain's command field names to the file's.
func renameField(err error, pairs ...string) error {
	var fe *domain.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	c := *fe
	for i := 0; i+1 < len(pairs); i += 2 {
		if c.Field == pairs[i] {
			c.Field = pairs[i+1]
		}
	}
	return &c
}

// citations turns the evidence keys a value cites into the evidence ids
// the proposal gives them (e1, e2… in the order they are added).
func citations(path string, keys []string, ids map[string]string) ([]string, error) {
	out := make([]string, len(keys))
	for k, key := range keys {
		id, ok := ids[key]
		if !ok {
			return nil, domain.Invalid(fmt.Sprintf("%s.evidence[%d]", path, k), "evidence.unknown", nil)
		}
		out[k] = id
	}
	return out, nil
}

// tiers are the evidence tiers a file may name.
var tiers = []string{"", "vendor", "third_party", "own"}

// entryCommands builds one entry's commands on proposal id; the evidence
// keys must be slugs, unique within the entry.
func entryCommands(ep *entryPlan, e Entry) error {
	id := ep.open.ID
	ids := map[string]string{}
	for j, ev := range e.Evidence {
		path := fmt.Sprintf("%s.evidence[%d]", ep.path, j)
		if err := domain.CheckSlug(path+".key", ev.Key); err != nil {
			return err
		}
		if _, dup := ids[ev.Key]; dup {
			return domain.Invalid(path+".key", "field.repeats", domain.Args{"value": ev.Key})
		}
		if !slices.Contains(tiers, ev.Tier) {
			return domain.Invalid(path+".tier", "ranking.not_option", domain.Args{"value": ev.Tier, "attribute": "tier"})
		}
		ids[ev.Key] = fmt.Sprintf("e%d", j+1)
		ep.evidence = append(ep.evidence, domain.AddEvidence{CommandID: id + "-ev-" + ev.Key, Proposal: id,
			Claim: ev.Claim.Text(), SourceURL: ev.SourceURL, SourceName: ev.SourceName, Section: ev.Section,
			Excerpt: ev.Excerpt, ObservedOn: ev.ObservedOn, ValidForDays: ev.ValidForDays, Tier: domain.Tier(ev.Tier)})
	}
	for j, s := range e.Scores {
		path := fmt.Sprintf("%s.scores[%d]", ep.path, j)
		cited, err := citations(path, s.Evidence, ids)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(e.Scores[:j], func(o Score) bool { return o.Criterion == s.Criterion }) {
			return domain.Invalid(path+".criterion", "field.repeats", domain.Args{"value": s.Criterion})
		}
		ep.scores = append(ep.scores, domain.ProposeScore{CommandID: id + "-score-" + s.Criterion, Proposal: id,
			Criterion: s.Criterion, To: s.Value, Rationale: s.Rationale.Text(), Evidence: cited})
	}
	for j, attr := range e.Attributes {
		path := fmt.Sprintf("%s.attributes[%d]", ep.path, j)
		cited, err := citations(path, attr.Evidence, ids)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(e.Attributes[:j], func(o Attribute) bool { return o.Key == attr.Key }) {
			return domain.Invalid(path+".key", "field.repeats", domain.Args{"value": attr.Key})
		}
		ep.attrs = append(ep.attrs, domain.ProposeAttribute{CommandID: id + "-attr-" + attr.Key, Proposal: id,
			Attribute: attr.Key, To: attr.Tags, Rationale: attr.Rationale.Text(), Evidence: cited})
	}
	return nil
}

// title is an entry proposal's title, made of the entry's names.
func title(n events.Text) string {
	t := "导入：" + n.Zh + " / Import: " + n.En
	if r := []rune(t); len(r) > domain.MaxTitle {
		t = string(r[:domain.MaxTitle])
	}
	return t
}
