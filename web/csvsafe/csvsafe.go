// Package csvsafe writes CSV that a spreadsheet opens as data, never as
// formulas. Every CSV Crossrank serves (an edition's ranking.csv, the audit
// export) goes through its Writer, so no download can run a formula that a
// proposal's author or an event's actor typed (OWASP's CSV injection).
package csvsafe

import (
	"encoding/csv"
	"io"
)

// Cell neutralises a cell that a spreadsheet would run as a formula: one
// starting with = + - @, a tab or a carriage return is prefixed with a
// single quote, which spreadsheets show as text and do not evaluate
// (OWASP's advice). Any other cell is returned unchanged, so numbers stay
// numbers: the numbers Crossrank writes (ranks, weights, scores 0–10,
// sequences) are never negative.
func Cell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}

// Writer is a csv.Writer that passes every cell through Cell.
type Writer struct {
	w   *csv.Writer
	rec []string
}

// NewWriter returns a Writer to w. crlf ends lines with CRLF (RFC 4180)
// instead of LF.
func NewWriter(w io.Writer, crlf bool) *Writer {
	cw := csv.NewWriter(w)
	cw.UseCRLF = crlf
	return &Writer{w: cw}
}

// Write writes one record, each cell neutralised; the caller's slice is
// left as it was.
func (w *Writer) Write(record []string) error {
	w.rec = w.rec[:0]
	for _, c := range record {
		w.rec = append(w.rec, Cell(c))
	}
	return w.w.Write(w.rec)
}

// Flush writes any buffered data to the underlying writer.
func (w *Writer) Flush() { w.w.Flush() }

// Error reports any error of a previous Write or Flush.
func (w *Writer) Error() error { return w.w.Error() }
