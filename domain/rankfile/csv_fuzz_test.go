package rankfile_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/rankfile"
)

// FuzzDecodeCSV: any input is refused with problems placed on a line, or
// reads as entries whose every score and evidence item the locator places
// on a line of the input.
func FuzzDecodeCSV(f *testing.F) {
	f.Add([]byte("entry,criterion,score\r\na,gpu-coverage,5\r\n"))
	f.Add([]byte("rank,entry,entry_name_en,entry_name_zh,category,criterion,weight,score,evidence\r\n1,a,A,甲,c,k,10,3,p/e1\r\n1,a,A,甲,c,j,10,,\r\n"))
	f.Add([]byte("entry,criterion,score,evidence_claim,source_url,excerpt,observed_on\na,k,x,c,https://e.org,q,2026-01-01\n"))
	f.Add([]byte("entry,criterion,score,bogus\na,k,1,\n"))
	f.Add([]byte("\ufeffentry,criterion,score\n\"a,k,1\n"))
	m := demo.File().Methodology
	f.Fuzz(func(t *testing.T, b []byte) {
		file, loc, err := rankfile.DecodeCSV(bytes.NewReader(b), "x", m)
		var probs rankfile.Problems
		if errors.As(err, &probs) {
			for _, p := range probs {
				if p.Line < 1 {
					t.Fatalf("a problem without its line: %v", p)
				}
			}
			return
		}
		if err != nil {
			return // too large, not UTF-8
		}
		var ps rankfile.Problems
		for i, e := range file.Entries {
			for j := range e.Scores {
				ps = append(ps, rankfile.Problem{Path: path(i, "scores", j), Err: domain.Invalid("value", "field.score", nil)})
			}
			for j := range e.Evidence {
				ps = append(ps, rankfile.Problem{Path: path(i, "evidence", j), Err: domain.Invalid("claim", "field.required", nil)})
			}
		}
		loc.Locate(ps)
		for _, p := range ps {
			if p.Line < 2 || p.Column < 1 {
				t.Fatalf("%s not placed on a row and column: line %d, column %d", p.Path, p.Line, p.Column)
			}
		}
	})
}

func path(i int, list string, j int) string {
	return "entries[" + itoa(i) + "]." + list + "[" + itoa(j) + "]"
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
