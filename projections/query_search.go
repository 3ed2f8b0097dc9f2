package projections

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/crossrank/crossrank/events"
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
// The candidates are the documents holding one rare bigram of the query
// (one index range: every bigram of a match is in it, so a rare one bounds
// the work), and instr then checks the whole substring on those only. A
// one-character query reads the range of bigrams starting with it. The
// page and the total come from one statement (a window count), read again
// alone only when the page is past the last hit.
func (s *Store) Search(ctx context.Context, q SearchQuery) ([]SearchHit, int, error) {
	where, args, err := s.searchWhere(ctx, q)
	if err != nil || where == "" || searchPages[q.Kind] == "" {
		return nil, 0, err
	}
	page := searchPages[q.Kind] + " WHERE " + where + " ORDER BY d.ranking, d.a, d.b"
	page = strings.Replace(page, " FROM search_docs d", ", count(*) OVER () FROM search_docs d", 1)
	pageArgs := args
	if q.Limit > 0 {
		page += " LIMIT ? OFFSET ?"
		pageArgs = append(slices.Clip(args), q.Limit, q.Offset)
	}
	rows, err := s.db.QueryContext(ctx, page, pageArgs...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []SearchHit
	total := 0
	for rows.Next() {
		h := SearchHit{Kind: q.Kind}
		if err := rows.Scan(&h.Ranking, &h.Entry, &h.Proposal, &h.Evidence, &h.Name.Zh, &h.Name.En, &h.Title, &h.Status, &h.Source, &total); err != nil {
			return nil, 0, err
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	if len(out) == 0 && q.Offset > 0 {
		err = s.db.QueryRowContext(ctx, "SELECT count(*) FROM search_docs d WHERE "+where, args...).Scan(&total)
	}
	return out, total, err
}

// rareEnough is the number of documents under which a bigram's are few
// enough to check each: the first such bigram of the query is taken, and
// no bigram's documents are counted past it. When every bigram is
// commoner, the query matches many documents anyway, and which bigram's
// documents are checked matters little.
const rareEnough = 64

// searchWhere is the condition on search_docs d that q asks for, and its
// arguments; "" when q matches nothing.
func (s *Store) searchWhere(ctx context.Context, q SearchQuery) (string, []any, error) {
	text := SearchText(q.Text)
	if text == "" {
		return "", nil, nil
	}
	var sub string
	args := []any{q.Kind}
	if grams := bigrams(text); len(grams) == 0 {
		// One character: the bigrams that start with it, which every
		// document holding it has (a field's last character is followed by
		// its line feed).
		r, _ := utf8.DecodeRuneInString(text)
		sub = "SELECT DISTINCT doc FROM search_postings WHERE kind = ? AND gram BETWEEN ? AND ?"
		args = append(args, int64(r)<<gramShift, int64(r)<<gramShift|(1<<gramShift-1))
	} else {
		rarest, fewest := grams[0], rareEnough+1
		for _, g := range grams {
			var n int
			if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM (SELECT 1 FROM search_postings WHERE kind = ? AND gram = ? LIMIT ?)",
				q.Kind, g, rareEnough).Scan(&n); err != nil {
				return "", nil, err
			}
			if n == 0 {
				return "", nil, nil
			}
			if n < fewest {
				rarest, fewest = g, n
			}
			if n < rareEnough {
				break
			}
		}
		sub = "SELECT doc FROM search_postings WHERE kind = ? AND gram = ?"
		args = append(args, rarest)
	}
	where := "d.id IN (" + sub + ") AND instr(d.body, ?) > 0"
	args = append(args, text)
	if q.Ranking != "" {
		where += " AND d.ranking = ?"
		args = append(args, q.Ranking)
	}
	return where, args, nil
}
