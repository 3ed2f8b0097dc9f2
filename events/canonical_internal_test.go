package events

import (
	"encoding/json"
	"testing"
	"time"
)

// appendJSONString must write what encoding/json writes, byte for byte: the
// audit chain of every stored event depends on it.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "引号\"与\\反斜杠", "<script>&amp;</script>", "\u2028\u2029", "\x00\x1f\x7f", "\xff\xfe bad", "tab\tnl\ncr\r", "🚀 emoji"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Fatalf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	})
}

func BenchmarkChainHash(b *testing.B) {
	e, err := New("0195eb2c-1a00-7000-8000-000000000002", time.Date(2026, 3, 14, 9, 26, 55, 589793238, time.UTC), "reviewer1", "p-1",
		&VoteCast{Revision: 1, Verdict: Approve, VerifiedEvidence: []string{"e1", "e2"}, Comment: "已核对来源 & <ok>"})
	if err != nil {
		b.Fatal(err)
	}
	e.Sequence = 42
	b.ReportAllocs()
	for b.Loop() {
		ChainHash("b856e1fd82a7cfe2812f96b85ffafc6128617c9df5fcdce35058b3b82057202c", e)
	}
}
