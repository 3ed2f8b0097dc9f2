package i18n

import (
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/crossrank/crossrank/projections"
)

// TestEveryAuditMessageHasWords: every message id the projections can
// write (projections.AuditMessages; a projections test keeps that list
// complete) has words in every language, which take exactly the message's
// arguments, and every value of a code argument (projections.AuditCodes)
// is worded. A catalog part without one of them fails here.
func TestEveryAuditMessageHasWords(t *testing.T) {
	msgs := projections.AuditMessages()
	if len(msgs) < 40 {
		t.Fatalf("projections lists %d audit messages", len(msgs))
	}
	for msg, args := range msgs {
		want := make([]string, len(args))
		for i, a := range args {
			want[i] = "{" + a + "}"
		}
		slices.Sort(want)
		for lang, c := range catalogs {
			m, ok := c["audit.msg."+msg]
			if !ok {
				t.Errorf("%s: no words for audit message %s", lang, msg)
				continue
			}
			got := named.FindAllString(m, -1)
			slices.Sort(got)
			if !slices.Equal(slices.Compact(got), want) {
				t.Errorf("%s: audit.msg.%s fills %v, the message has %v", lang, msg, got, want)
			}
		}
		if msg != "legacy" && !strings.ContainsFunc(zh["audit.msg."+msg], func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
			t.Errorf("zh: audit.msg.%s is not in Chinese: %q", msg, zh["audit.msg."+msg])
		}
	}
	codes := projections.AuditCodes()
	for name, values := range codes {
		for _, v := range values {
			for lang, c := range catalogs {
				if _, ok := c["audit.code."+name+"."+v]; !ok {
					t.Errorf("%s: no words for %s %q of the audit trail", lang, name, v)
				}
			}
		}
	}
	// The catalog words no message nobody writes, and looks values up
	// only for the arguments that hold codes: a user's words in any other
	// argument stay as written.
	for key := range en {
		if rest, ok := strings.CutPrefix(key, "audit.msg."); ok {
			if _, listed := msgs[rest]; !listed {
				t.Errorf("%s words a message the projections do not write", key)
			}
		}
		if rest, ok := strings.CutPrefix(key, "audit.code."); ok {
			name, value, _ := strings.Cut(rest, ".")
			if !slices.Contains(codes[name], value) {
				t.Errorf("%s words a value of no code argument", key)
			}
		}
	}
}

func TestAuditLine(t *testing.T) {
	tests := []struct {
		name, lang, msg, args, want string
	}{
		{"numbers as written", En, "evidence_captured", `{"evidence":"ev-1","status":200,"bytes":1048576}`,
			"Captured the source of ev-1 (HTTP 200, 1048576 bytes)"},
		{"Chinese reorders", Zh, "edition_part_recorded", `{"part":2,"edition":7,"proposals":3,"changes":9}`,
			"记录第 7 期的第 2 部分（3 个提案，9 处变更）"},
		{"text in the reader's language", Zh, "ranking_defined", `{"title":{"zh":"GPU 云","en":"GPU clouds"}}`,
			"创建榜单「GPU 云」"},
		{"text in the other language when empty", En, "ranking_defined", `{"title":{"zh":"GPU 云","en":""}}`,
			"Defined ranking GPU 云"},
		{"list joined", En, "reviewers_requested", `{"reviewers":["ada","bo"]}`, "Requested reviews from ada, bo"},
		{"list joined in Chinese", Zh, "user_registered", `{"user":"ada","roles":["editor","reviewer"]}`,
			"注册用户 ada（editor、reviewer）"},
		{"code worded", Zh, "vote_cast_returned", `{"verdict":"reject","revision":2,"return_reason":"veto"}`,
			"对第 2 版投票：否决；退回审核（有否决票）"},
		{"user data is not a code", Zh, "proposal_rejected", `{"reason":"veto"}`, "驳回：veto"},
		{"user data kept as written", En, "evidence_added", `{"evidence":"ev-1","claim":"<b>{claim}</b> & \"x\""}`,
			`Added evidence ev-1: <b>{claim}</b> & "x"`},
		{"legacy row", Zh, "legacy", `{"text":{"zh":"撤回","en":"Withdrawn"}}`, "撤回"},
		{"no arguments", En, "proposal_withdrawn", `{}`, "Withdrawn"},
		{"unknown message", En, "from_the_future", `{"b":2,"a":"x","c":["p","q"]}`, "from_the_future (a=x, b=2, c=p, q)"},
		{"unknown message without arguments", Zh, "from_the_future", `{}`, "from_the_future"},
		{"arguments that do not parse", En, "vote_cast", `{"verdict":`, `vote_cast {"verdict":`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := AuditLine(tc.lang, tc.msg, []byte(tc.args)); got != tc.want {
				t.Errorf("AuditLine(%s, %s, %s) = %q, want %q", tc.lang, tc.msg, tc.args, got, tc.want)
			}
		})
	}
}
