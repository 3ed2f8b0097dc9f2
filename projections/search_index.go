package projections

import (
	"cmp"
	"crypto/sha256"
	"database/sql/driver"
	"encoding/binary"
	"slices"
	"strings"
	"unicode"
)

// The search index (migrations 014 and 025) is derived from the entries,
// proposals and evidence tables: triggers on them note the documents a
// statement changed in search_dirty, and indexSearch re-indexes those
// before the transaction commits. Nothing else writes it, so a replay —
// live in small batches or a rebuild in large ones — writes the same rows,
// and verify compares them like any other table. Only where a bigram row
// sits differs: the live projection adds them to search_grams_recent and
// moves them into search_grams in bulk, a rebuild writes search_grams
// directly, and search, verify and Dump read the two as one
// (search_postings).

// Search document kinds.
const (
	SearchEntry    = "entry"
	SearchProposal = "proposal"
	SearchEvidence = "evidence"
)

// docKey names a search document: an entry (ranking, slug), a proposal
// (id, "") or evidence (proposal, evidence id).
type docKey struct{ kind, a, b string }

// docText is a document's ranking and normalised text.
type docText struct{ ranking, body string }

// sources read the current text of every dirty document of a kind, in one
// query each (a rebuild runs its statements on another goroutine, and every
// read waits for them: one read per document would wait thousands of times).
var sources = map[string]string{
	SearchEntry: `SELECT s.a, s.b, e.ranking, e.name_zh, e.name_en, e.slug FROM search_dirty s
		JOIN entries e ON e.ranking = s.a AND e.slug = s.b WHERE s.kind = 'entry'`,
	SearchProposal: `SELECT s.a, s.b, p.ranking, p.title FROM search_dirty s
		JOIN proposals p ON p.id = s.a WHERE s.kind = 'proposal'`,
	SearchEvidence: `SELECT s.a, s.b, coalesce(p.ranking, ''), e.claim, e.excerpt, e.source_url FROM search_dirty s
		JOIN evidence e ON e.proposal = s.a AND e.evidence_id = s.b
		LEFT JOIN proposals p ON p.id = e.proposal
		WHERE s.kind = 'evidence' AND e.removed_revision IS NULL`,
}

// sourceText is the document a row of sources holds: its ranking and its
// normalised text (the columns after the key and the ranking).
func sourceText(row []driver.Value) docText {
	fields := make([]string, 0, len(row)-3)
	for _, v := range row[3:] {
		fields = append(fields, colText(v))
	}
	return docText{ranking: colText(row[2]), body: searchBody(fields...)}
}

// searchDocsInto names search_docs' columns in the order the index writes them.
const searchDocsInto = "search_docs(id, kind, a, b, ranking, body)"

// indexSearch re-indexes the documents marked dirty and clears the marks.
func (p *projector) indexSearch() error {
	w := p.w
	var dirty []docKey
	err := w.query(`SELECT kind, a, b FROM search_dirty ORDER BY kind, a, b`, nil, func(row []driver.Value) error {
		dirty = append(dirty, docKey{colText(row[0]), colText(row[1]), colText(row[2])})
		return nil
	})
	if err != nil || len(dirty) == 0 {
		return err
	}
	old := map[docKey]string{}
	err = w.query(`SELECT d.kind, d.a, d.b, d.body FROM search_dirty s
		JOIN search_docs d ON d.kind = s.kind AND d.a = s.a AND d.b = s.b`, nil, func(row []driver.Value) error {
		old[docKey{colText(row[0]), colText(row[1]), colText(row[2])}] = colText(row[3])
		return nil
	})
	if err != nil {
		return err
	}
	now := map[docKey]docText{}
	for _, kind := range []string{SearchEntry, SearchProposal, SearchEvidence} {
		err := w.query(sources[kind], nil, func(row []driver.Value) error {
			now[docKey{kind, colText(row[0]), colText(row[1])}] = sourceText(row)
			return nil
		})
		if err != nil {
			return err
		}
	}
	// New bigrams are inserted many rows a statement, in index order.
	type gramRow struct {
		kind      string
		gram, doc int64
	}
	var grams []gramRow
	var docs []any
	for _, k := range dirty {
		cur := now[k]
		if cur.body == old[k] {
			continue
		}
		id := searchID(k)
		for _, g := range bigrams(old[k]) {
			for _, table := range [...]string{"search_grams", "search_grams_recent"} {
				if err := w.exec(`DELETE FROM `+table+` WHERE kind=? AND gram=? AND doc=?`, k.kind, g, id); err != nil {
					return err
				}
			}
		}
		if cur.body == "" {
			if err := w.exec(`DELETE FROM search_docs WHERE id=?`, id); err != nil {
				return err
			}
			continue
		}
		for _, g := range bigrams(cur.body) {
			grams = append(grams, gramRow{k.kind, g, id})
		}
		docs = append(docs, id, k.kind, k.a, k.b, cur.ranking, cur.body)
	}
	slices.SortFunc(grams, func(x, y gramRow) int {
		return cmp.Or(strings.Compare(x.kind, y.kind), cmp.Compare(x.gram, y.gram), cmp.Compare(x.doc, y.doc))
	})
	values := make([]any, 0, 3*len(grams))
	for _, g := range grams {
		values = append(values, g.kind, g.gram, g.doc)
	}
	if err := p.mergeRecentGrams(); err != nil {
		return err
	}
	if err := p.insertRows("search_grams_recent(kind, gram, doc)", 3, values); err != nil {
		return err
	}
	*p.recentGrams += len(grams)
	if err := p.insertRows(searchDocsInto, 6, docs,
		"ON CONFLICT(id) DO UPDATE SET body=excluded.body, ranking=excluded.ranking"); err != nil {
		return err
	}
	return w.exec(`DELETE FROM search_dirty`)
}

// searchMergeAt is the size of search_grams_recent at which a commit that
// indexes first moves its rows into search_grams (migration 025). With
// every bigram inserted into search_grams, the live projection of a
// 3,000-event history cost 2.7 ms an event committed one at a time, 1.2 ms
// eight at a time, 0.28 ms a hundred at a time; with this table, 1.8–2.0,
// 0.72–0.81 and 0.26 ms (BenchmarkLiveApply). (A variable for the
// package's tests, which make it small.)
var searchMergeAt = 1 << 16

// mergeRecentGrams moves search_grams_recent's rows into search_grams
// once it holds searchMergeAt or more, before a commit adds its own. The
// count is the Store's (recentGrams), read from the table when unknown: at
// open, and after a transaction that did not commit.
func (p *projector) mergeRecentGrams() error {
	if *p.recentGrams < 0 {
		row, err := p.w.queryRow("SELECT count(*) FROM search_grams_recent")
		if err != nil {
			return err
		}
		*p.recentGrams = int(colInt(row[0]))
	}
	if *p.recentGrams < searchMergeAt {
		return nil
	}
	if err := p.w.exec(`INSERT INTO search_grams(kind, gram, doc)
		SELECT kind, gram, doc FROM search_grams_recent ORDER BY kind, gram, doc`); err != nil {
		return err
	}
	if err := p.w.exec(`DELETE FROM search_grams_recent`); err != nil {
		return err
	}
	*p.recentGrams = 0
	return nil
}

// searchID is a document's row id: the first 63 bits of SHA-256 of its
// key, the same whatever order documents are indexed in.
func searchID(k docKey) int64 {
	h := sha256.Sum256([]byte(k.kind + "\x00" + k.a + "\x00" + k.b))
	return int64(binary.BigEndian.Uint64(h[:8]) >> 1)
}

// searchBody is the indexed text of fields: each normalised (see
// normaliseSearch) and ended by a line feed, so the last character of a
// field starts a bigram too (what a one-character query looks for) and no
// bigram spans two fields.
func searchBody(fields ...string) string {
	var b strings.Builder
	for _, f := range fields {
		if f = normaliseSearch(f); f != "" {
			b.WriteString(f)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// normaliseSearch lowers the case and turns every run of white space
// (line feeds included) into one space, trimmed at both ends.
func normaliseSearch(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), unicode.IsSpace), " ")
}

// gramShift packs two code points (each below 1<<21) in one integer.
const gramShift = 21

// bigrams returns the distinct bigrams of body that start with a character
// of a field (not with a field's closing line feed), sorted.
func bigrams(body string) []int64 {
	rs := []rune(body)
	out := make([]int64, 0, len(rs))
	for i := 0; i+1 < len(rs); i++ {
		if rs[i] == '\n' {
			continue
		}
		out = append(out, int64(rs[i])<<gramShift|int64(rs[i+1]))
	}
	slices.Sort(out)
	return slices.Compact(out)
}
