package domain

import "github.com/crossrank/crossrank/events"

// Change is one event a decision yields: the aggregate it belongs to and its
// payload. The handler stamps id, time and actor, so decisions stay pure.
type Change struct {
	Aggregate events.Aggregate
	Data      any
}

func one(agg events.Aggregate, data any) []Change { return []Change{{agg, data}} }

// RankingID returns the aggregate of a ranking.
func RankingID(slug string) events.Aggregate {
	return events.Aggregate{Kind: events.KindRanking, ID: slug}
}

// EntryID returns the aggregate of an entry: "<ranking>_<entry>" (slugs never
// hold an underscore, so the id is unambiguous).
func EntryID(ranking, entry string) events.Aggregate {
	return events.Aggregate{Kind: events.KindEntry, ID: ranking + "_" + entry}
}

// ProposalID returns the aggregate of a proposal.
func ProposalID(id string) events.Aggregate {
	return events.Aggregate{Kind: events.KindProposal, ID: id}
}

// EditionID returns the aggregate holding a ranking's editions.
func EditionID(ranking string) events.Aggregate {
	return events.Aggregate{Kind: events.KindEdition, ID: ranking}
}

// UserID returns the aggregate of a user.
func UserID(username string) events.Aggregate {
	return events.Aggregate{Kind: events.KindUser, ID: username}
}

// ZeroState returns the state of aggregate a before its first event, the
// one the read models and the history generator both start from; nil for
// kinds that keep none (webhooks).
func ZeroState(a events.Aggregate) any {
	switch a.Kind {
	case events.KindRanking:
		return &Ranking{}
	case events.KindEntry:
		return &Entry{}
	case events.KindProposal:
		return &Proposal{}
	case events.KindEdition:
		return &Edition{Ranking: a.ID, Entries: map[string]*PublishedEntry{}}
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
