package events_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
)

const typeEvidenceAddedV1 = "crossrank.proposal.evidence_added.v1"

// v1Message returns the headers of an evidence_added.v1 event as an older
// Crossrank stored it.
func v1Message(id string) (string, events.Header) {
	return "crossrank.proposal.p-1.evidence_added", events.Header{
		events.HeaderSpecVersion: {"1.0"},
		events.HeaderID:          {id},
		events.HeaderSource:      {"/crossrank"},
		events.HeaderType:        {typeEvidenceAddedV1},
		events.HeaderSubject:     {"p-1"},
		events.HeaderTime:        {"2025-11-03T08:00:00Z"},
		events.HeaderActor:       {"alice"},
		events.HeaderContentType: {"application/json"},
	}
}

// TestUpcastEvidenceV1 decodes the stored v1 fixtures: they come out as the
// current EvidenceAdded, while the stored type and body, which the audit
// chain hashes, stay exactly as written.
func TestUpcastEvidenceV1(t *testing.T) {
	tests := []struct {
		file string
		want events.EvidenceAdded
	}{
		{"evidence_added_url.json", events.EvidenceAdded{
			EvidenceID: "e1", Revision: 1, Claim: events.Text{En: "RTX 4090 from ¥1.98 per hour"},
			SourceURL: "https://www.autodl.com/market/list", Excerpt: "RTX 4090 24G ¥1.98/时", ObservedOn: "2025-11-03",
		}},
		{"evidence_added_document.json", events.EvidenceAdded{
			EvidenceID: "e2", Revision: 3, Claim: events.Text{En: "Nine platforms in four delivery paths"},
			SourceName: "GPU 云租赁市场概览 (seed 004)", Excerpt: "四种交付路径", ObservedOn: "2025-10-20",
		}},
		{"evidence_added_http.json", events.EvidenceAdded{
			EvidenceID: "e3", Revision: 1, Claim: events.Text{En: "plain http is still a URL"},
			SourceURL: "http://example.com/pricing", ObservedOn: "2024-02-29",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join("testdata", "v1", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			subject, h := v1Message("01890a5d-ac96-774b-bcce-b302099a8057")
			e, err := events.Decode(subject, h, body, 12)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if e.Type != events.TypeEvidenceAdded || e.StoredType != typeEvidenceAddedV1 {
				t.Errorf("type %q stored as %q, want %q stored as %q", e.Type, e.StoredType, events.TypeEvidenceAdded, typeEvidenceAddedV1)
			}
			got, ok := e.Data.(*events.EvidenceAdded)
			if !ok {
				t.Fatalf("Data is %T, want *events.EvidenceAdded", e.Data)
			}
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("upcast payload:\n got %+v\nwant %+v", *got, tt.want)
			}
			if !bytes.Equal(e.Raw, body) {
				t.Errorf("Raw is not the stored v1 body:\n got %s\nwant %s", e.Raw, body)
			}
			if e.AuthVia != "" || e.Actor != "alice" {
				t.Errorf("an event stored without ce-authvia: actor %q, authvia %q", e.Actor, e.AuthVia)
			}
			if e.Kind() != events.KindProposal || e.Name() != "evidence_added" || e.Time != time.Date(2025, 11, 3, 8, 0, 0, 0, time.UTC) {
				t.Errorf("envelope: kind %q name %q time %v", e.Kind(), e.Name(), e.Time)
			}
		})
	}
}

func TestUpcastEvidenceV1Malformed(t *testing.T) {
	subject, h := v1Message("id-1")
	_, err := events.Decode(subject, h, []byte(`{"evidence_id":7}`), 5)
	if !errors.Is(err, events.ErrMalformed) {
		t.Fatalf("Decode of a broken v1 body: error = %v, want ErrMalformed", err)
	}
}

func TestDecodeDataCurrentType(t *testing.T) {
	typ, body, data, err := events.DecodeData(events.TypeRoleGranted, []byte(`{"role":"reviewer"}`))
	if err != nil || typ != events.TypeRoleGranted || string(body) != `{"role":"reviewer"}` {
		t.Fatalf("DecodeData = %q, %s, %v", typ, body, err)
	}
	if got := data.(*events.RoleGranted); got.Role != "reviewer" {
		t.Errorf("payload %+v", got)
	}
	if _, _, _, err := events.DecodeData("crossrank.user.role_granted.v0", nil); !errors.Is(err, events.ErrUnknownType) {
		t.Errorf("unknown version: error = %v, want ErrUnknownType", err)
	}
}

// TestOldEventWithoutAuthVia: an event stored before ce-authvia existed
// decodes with none, encodes again without the header, and hashes to the
// bytes it always did (no "authvia" key in its canonical form).
func TestOldEventWithoutAuthVia(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("testdata", "v1", "evidence_added_url.json"))
	if err != nil {
		t.Fatal(err)
	}
	subject, h := v1Message("01890a5d-ac96-774b-bcce-b302099a8057")
	e, err := events.Decode(subject, h, body, 12)
	if err != nil {
		t.Fatal(err)
	}
	if e.AuthVia != "" {
		t.Errorf("AuthVia %q, want none", e.AuthVia)
	}
	if v, err := events.ParseVia(e.AuthVia); err != nil || !v.IsZero() {
		t.Errorf("ParseVia of no attribute = %+v, %v; want the zero Via", v, err)
	}
	if _, h2, _, err := events.Encode(e); err != nil || len(h2[events.HeaderAuthVia]) != 0 {
		t.Errorf("encoded again: %v, ce-authvia %q", err, h2[events.HeaderAuthVia])
	}
	if bytes.Contains(events.Canonical(e), []byte(`"authvia"`)) {
		t.Errorf("canonical bytes of an old event name authvia: %s", events.Canonical(e))
	}
}
