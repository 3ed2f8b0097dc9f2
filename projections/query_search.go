package projections

import (
	"context"

	"github.com/crossrank/crossrank/events"
	"strings"
	"unicode/utf8"
)

// SearchQuery asks the search index for documents of one kind whose text
// holds Text as a substring (case-insensitive, white space runs as one).
type SearchQuery struct {
	Text    string
	Kind    string // SearchEntry, SearchProposal or SearchEvidence
	Ranking string // "": every ranking
	Limit   int    // 0: every match
	Offset  int
}

// SearchHit is a matching document with what a list of results shows.
type SearchHit struct {
	Kind     string
	Ranking  string
	Entry    string      // the entry's slug (entries, proposals, evidence)
	Proposal string      // the proposal's id (proposals, evidence)
	Evidence string      // the evidence item's id (evidence)
	Name     events.Text // the entry's name (entries)
	Title    string      // the proposal's title, the evidence's claim
	Status   string      // the proposal's status (proposals, evidence)
	Source   string      // the evidence's source URL
}

// searchPages read a page of hits of each kind with what they show; the
// columns are those of scanHit.
var searchPages = map[string]string{
	SearchEntry: `SELECT d.ranking, e.slug, '', '', e.name_zh, e.name_en, '', '', '' FROM search_docs d
		JOIN entries e ON e.ranking = d.a AND e.slug = d.b`,
	SearchProposal: `SELECT d.ranking, p.entry, p.id, '', '', '', p.title, p.status, '' FROM search_docs d
		JOIN proposals p ON p.id = d.a`,
	SearchEvidence: `SELECT d.ranking, p.entry, p.id, e.evidence_id, '', '', e.claim, p.status, e.source_url FROM search_docs d
		JOIN evidence e ON e.proposal = d.a AND e.evidence_id = d.b JOIN proposals p ON p.id = d.a`,
}

// MaxSearchRunes bounds a query: each character is a bigram the index is
// asked for.
const MaxSearchRunes = 100

// SearchText is the normalised form of a query, cut to MaxSearchRunes.
func SearchText(q string) string {
	q = normaliseSearch(q)
	if utf8.RuneCountInString(q) > MaxSearchRunes {
		q = string([]rune(q)[:MaxSearchRunes])
	}
	return q
}

// Search returns one page of the documents matching q, in key order, and
// how many match in all. An empty query matches nothing.
//
// Every bigram of the query must be among the document's (an index lookup
// per bigram); instr then checks the whole substring on those candidates
// only. A one-character query reads the range of bigrams starting with it.
func (s *Store) Search(ctx context.Context, q SearchQuery) ([]SearchHit, int, error) {
	where, args := searchWhere(q)
	if where == "" || searchPages[q.Kind] == "" {
		return nil, 0, nil
	}
	var total int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM search_docs d WHERE "+where, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	if total == 0 || (q.Limit > 0 && q.Offset >= total) {
		return nil, total, nil
	}
	page := searchPages[q.Kind] + " WHERE " + where + " ORDER BY d.ranking, d.a, d.b"
	if q.Limit > 0 {
		page += " LIMIT ? OFFSET ?"
		args = append(args, q.Limit, q.Offset)
	}
	rows, err := s.db.QueryContext(ctx, page, args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []SearchHit
	for rows.Next() {
		h := SearchHit{Kind: q.Kind}
		if err := rows.Scan(&h.Ranking, &h.Entry, &h.Proposal, &h.Evidence, &h.Name.Zh, &h.Name.En, &h.Title, &h.Status, &h.Source); err != nil {
			return nil, 0, err
		}
		out = append(out, h)
	}
	return out, total, rows.Err()
}

// searchWhere is the condition on search_docs d that q asks for, and its
// arguments; "" when q matches nothing.
func searchWhere(q SearchQuery) (string, []any) {
	text := SearchText(q.Text)
	if text == "" {
		return "", nil
	}
	var sub string
	args := []any{q.Kind}
	if grams := bigrams(text); len(grams) == 0 {
		// One character: the bigrams that start with it, which every
		// document holding it has (a field's last character is followed by
		// its line feed).
		r, _ := utf8.DecodeRuneInString(text)
		sub = "SELECT DISTINCT doc FROM search_grams WHERE kind = ? AND gram BETWEEN ? AND ?"
		args = append(args, int64(r)<<gramShift, int64(r)<<gramShift|(1<<gramShift-1))
	} else {
		sub = "SELECT doc FROM search_grams WHERE kind = ? AND gram IN (?" + strings.Repeat(",?", len(grams)-1) +
			") GROUP BY doc HAVING count(*) = ?"
		for _, g := range grams {
			args = append(args, g)
		}
		args = append(args, len(grams))
	}
	where := "d.id IN (" + sub + ") AND instr(d.body, ?) > 0"
	args = append(args, text)
	if q.Ranking != "" {
		where += " AND d.ranking = ?"
		args = append(args, q.Ranking)
	}
	return where, args
}
