package events_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/events"
)

// TestTextFrom: a string from before claims and rationales were Text is
// read as the language it is written in, and the two halves of a
// "中文 / English" string are split.
func TestTextFrom(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want events.Text
	}{
		{"智星云同时覆盖裸金属与容器 / Zhixingyun covers bare metal and containers",
			events.Text{Zh: "智星云同时覆盖裸金属与容器", En: "Zhixingyun covers bare metal and containers"}},
		{"Bare metal from ¥9.9 / 裸金属 ¥9.9 起", events.Text{Zh: "裸金属 ¥9.9 起", En: "Bare metal from ¥9.9"}},
		{"Supports TCP / UDP", events.Text{En: "Supports TCP / UDP"}},
		{"TCP / UDP", events.Text{En: "TCP / UDP"}},
		{"支持 TCP / UDP", events.Text{Zh: "支持 TCP / UDP"}},
		{"中文 / TCP / UDP", events.Text{Zh: "中文", En: "TCP / UDP"}},
		// Two places could split it: ambiguous, so it stays whole.
		{"中文 / — / English", events.Text{Zh: "中文 / — / English"}},
		{"价格 / 2025", events.Text{Zh: "价格 / 2025"}},
		{"支持 H100 / Supports H100", events.Text{Zh: "支持 H100 / Supports H100"}},
		{"价格已核对", events.Text{Zh: "价格已核对"}},
		{"cheap", events.Text{En: "cheap"}},
		{"", events.Text{}},
	} {
		if got := events.TextFrom(tt.in); got != tt.want {
			t.Errorf("TextFrom(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

// TestUpcastTextVersions: every version whose claim or rationale was a
// string decodes as the current payload with Text, its stored type and body
// (what the audit chain hashes) kept exactly as written.
func TestUpcastTextVersions(t *testing.T) {
	for _, tt := range []struct {
		stored, body, current string
		want                  any
	}{
		{"crossrank.proposal.evidence_added.v2",
			`{"evidence_id":"e1","revision":1,"claim":"按小时计费 / Billed by the hour","source_url":"https://example.com","excerpt":"x","observed_on":"2025-01-02","tier":"vendor"}`,
			events.TypeEvidenceAdded, &events.EvidenceAdded{EvidenceID: "e1", Revision: 1,
				Claim: events.Text{Zh: "按小时计费", En: "Billed by the hour"}, SourceURL: "https://example.com",
				Excerpt: "x", ObservedOn: "2025-01-02", Tier: "vendor"}},
		{"crossrank.proposal.evidence_added.v1",
			`{"evidence_id":"e1","revision":1,"claim":"TCP / UDP","source":"Manual","excerpt":"x","observed_on":"2025-01-02"}`,
			events.TypeEvidenceAdded, &events.EvidenceAdded{EvidenceID: "e1", Revision: 1,
				Claim: events.Text{En: "TCP / UDP"}, SourceName: "Manual", Excerpt: "x", ObservedOn: "2025-01-02"}},
		{"crossrank.proposal.score_change_proposed.v1",
			`{"revision":2,"criterion":"price","from":null,"to":8,"rationale":"价格低","evidence":["e1"]}`,
			events.TypeScoreChangeProposed, &events.ScoreChangeProposed{Revision: 2, Criterion: "price", To: 8,
				Rationale: events.Text{Zh: "价格低"}, Evidence: []string{"e1"}}},
		{"crossrank.proposal.attribute_change_proposed.v1",
			`{"revision":1,"attribute":"gpu","from":null,"to":["h100"],"rationale":"Lists H100","evidence":["e1"]}`,
			events.TypeAttributeChangeProposed, &events.AttributeChangeProposed{Revision: 1, Attribute: "gpu",
				To: []string{"h100"}, Rationale: events.Text{En: "Lists H100"}, Evidence: []string{"e1"}}},
		{"crossrank.proposal.methodology_proposed.v1",
			`{"revision":1,"methodology":{"title":{"zh":"","en":"G"},"description":{"zh":"","en":""},"categories":null,"criteria":null,"attributes":null,"scenarios":null,"filters":null,"quorum":{"min_approvals":2,"require_evidence_verified":false}},"base":3,"rationale":"弹性更重要 / Elasticity matters more"}`,
			events.TypeMethodologyProposed, &events.MethodologyProposed{Revision: 1, Base: 3,
				Methodology: events.Methodology{Title: events.Text{En: "G"}, Quorum: events.QuorumPolicy{MinApprovals: 2}},
				Rationale:   events.Text{Zh: "弹性更重要", En: "Elasticity matters more"}}},
		{"crossrank.proposal.opened.v2",
			`{"ranking":"gpu","entry":"","new_entry":false,"title":"T","methodology":true,"proposed":{"revision":1,"methodology":{"title":{"zh":"","en":"G"},"description":{"zh":"","en":""},"categories":null,"criteria":null,"attributes":null,"scenarios":null,"filters":null,"quorum":{"min_approvals":2,"require_evidence_verified":false}},"base":0,"rationale":"r"}}`,
			events.TypeProposalOpened, &events.ProposalOpened{Ranking: "gpu", Title: "T", Methodology: true,
				Proposed: &events.MethodologyProposed{Revision: 1,
					Methodology: events.Methodology{Title: events.Text{En: "G"}, Quorum: events.QuorumPolicy{MinApprovals: 2}},
					Rationale:   events.Text{En: "r"}}}},
	} {
		t.Run(tt.stored, func(t *testing.T) {
			cur, _, data, err := events.DecodeData(tt.stored, []byte(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if cur != tt.current {
				t.Errorf("read as %s, want %s", cur, tt.current)
			}
			if !reflect.DeepEqual(data, tt.want) {
				got, _ := json.Marshal(data)
				want, _ := json.Marshal(tt.want)
				t.Errorf("upcast payload:\n got %s\nwant %s", got, want)
			}
			// The hashed form is the stored type and body, not the upcast.
			_, h := v1Message("01890a5d-ac96-774b-bcce-b302099a8057")
			h[events.HeaderType] = []string{tt.stored}
			name := strings.TrimPrefix(tt.stored[:strings.LastIndex(tt.stored, ".")], "crossrank.proposal.")
			subject := "crossrank.proposal.p-1." + name
			e, err := events.Decode(subject, h, []byte(tt.body), 7)
			if err != nil {
				t.Fatal(err)
			}
			canon := events.Canonical(e)
			if e.StoredType != tt.stored || !bytes.Equal(e.Raw, []byte(tt.body)) ||
				!bytes.Contains(canon, []byte(`"type":"`+tt.stored+`"`)) {
				t.Errorf("stored as %s, canonical %s", e.StoredType, canon)
			}
		})
	}
}
