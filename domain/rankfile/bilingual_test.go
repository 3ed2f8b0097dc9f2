package rankfile_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/events"
)

// bilingualFile is a ranking file whose claims and rationales take both
// forms: the {zh, en} object, and the one string of files written before
// claims were bilingual.
const bilingualFile = `{"format": "crossrank.ranking/v1", "slug": "gpu",
  "methodology": {"title": {"zh": "", "en": "GPU"}, "description": {"zh": "", "en": ""},
    "categories": [], "criteria": [], "attributes": [], "scenarios": [], "filters": [],
    "quorum": {"min_approvals": 1, "require_evidence_verified": false}},
  "entries": [{"slug": "a", "name": {"zh": "", "en": "A"}, "category": "c", "description": {"zh": "", "en": ""},
    "evidence": [
      {"key": "obj", "claim": {"zh": "按小时计费", "en": "Billed by the hour"}, "source_name": "s", "excerpt": "x", "observed_on": "2026-01-01"},
      {"key": "only-en", "claim": {"en": "English only"}, "source_name": "s", "excerpt": "x", "observed_on": "2026-01-01"},
      {"key": "mixed", "claim": "裸金属 / Bare metal", "source_name": "s", "excerpt": "x", "observed_on": "2026-01-01"},
      {"key": "proto", "claim": "TCP / UDP", "source_name": "s", "excerpt": "x", "observed_on": "2026-01-01"},
      {"key": "zh", "claim": "价格已核对", "source_name": "s", "excerpt": "x", "observed_on": "2026-01-01"}],
    "scores": [
      {"criterion": "k", "value": 5, "rationale": {"zh": "便宜", "en": "Cheap"}, "evidence": ["obj"]},
      {"criterion": "j", "value": 6, "rationale": "Measured", "evidence": ["proto"]}]}]}`

// TestDecodeBilingualClaims: a claim or a rationale is read from the
// object, or from a string as the language it is written in, splitting a
// "中文 / English" string as the events' upcaster does.
func TestDecodeBilingualClaims(t *testing.T) {
	f, err := rankfile.Decode(strings.NewReader(bilingualFile))
	if err != nil {
		t.Fatal(err)
	}
	e := f.Entries[0]
	want := map[string]events.Text{
		"obj":     {Zh: "按小时计费", En: "Billed by the hour"},
		"only-en": {En: "English only"},
		"mixed":   {Zh: "裸金属", En: "Bare metal"},
		"proto":   {En: "TCP / UDP"},
		"zh":      {Zh: "价格已核对"},
	}
	for _, ev := range e.Evidence {
		if got := ev.Claim.Text(); got != want[ev.Key] {
			t.Errorf("claim %s = %+v, want %+v", ev.Key, got, want[ev.Key])
		}
	}
	if got := e.Scores[0].Rationale.Text(); got != (events.Text{Zh: "便宜", En: "Cheap"}) {
		t.Errorf("object rationale = %+v", got)
	}
	if got := e.Scores[1].Rationale.Text(); got != (events.Text{En: "Measured"}) {
		t.Errorf("string rationale = %+v", got)
	}
}

// TestDecodeBilingualRefusesOtherShapes: a claim that is neither a string
// nor {zh, en}, or an object with another key, is refused, not dropped.
func TestDecodeBilingualRefusesOtherShapes(t *testing.T) {
	for _, claim := range []string{`5`, `["a"]`, `{"zh": "a", "fr": "b"}`, `{"zh": 5}`} {
		doc := strings.Replace(bilingualFile, `"claim": "TCP / UDP"`, `"claim": `+claim, 1)
		if _, err := rankfile.Decode(strings.NewReader(doc)); err == nil {
			t.Errorf("claim %s decoded", claim)
		}
	}
}

// TestCSVBilingualColumns: a CSV gives a claim and a rationale in the _zh
// and _en columns, or, as CSVs did before, in the one column, read as the
// language it is written in.
func TestCSVBilingualColumns(t *testing.T) {
	csv := "entry,criterion,score,rationale_zh,rationale_en,evidence_claim_zh,evidence_claim_en,source_name,excerpt,observed_on,rationale,evidence_claim\n" +
		"a,k,5,便宜,Cheap,按小时计费,Billed by the hour,s,x,2026-01-01,,\n" +
		"b,k,6,,,,,s,x,2026-01-01,Measured,裸金属 / Bare metal\n"
	f, _, err := rankfile.DecodeCSV(strings.NewReader(csv), "gpu", events.Methodology{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		entry            int
		claim, rationale events.Text
	}{
		{0, events.Text{Zh: "按小时计费", En: "Billed by the hour"}, events.Text{Zh: "便宜", En: "Cheap"}},
		{1, events.Text{Zh: "裸金属", En: "Bare metal"}, events.Text{En: "Measured"}},
	} {
		e := f.Entries[tt.entry]
		if got := e.Evidence[0].Claim.Text(); got != tt.claim {
			t.Errorf("%s claim = %+v, want %+v", e.Slug, got, tt.claim)
		}
		if got := e.Scores[0].Rationale.Text(); got != tt.rationale {
			t.Errorf("%s rationale = %+v, want %+v", e.Slug, got, tt.rationale)
		}
	}
}

// The export writes the object: a TextField encodes as {zh, en}.
func TestTextFieldEncodesBilingual(t *testing.T) {
	b, err := domainJSON(domain.TextField{Zh: "中", En: "en"})
	if err != nil || b != `{"zh":"中","en":"en"}` {
		t.Errorf("encoded %s, %v", b, err)
	}
}

func domainJSON(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// TestCSVLocatesBilingualClaim: a claim missing in both languages is
// placed on the claim's column, whichever form the CSV uses.
func TestCSVLocatesBilingualClaim(t *testing.T) {
	for head, want := range map[string]string{
		"evidence_claim_zh,evidence_claim_en": "evidence_claim_en",
		"evidence_claim":                      "evidence_claim",
	} {
		csv := "entry,criterion,score," + head + ",source_name\na,k,5" + strings.Repeat(",", strings.Count(head, ",")+1) + ",s\n"
		_, loc, err := rankfile.DecodeCSV(strings.NewReader(csv), "gpu", events.Methodology{})
		if err != nil {
			t.Fatal(err)
		}
		ps := rankfile.Problems{{Path: "entries[0].evidence[0]", Err: domain.Invalid("claim", "field.required_in_one", nil)}}
		loc.Locate(ps)
		if ps[0].Line != 2 || ps[0].Header != want {
			t.Errorf("%s: placed on line %d column %q, want line 2 column %q", head, ps[0].Line, ps[0].Header, want)
		}
	}
}
