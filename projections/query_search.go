package projections

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/crossrank/crossrank/events"
)

// SearchQuery asks the search index for documents of one kind whose text
// holds the words of Text, and its Chinese as substrings (see
// search_text.go).
type SearchQuery struct {
	Text    string
	Kind    string // SearchEntry, SearchProposal or SearchEvidence
	Ranking string // "": every ranking
	Limit   int    // 0: every hit among the candidates
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
	Title    string      // the proposal's title
	Claim    events.Text // the evidence's claim (evidence)
	Status   string      // the proposal's status (proposals, evidence)
	Source   string      // the evidence's source URL
	Snippet  []SnippetPart
}

// SearchResults is a page of hits, best first, and how many matched:
// Total counts at most SearchCandidates; More reports that more did.
type SearchResults struct {
	Hits  []SearchHit
	Total int
	More  bool
}

// SearchCandidates bounds the cost of a search: it reads the first
// SearchCandidates matches in the index's order, ranks them and shows a
// page of them. A query matching more is told so (More) and shows the best
// of those; a longer query narrows it.
const SearchCandidates = 1000

// searchPages read hits of each kind with what they show, the snippet
// last; the columns are those of Search's scan. (FTS's functions name
// the table itself, not an alias.) The index is read first (CROSS JOIN
// keeps SQLite from reordering it): with search_docs first, by the page's
// ids, the full-text query ran again for each hit of the page.
var searchPages = map[string]string{
	SearchEntry: `SELECT search_fts_entry.docid, d.ranking, e.slug, '', '', e.name_zh, e.name_en, '', '', '', ` + snippetOf("search_fts_entry") + `
		FROM search_fts_entry CROSS JOIN search_docs d ON d.id = search_fts_entry.docid
		JOIN entries e ON e.ranking = d.a AND e.slug = d.b
		WHERE search_fts_entry MATCH ?`,
	SearchProposal: `SELECT search_fts_proposal.docid, d.ranking, p.entry, p.id, '', '', '', p.title, p.status, '', ` + snippetOf("search_fts_proposal") + `
		FROM search_fts_proposal CROSS JOIN search_docs d ON d.id = search_fts_proposal.docid
		JOIN proposals p ON p.id = d.a
		WHERE search_fts_proposal MATCH ?`,
	SearchEvidence: `SELECT search_fts_evidence.docid, d.ranking, p.entry, p.id, e.evidence_id, e.claim_zh, e.claim_en, '', p.status, e.source_url, ` + snippetOf("search_fts_evidence") + `
		FROM search_fts_evidence CROSS JOIN search_docs d ON d.id = search_fts_evidence.docid
		JOIN evidence e ON e.proposal = d.a AND e.evidence_id = d.b JOIN proposals p ON p.id = d.a
		WHERE search_fts_evidence MATCH ?`,
}

// snippetOf is the snippet of table's body column, about 32 tokens
// around the matches (a Chinese character is about two: its bigram and
// the next one's), marked for readable.
func snippetOf(table string) string {
	return `snippet(` + table + `, '` + snippetOpen + `', '` + snippetClose + `', '…', 0, 32)`
}

// MaxSearchRunes bounds the text of a query.
const MaxSearchRunes = 100

// SearchText is the normalised form of a query, cut to MaxSearchRunes.
func SearchText(q string) string {
	q = normaliseSearch(q)
	if utf8.RuneCountInString(q) > MaxSearchRunes {
		q = string([]rune(q)[:MaxSearchRunes])
	}
	return q
}

// searchMatch is the FTS query q asks for; "" when q matches nothing.
func searchMatch(q SearchQuery) string {
	terms := queryTerms(SearchText(q.Text))
	if len(terms) == 0 {
		return ""
	}
	m := matchPhrase(terms)
	if q.Ranking != "" {
		m += " scope:" + searchScope(q.Ranking)
	}
	return m
}

// Search returns one page of the documents matching q, best first (bm25
// over FTS's matchinfo, then by id), and how many match. An empty query
// matches nothing. The desk's search page and GET /api/v1/search ask it;
// what one call costs is bounded by SearchCandidates and MaxSearchTerms,
// whatever the index holds.
func (s *Store) Search(ctx context.Context, q SearchQuery) (SearchResults, error) {
	match := searchMatch(q)
	if match == "" || searchPages[q.Kind] == "" {
		return SearchResults{}, nil
	}
	table := ftsTable(q.Kind)
	rows, err := s.db.QueryContext(ctx, candidatesOf(table), match, SearchCandidates+1)
	if err != nil {
		return SearchResults{}, err
	}
	defer rows.Close()
	type scored struct {
		id    int64
		score float64
	}
	var found []scored
	for rows.Next() {
		var c scored
		var info sql.RawBytes // read before the next row
		if err := rows.Scan(&c.id, &info); err != nil {
			return SearchResults{}, err
		}
		c.score = bm25(info)
		found = append(found, c)
	}
	if err := rows.Err(); err != nil {
		return SearchResults{}, err
	}
	out := SearchResults{Total: len(found)}
	if len(found) > SearchCandidates {
		found, out.Total, out.More = found[:SearchCandidates], SearchCandidates, true
	}
	slices.SortFunc(found, func(a, b scored) int { return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.id, b.id)) })
	from := min(q.Offset, len(found))
	to := len(found)
	if q.Limit > 0 {
		to = min(from+q.Limit, to)
	}
	page := found[from:to]
	if len(page) == 0 {
		return out, nil
	}
	at := make(map[int64]int, len(page))
	args := []any{match}
	for i, c := range page {
		at[c.id] = i
		args = append(args, c.id)
	}
	hits, err := s.db.QueryContext(ctx, pageOf(q.Kind, len(page)), args...)
	if err != nil {
		return SearchResults{}, err
	}
	defer hits.Close()
	out.Hits = make([]SearchHit, len(page))
	for hits.Next() {
		var id int64
		var snippet string
		h := SearchHit{Kind: q.Kind}
		if err := hits.Scan(&id, &h.Ranking, &h.Entry, &h.Proposal, &h.Evidence, &h.Name.Zh, &h.Name.En, &h.Title, &h.Status, &h.Source, &snippet); err != nil {
			return SearchResults{}, err
		}
		if q.Kind == SearchEvidence { // its claim came in the name's columns
			h.Claim, h.Name = h.Name, events.Text{}
		}
		h.Snippet = readable(snippet)
		out.Hits[at[id]] = h
	}
	if err := hits.Err(); err != nil {
		return SearchResults{}, err
	}
	// A document whose source row went between the two reads is left out.
	out.Hits = slices.DeleteFunc(out.Hits, func(h SearchHit) bool { return h.Kind == "" })
	return out, nil
}

// pageOf reads the hits of kind whose ids are its n arguments after the
// match.
func pageOf(kind string, n int) string {
	return searchPages[kind] + " AND " + ftsTable(kind) + ".docid IN (?" + strings.Repeat(", ?", n-1) + ")"
}

// candidatesOf reads the first matches of table in docid order, with what
// bm25 scores them by.
func candidatesOf(table string) string {
	return `SELECT docid, matchinfo(` + table + `, 'pcnaly') FROM ` + table + ` WHERE ` + table + ` MATCH ? LIMIT ?`
}

// bm25 scores a document from FTS's matchinfo 'pcnaly' (32-bit integers:
// phrases p, columns c, documents n, the average tokens a[c] of each
// column, the document's l[c], then for each phrase and column the hits
// in this document): Okapi BM25 over the body column (0), with k1 = 1.2
// and b = 0.75, without its IDF factor. A query is one phrase (and the
// scope column's, which only filters), so the IDF is the same for every
// document and orders nothing; asking FTS for it ('x') made it count the
// phrase's hits in every matching document first: 14.6 → 4.5 ms for a
// desk search of 按小时 at 10,000 entries, 13.8 → 2.3 ms for "cloud"
// matching every entry (BenchmarkSearch10k).
func bm25(info []byte) float64 {
	v := func(i int) float64 {
		if 4*i+4 > len(info) {
			return 0
		}
		return float64(binary.NativeEndian.Uint32(info[4*i:]))
	}
	const k1, b = 1.2, 0.75
	p, c := int(v(0)), int(v(1))
	avg, length := v(3), v(3+c)
	if avg == 0 {
		avg = 1
	}
	score := 0.0
	for i := range p {
		tf := v(3 + 2*c + i*c)
		if tf == 0 {
			continue
		}
		score += tf * (k1 + 1) / (tf + k1*(1-b+b*length/avg))
	}
	return score
}

// NamedEntries returns the slugs of ranking's entries whose name or slug
// matches text, every one (nil when text asks for nothing): a ranking page
// filters its list by them, so what it costs follows the ranking's size,
// not SearchCandidates.
func (s *Store) NamedEntries(ctx context.Context, ranking, text string) (map[string]bool, error) {
	match := searchMatch(SearchQuery{Text: text, Ranking: ranking})
	if match == "" {
		return map[string]bool{}, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT d.b FROM search_fts_entry CROSS JOIN search_docs d ON d.id = search_fts_entry.docid
		WHERE search_fts_entry MATCH ?`, match)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var slug string
		if err := rows.Scan(&slug); err != nil {
			return nil, err
		}
		out[slug] = true
	}
	return out, rows.Err()
}
