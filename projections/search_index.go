package projections

import (
	"cmp"
	"crypto/sha256"
	"database/sql/driver"
	"encoding/binary"
	"encoding/hex"
	"slices"
	"strings"
)

// The search index (migrations 014 and 026) is derived from the entries,
// proposals and evidence tables: triggers on them note the documents a
// statement changed in search_dirty, and indexSearch re-indexes those
// before the transaction commits. Nothing else writes it, so a replay —
// live in small batches or a rebuild in large ones — writes the same
// search_docs rows, and verify compares them like any other table; the
// full-text index's own tables (search_fts_*) hold the same terms in
// segments that depend on the order of merges, and are not compared.

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
	SearchEvidence: `SELECT s.a, s.b, coalesce(p.ranking, ''), e.claim_zh, e.claim_en, e.excerpt, e.source_url FROM search_dirty s
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

// ftsTable is the full-text index of a kind's documents.
func ftsTable(kind string) string { return "search_fts_" + kind }

// searchScope is a ranking's token in the index (search_docs.scope).
func searchScope(ranking string) string {
	return "r" + strings.ToUpper(hex.EncodeToString([]byte(ranking)))
}

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
	old := map[docKey]docText{}
	err = w.query(`SELECT d.kind, d.a, d.b, d.ranking, d.body FROM search_dirty s
		JOIN search_docs d ON d.kind = s.kind AND d.a = s.a AND d.b = s.b`, nil, func(row []driver.Value) error {
		old[docKey{colText(row[0]), colText(row[1]), colText(row[2])}] = docText{colText(row[3]), colText(row[4])}
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
	// FTS reads the terms to delete from search_docs' old row, so the old
	// documents leave the index before their rows change. It keeps a
	// transaction's terms in memory while documents come in rising id
	// order, and writes them out at a smaller id: deletes and inserts go
	// in id order each.
	type change struct {
		kind string
		id   int64
		doc  docText
	}
	var gone, added []change
	var removed, docs []any
	for _, k := range dirty {
		cur, was := now[k], old[k]
		if cur == was {
			continue
		}
		id := searchID(k)
		if was.body != "" {
			gone = append(gone, change{k.kind, id, was})
		}
		if cur.body == "" {
			removed = append(removed, id)
			continue
		}
		added = append(added, change{k.kind, id, cur})
		docs = append(docs, id, k.kind, k.a, k.b, cur.ranking, cur.body)
	}
	byID := func(x, y change) int { return cmp.Compare(x.id, y.id) }
	slices.SortFunc(gone, byID)
	slices.SortFunc(added, byID)
	for _, c := range gone {
		if err := w.exec(`DELETE FROM `+ftsTable(c.kind)+` WHERE docid = ?`, c.id); err != nil {
			return err
		}
	}
	for _, id := range removed {
		if err := w.exec(`DELETE FROM search_docs WHERE id = ?`, id); err != nil {
			return err
		}
	}
	if err := p.insertRows(searchDocsInto, 6, docs,
		"ON CONFLICT(id) DO UPDATE SET body=excluded.body, ranking=excluded.ranking"); err != nil {
		return err
	}
	for _, c := range added {
		if err := w.exec(`INSERT INTO `+ftsTable(c.kind)+`(docid, body, scope) VALUES (?, ?, ?)`,
			c.id, c.doc.body, searchScope(c.doc.ranking)); err != nil {
			return err
		}
	}
	return w.exec(`DELETE FROM search_dirty`)
}

// searchID is a document's row id: the first 63 bits of SHA-256 of its
// key, the same whatever order documents are indexed in.
func searchID(k docKey) int64 {
	h := sha256.Sum256([]byte(k.kind + "\x00" + k.a + "\x00" + k.b))
	return int64(binary.BigEndian.Uint64(h[:8]) >> 1)
}
