package rankfile

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// The ranking CSV is one row per entry and criterion, for a ranking that
// exists (docs/ranking-csv.md). Its header names the columns, in any
// order; entry, criterion and score are required. The columns the site's
// own download (ranking.csv) adds, rank, weight, evidence and tier, are read
// and ignored, so an edition's download reads back as a file that
// changes nothing.

// CSV columns.
const (
	colEntry       = "entry"
	colNameZh      = "entry_name_zh"
	colNameEn      = "entry_name_en"
	colCategory    = "category"
	colCriterion   = "criterion"
	colScore       = "score"
	colRationale   = "rationale" // one string, as before issue 43: see textCells
	colClaim       = "evidence_claim"
	colRationaleZh = "rationale_zh"
	colRationaleEn = "rationale_en"
	colClaimZh     = "evidence_claim_zh"
	colClaimEn     = "evidence_claim_en"
	colSourceURL   = "source_url"
	colSourceName  = "source_name"
	colExcerpt     = "excerpt"
	colObservedOn  = "observed_on"
)

// csvColumns are the columns DecodeCSV reads; csvIgnored those it skips.
var (
	csvColumns = []string{colEntry, colNameZh, colNameEn, colCategory, colCriterion, colScore, colRationale,
		colRationaleZh, colRationaleEn, colClaim, colClaimZh, colClaimEn, colSourceURL, colSourceName, colExcerpt, colObservedOn}
	csvRequired = []string{colEntry, colCriterion, colScore}
	csvIgnored  = []string{"rank", "weight", "evidence", "tier"}
)

// CSVLocator places a CSV's problems on its rows and columns.
type CSVLocator struct {
	header []string       // the columns, in file order
	rows   map[string]int // "entries[3]", "entries[3].scores[1]", "entries[3].evidence[1]" → line
}

// DecodeCSV reads a ranking CSV for ranking slug, whose methodology is m
// (a CSV holds none: the file it makes carries m, so importing it opens
// no methodology proposal). Each row with a score becomes a score of its
// entry; a row with an evidence claim, source, excerpt or date adds that
// evidence item (keyed by the criterion) and its score cites it. A row
// with an empty score and no evidence is skipped, as the site's download
// writes a criterion its entry has no score on. Mistakes of form (a row's
// cell count, a score that is not a whole number, a missing column) come
// back as Problems placed on their line and column.
func DecodeCSV(r io.Reader, slug string, m events.Methodology) (*File, *CSVLocator, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, nil, fmt.Errorf("ranking CSV: %w", err)
	}
	if len(b) > MaxSize {
		return nil, nil, ErrTooLarge
	}
	if !utf8.Valid(b) {
		return nil, nil, ErrNotUTF8
	}
	b = bytes.TrimPrefix(b, []byte("\ufeff")) // spreadsheets write a byte-order mark
	cr := csv.NewReader(bytes.NewReader(b))
	loc := &CSVLocator{rows: map[string]int{}}
	head, err := cr.Read()
	if err != nil {
		return nil, nil, csvProblem(loc, err)
	}
	loc.header = slices.Clone(head)
	col := map[string]int{}
	for i, h := range head {
		switch {
		case slices.Contains(csvColumns, h) && col[h] == 0:
			col[h] = i + 1 // 0: absent
		case slices.Contains(csvIgnored, h):
		default:
			return nil, nil, Problems{{Line: 1, Column: i + 1, Header: h, Err: csvError("header", "csv.unknown_column", h)}}
		}
	}
	for _, h := range csvRequired {
		if col[h] == 0 {
			return nil, nil, Problems{{Line: 1, Err: csvError("header", "csv.missing_column", h)}}
		}
	}
	f := &File{Format: Format, Slug: slug, Methodology: m}
	at := map[string]int{} // entry slug → index in f.Entries
	var probs Problems
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, csvProblem(loc, err)
		}
		line, _ := cr.FieldPos(0)
		cell := func(name string) string {
			if col[name] == 0 {
				return ""
			}
			return rec[col[name]-1]
		}
		ev := Evidence{Key: cell(colCriterion), Claim: textCells(cell, colClaim, colClaimZh, colClaimEn), SourceURL: cell(colSourceURL), SourceName: cell(colSourceName),
			Excerpt: cell(colExcerpt), ObservedOn: cell(colObservedOn)}
		hasEvidence := ev != Evidence{Key: ev.Key}
		if cell(colScore) == "" && !hasEvidence {
			continue
		}
		value, err := strconv.Atoi(strings.TrimSpace(cell(colScore)))
		if err != nil {
			probs = append(probs, Problem{Line: line, Column: col[colScore], Header: colScore,
				Err: domain.Invalid("score", "field.whole_number", nil)})
			if len(probs) >= maxProblems {
				break
			}
			continue
		}
		slugOf := cell(colEntry)
		i, ok := at[slugOf]
		if !ok {
			i = len(f.Entries)
			at[slugOf] = i
			f.Entries = append(f.Entries, Entry{Slug: slugOf, Name: events.Text{Zh: cell(colNameZh), En: cell(colNameEn)},
				Category: cell(colCategory)})
			loc.rows[fmt.Sprintf("entries[%d]", i)] = line
		}
		e := &f.Entries[i]
		s := Score{Criterion: cell(colCriterion), Value: value,
			Rationale: textCells(cell, colRationale, colRationaleZh, colRationaleEn)}
		if hasEvidence {
			loc.rows[fmt.Sprintf("entries[%d].evidence[%d]", i, len(e.Evidence))] = line
			e.Evidence = append(e.Evidence, ev)
			s.Evidence = []string{ev.Key}
		}
		loc.rows[fmt.Sprintf("entries[%d].scores[%d]", i, len(e.Scores))] = line
		e.Scores = append(e.Scores, s)
	}
	if len(probs) > 0 {
		return nil, nil, probs
	}
	return f, loc, nil
}

// textCells reads a claim or a rationale from a row: its _zh and _en
// cells when either is filled, else the one-language column of CSVs
// written before claims were bilingual, read as the language it is written
// in (events.TextFrom, as a ranking file's string claim is).
func textCells(cell func(string) string, one, zh, en string) domain.TextField {
	if t := (domain.TextField{Zh: cell(zh), En: cell(en)}); t != (domain.TextField{}) {
		return t
	}
	if s := cell(one); s != "" {
		return domain.TextField(events.TextFrom(s))
	}
	return domain.TextField{}
}

// csvProblem places the csv package's parse error on its line and column.
func csvProblem(loc *CSVLocator, err error) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return fmt.Errorf("ranking CSV: %w", err)
	}
	code := "csv.syntax"
	if errors.Is(pe.Err, csv.ErrFieldCount) {
		code = "csv.field_count"
	}
	p := Problem{Line: pe.Line, Column: pe.Column, Err: csvError("row", code, pe.Err.Error())}
	if errors.Is(pe.Err, csv.ErrFieldCount) {
		p.Column = 0
	}
	return Problems{p}
}

// csvFields maps a field the domain names to the column that holds it.
var csvFields = map[string]string{
	"slug": colEntry, "name": colNameZh, "name.zh": colNameZh, "name.en": colNameEn, "category": colCategory,
	"criterion": colCriterion, "value": colScore, "rationale": colRationale, "evidence": colClaim,
	"rationale.zh": colRationaleZh, "rationale.en": colRationaleEn, "claim.zh": colClaimZh, "claim.en": colClaimEn,
	"key": colCriterion, "claim": colClaim, "source_url": colSourceURL, "source_name": colSourceName,
	"excerpt": colExcerpt, "observed_on": colObservedOn, "": colClaim, // a change cites no evidence
}

// csvAlternates are the other columns that may hold a field's text.
var csvAlternates = map[string][]string{
	colClaim:     {colClaimEn, colClaimZh},
	colRationale: {colRationaleEn, colRationaleZh},
}

// Locate places each problem on the row its path came from and, when its
// field has a column, on that column.
func (l *CSVLocator) Locate(ps Problems) {
	for i := range ps {
		p := &ps[i]
		if p.Line > 0 {
			continue
		}
		path := p.Path
		for path != "" {
			if line, ok := l.rows[path]; ok {
				p.Line = line
				break
			}
			path = parentPath(path)
		}
		field := ""
		var fe *domain.FieldError
		if errors.As(p.Err, &fe) {
			field = fe.Field
		}
		if name, ok := csvFields[field]; ok {
			// A claim or a rationale missing in both languages may sit in
			// the old one-language column or in the bilingual ones.
			for _, name := range append([]string{name}, csvAlternates[name]...) {
				if j := slices.Index(l.header, name); j >= 0 {
					p.Column, p.Header = j+1, name
					break
				}
			}
		}
	}
}

// parentPath is path less its last part: "entries[3].scores[1]" → "entries[3]".
func parentPath(path string) string {
	if i := strings.LastIndexAny(path, ".["); i > 0 {
		return path[:i]
	}
	return ""
}

// csvEnglish words the CSV's own error codes for the command line; the
// web's catalogs word them for a page.
var csvEnglish = map[string]string{
	"csv.unknown_column": "is not a column of the ranking CSV: %q",
	"csv.missing_column": "lacks the required column %q",
	"csv.syntax":         "cannot be read as CSV: %s",
	"csv.field_count":    "has a different number of cells than the header: %s",
}

// csvError is a field error of the CSV's form, its value in Args["value"].
func csvError(field, code, value string) *domain.FieldError {
	return &domain.FieldError{Field: field, Code: code, Args: domain.Args{"value": value}, Msg: fmt.Sprintf(csvEnglish[code], value)}
}
