package domain

import (
	"maps"
	"slices"

	"github.com/crossrank/crossrank/events"
)

// States in the handler's cache are never mutated: applying an event clones
// the state first, so a reader holding the old pointer sees a consistent value.

// Evolved returns state with ev applied, leaving state itself as it was.
// A nil state starts as a fresh aggregate of ev's kind (nil for a kind
// without one); a state of another type is returned unchanged.
func Evolved(state any, ev events.Event) any {
	switch s := state.(type) {
	case nil:
		n := fresh(ev.Kind())
		if n, ok := n.(interface{ Evolve(events.Event) }); ok {
			n.Evolve(ev) // nobody holds it yet: evolved in place
		}
		return n
	case *Ranking:
		n := s.clone()
		n.Evolve(ev)
		return n
	case *Entry:
		n := s.clone()
		n.Evolve(ev)
		return n
	case *Proposal:
		n := s.clone()
		n.Evolve(ev)
		return n
	case *Edition:
		n := s.Clone()
		n.Evolve(ev)
		return n
	case *User:
		n := s.clone()
		n.Evolve(ev)
		return n
	case *Report:
		n := s.clone()
		n.Evolve(ev)
		return n
	case *PreviewLink:
		n := s.clone()
		n.Evolve(ev)
		return n
	case *Reply:
		n := s.clone()
		n.Evolve(ev)
		return n
	}
	return state
}

func fresh(k events.Kind) any {
	switch k {
	case events.KindRanking:
		return &Ranking{}
	case events.KindEntry:
		return &Entry{}
	case events.KindProposal:
		return &Proposal{}
	case events.KindEdition:
		return &Edition{}
	case events.KindUser:
		return &User{}
	case events.KindReport:
		return &Report{}
	case events.KindPreview:
		return &PreviewLink{}
	case events.KindReply:
		return &Reply{}
	}
	return nil
}

func (r *Ranking) clone() *Ranking {
	c := *r
	return &c // every field is replaced wholesale by Evolve, never mutated in place
}

func (e *Entry) clone() *Entry {
	c := *e
	return &c
}

func (p *Proposal) clone() *Proposal {
	c := *p
	c.Revisers = slices.Clone(p.Revisers)
	c.Evidence = slices.Clone(p.Evidence)
	c.Scores = maps.Clone(p.Scores)
	c.Attributes = maps.Clone(p.Attributes)
	c.Requested = slices.Clone(p.Requested)
	c.Due, c.Nudged = maps.Clone(p.Due), maps.Clone(p.Nudged)
	c.Comments = slices.Clone(p.Comments) // resolving changes one in place
	c.Votes = make(map[string]*Vote, len(p.Votes))
	for k, v := range p.Votes {
		vv := *v
		c.Votes[k] = &vv
	}
	return &c
}

func (u *User) clone() *User {
	c := *u
	c.Roles = slices.Clone(u.Roles)
	c.Tokens = make(map[string]*Token, len(u.Tokens))
	for k, t := range u.Tokens {
		tt := *t
		c.Tokens[k] = &tt
	}
	return &c
}
