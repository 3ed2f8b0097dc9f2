package webhook

import (
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
)

// TestPreviewsAreNotDelivered: no event of an embargoed preview is on a
// subject the senders consume, so no webhook ever carries one.
func TestPreviewsAreNotDelivered(t *testing.T) {
	t.Parallel()
	matches := func(filter, subject string) bool {
		f, s := strings.Split(filter, "."), strings.Split(subject, ".")
		for i, tok := range f {
			if tok == ">" {
				return len(s) > i
			}
			if i >= len(s) || tok != "*" && tok != s[i] {
				return false
			}
		}
		return len(f) == len(s)
	}
	if !matches(FilterSubject, "crossrank.edition.gpu-cloud.published") {
		t.Fatal("the filter does not match an edition: the check below proves nothing")
	}
	for _, data := range []any{&events.PreviewCreated{Ranking: "gpu-cloud", Proposals: []string{"p1"}, ExpiresAt: "2027-01-01T00:00:00Z",
		TokenHash: strings.Repeat("a", 64)}, &events.PreviewOpened{}, &events.PreviewRevoked{}} {
		ev, err := events.New("id-1", time.Now(), "publisher", "pv-1", data)
		if err != nil {
			t.Fatal(err)
		}
		if matches(FilterSubject, ev.NATSSubject()) {
			t.Errorf("%s is delivered to webhooks", ev.Type)
		}
	}
}
