// Package rankfile reads and writes the ranking file: one JSON document
// holding a ranking's methodology and, optionally, its entries with their
// evidence, scores and attributes (docs/ranking-file.md). Import turns a
// file into proposals for review; Export writes a ranking's published
// edition. Nothing here publishes: the reviewers and a publisher do.
package rankfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/strictjson"
	"github.com/crossrank/crossrank/events"
)

// Format is the value of a ranking file's "format" field.
const Format = "crossrank.ranking/v1"

// MaxSize bounds a ranking file: 10,000 entries × 10 criteria × 3
// evidence items fit with room to spare; a larger file is refused before
// it is decoded.
const MaxSize = 32 << 20

// ErrTooLarge refuses a file of more than MaxSize bytes.
var ErrTooLarge = fmt.Errorf("ranking file: larger than %d MiB", MaxSize>>20)

// ErrNotUTF8 refuses a file that is not valid UTF-8 (a JSON decoder would
// silently replace the bad bytes).
var ErrNotUTF8 = errors.New("ranking file: not valid UTF-8")

// File is a ranking file.
type File struct {
	Format      string             `json:"format"`
	Slug        string             `json:"slug"`
	Methodology events.Methodology `json:"methodology"`
	// Edition and SnapshotHash say which published edition an export
	// holds; import ignores them.
	Edition      int     `json:"edition,omitempty"`
	SnapshotHash string  `json:"snapshot_hash,omitempty"`
	Entries      []Entry `json:"entries,omitempty"`
}

// Entry is one thing ranked, with what supports its values.
type Entry struct {
	Slug        string      `json:"slug"`
	Name        events.Text `json:"name"`
	Category    string      `json:"category"`
	Website     string      `json:"website,omitempty"`
	Description events.Text `json:"description"`
	Evidence    []Evidence  `json:"evidence,omitempty"`
	Scores      []Score     `json:"scores,omitempty"`
	Attributes  []Attribute `json:"attributes,omitempty"`
}

// Evidence is one source item; Key names it within its entry, and scores
// and attributes cite it by that key.
type Evidence struct {
	Key string `json:"key"`
	// Claim is {"zh", "en"}; a file may give one string instead (as
	// files did before claims were bilingual), read as the language it is
	// written in (domain.TextField).
	Claim        domain.TextField `json:"claim"`
	SourceURL    string           `json:"source_url,omitempty"`
	SourceName   string           `json:"source_name,omitempty"`
	Section      string           `json:"section,omitempty"`
	Excerpt      string           `json:"excerpt"`
	ObservedOn   string           `json:"observed_on"` // YYYY-MM-DD
	ValidForDays int              `json:"valid_for_days,omitempty"`
	// Tier is the evidence's provenance: "vendor" (the vendor's own claim),
	// "third_party" (a third-party report) or "own" (the editors' own
	// measurement); "" when not stated.
	Tier string `json:"tier,omitempty"`
}

// Score is a criterion's value (0–10) with its rationale and evidence keys.
type Score struct {
	Criterion string           `json:"criterion"`
	Value     int              `json:"value"`
	Rationale domain.TextField `json:"rationale"` // as Evidence.Claim
	Evidence  []string         `json:"evidence"`
}

// Attribute is an attribute's tags with their rationale and evidence keys.
type Attribute struct {
	Key       string           `json:"key"`
	Tags      []string         `json:"tags"`
	Rationale domain.TextField `json:"rationale"` // as Evidence.Claim
	Evidence  []string         `json:"evidence"`
}

// Decode reads one ranking file strictly: at most MaxSize bytes, valid
// UTF-8, no key twice in an object, no lone surrogate escape (StrictError
// names the path), no nesting deeper than strictjson.MaxDepth (a
// domain.FieldError of the file), no unknown field, nothing after the
// document, the right format.
// The contents are checked against the domain's rules by Import.
func Decode(r io.Reader) (*File, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("ranking file: %w", err)
	}
	if len(b) > MaxSize {
		return nil, ErrTooLarge
	}
	if !utf8.Valid(b) {
		return nil, ErrNotUTF8
	}
	if err := strictjson.Check(b); err != nil {
		var se *strictjson.Error
		if errors.As(err, &se) && se.Reason == strictjson.ReasonTooDeep {
			return nil, domain.Invalid("file", "field.too_deep", domain.Args{"limit": strictjson.MaxDepth})
		}
		return nil, fmt.Errorf("ranking file: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("ranking file: %w", err)
	}
	if dec.More() {
		return nil, errors.New("ranking file: more than one JSON document")
	}
	if f.Format != Format {
		return nil, fmt.Errorf("ranking file: format is %q, want %q", f.Format, Format)
	}
	return &f, nil
}

// Encode writes f as indented JSON, the way export writes it.
func Encode(w io.Writer, f *File) error {
	f.Format = Format
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(f)
}
