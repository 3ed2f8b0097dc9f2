package projections

import (
	"database/sql/driver"
)

// A rebuild leaves search_dirty to fill during the load and indexes every
// document once at its end (indexAllSearch), instead of at each commit as
// the live projection does: search_docs is written in key order, a chunk
// at a time, and each kind's full-text index is filled from it by one
// statement in id order, so FTS builds its segments from the terms of many
// documents at once. The rows are those the live projection writes: the
// same documents, read by the same queries, worded by the same functions
// (TestReplayIsDeterministic and verify compare them).

// searchChunk is how many documents indexAllSearch reads at a time.
const searchChunk = 2000

// indexAllSearch indexes the documents marked in search_dirty of a new
// file (one with no search rows yet) and clears the marks.
func indexAllSearch(w *wconn) error {
	if err := w.run("BEGIN"); err != nil {
		return err
	}
	err := indexAllSearchIn(w)
	if err == nil {
		err = w.exec("DELETE FROM search_dirty")
	}
	if err != nil {
		w.run("ROLLBACK")
		return err
	}
	return w.run("COMMIT")
}

func indexAllSearchIn(w *wconn) error {
	for _, kind := range []string{SearchEntry, SearchEvidence, SearchProposal} {
		if err := writeSearchDocs(w, kind); err != nil {
			return err
		}
		if err := w.exec(`INSERT INTO `+ftsTable(kind)+`(docid, body, scope)
			SELECT id, body, scope FROM search_docs WHERE kind = ? ORDER BY id`, kind); err != nil {
			return err
		}
	}
	return nil
}

// writeSearchDocs writes the search_docs rows of the kind's marked
// documents, a chunk at a time in key order.
func writeSearchDocs(w *wconn, kind string) error {
	p := &projector{w: w}
	var a, b string // the last key read; every key is greater than ("", "")
	for {
		var docs []any
		n := 0
		err := w.query(sources[kind]+` AND (s.a, s.b) > (?, ?) ORDER BY s.a, s.b LIMIT ?`, []any{a, b, searchChunk},
			func(row []driver.Value) error {
				n++
				a, b = colText(row[0]), colText(row[1])
				if doc := sourceText(row); doc.body != "" {
					docs = append(docs, searchID(docKey{kind, a, b}), kind, a, b, doc.ranking, doc.body)
				}
				return nil
			})
		if err != nil {
			return err
		}
		if err := p.insertRows(searchDocsInto, 6, docs); err != nil {
			return err
		}
		if n < searchChunk {
			return nil
		}
	}
}
