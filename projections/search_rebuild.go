package projections

import (
	"database/sql/driver"
	"maps"
	"slices"
	"strconv"
)

// A rebuild leaves search_dirty to fill during the load and indexes every
// document once at its end (indexAllSearch), instead of at each commit as
// the live projection does.
//
// The index holds a row per distinct bigram per document — at 100k events
// about 4.3 million rows against some 160 thousand in every other table
// together — and each commit's rows landed all over the table's key range:
// SQLite rewrote pages across the whole B-tree at every commit, three bound
// values a row. At the end, the rows go in in key order instead, a bigram's
// documents as one JSON array spread by json_each, so SQLite appends pages
// and binds one value per bigram. The rows are those the live projection
// writes: the same documents, read by the same queries, worded by the same
// functions (TestReplayIsDeterministic and verify compare them).

// searchChunk is how many documents indexAllSearch reads at a time.
const searchChunk = 2000

// searchPassPostings bounds the (bigram, document) pairs one pass holds in
// memory (8 bytes each, in slices of their exact size): a rebuild of a
// million events makes tens of millions, in passes over the documents.
const searchPassPostings = 4 << 20

// indexAllSearch indexes the documents marked in search_dirty of a new
// file (one with no search rows yet) and clears the marks.
func indexAllSearch(w *wconn) error {
	// Synchronous from here: a bigram's document list is one string of up
	// to megabytes, and the pipeline would hold many at once.
	if err := w.unpipelined(); err != nil {
		return err
	}
	if err := w.run("BEGIN"); err != nil {
		return err
	}
	err := indexAllSearchIn(w)
	if err == nil {
		err = w.run("DELETE FROM search_dirty")
	}
	if err != nil {
		w.run("ROLLBACK")
		return err
	}
	return w.run("COMMIT")
}

func indexAllSearchIn(w *wconn) error {
	// Kinds in key order: search_grams is keyed by (kind, gram, doc).
	for _, kind := range []string{SearchEntry, SearchEvidence, SearchProposal} {
		counts, err := writeSearchDocs(w, kind)
		if err != nil {
			return err
		}
		// Bigrams in ranges of about searchPassPostings pairs, a pass each.
		grams := slices.Sorted(maps.Keys(counts))
		for len(grams) > 0 {
			n, held := 0, 0
			for n < len(grams) && (n == 0 || held+counts[grams[n]] <= searchPassPostings) {
				held += counts[grams[n]]
				n++
			}
			if err := writeSearchGrams(w, kind, grams[:n], counts); err != nil {
				return err
			}
			grams = grams[n:]
		}
	}
	return nil
}

// writeSearchDocs writes the search_docs rows of the kind's marked
// documents, a chunk at a time in key order, and counts each bigram's
// documents.
func writeSearchDocs(w *wconn, kind string) (map[int64]int, error) {
	p := &projector{w: w}
	counts := map[int64]int{}
	var a, b string // the last key read; every key is greater than ("", "")
	for {
		var docs []any
		n := 0
		err := w.query(sources[kind]+` AND (s.a, s.b) > (?, ?) ORDER BY s.a, s.b LIMIT ?`, []any{a, b, searchChunk},
			func(row []driver.Value) error {
				n++
				a, b = colText(row[0]), colText(row[1])
				doc := sourceText(row)
				if doc.body == "" {
					return nil
				}
				for _, g := range bigrams(doc.body) {
					counts[g]++
				}
				docs = append(docs, searchID(docKey{kind, a, b}), kind, a, b, doc.ranking, doc.body)
				return nil
			})
		if err != nil {
			return nil, err
		}
		if err := p.insertRows(searchDocsInto, 6, docs); err != nil {
			return nil, err
		}
		if n < searchChunk {
			return counts, nil
		}
	}
}

// writeSearchGrams reads the kind's documents again and inserts the rows
// of the bigrams grams (sorted, each with counts[g] documents), in key
// order.
func writeSearchGrams(w *wconn, kind string, grams []int64, counts map[int64]int) error {
	postings := make(map[int64][]int64, len(grams))
	for _, g := range grams {
		postings[g] = make([]int64, 0, counts[g])
	}
	lo, hi := grams[0], grams[len(grams)-1]
	err := w.query(`SELECT id, body FROM search_docs WHERE kind = ?`, []any{kind}, func(row []driver.Value) error {
		doc := colInt(row[0])
		for _, g := range bigrams(colText(row[1])) {
			if g >= lo && g <= hi {
				postings[g] = append(postings[g], doc)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	var list []byte
	for _, g := range grams {
		docs := postings[g]
		delete(postings, g) // what is written need not stay
		slices.Sort(docs)
		list = append(list[:0], '[')
		for i, d := range docs {
			if i > 0 {
				list = append(list, ',')
			}
			list = strconv.AppendInt(list, d, 10)
		}
		list = append(list, ']')
		if err := w.exec(`INSERT INTO search_grams(kind, gram, doc) SELECT ?, ?, value FROM json_each(?)`, kind, g, string(list)); err != nil {
			return err
		}
	}
	return nil
}
