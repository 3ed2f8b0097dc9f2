package domain

import (
	"maps"
	"slices"
)

// States in the handler's cache are never mutated: applying an event clones
// the state first, so a reader holding the old pointer sees a consistent value.

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
