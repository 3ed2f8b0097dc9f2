package domain_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// TestDecideOpenPreview: an opening is recorded at most once per fold
// window; a revoked or expired link, or another token, opens nothing.
func TestDecideOpenPreview(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	hash := strings.Repeat("a", 64)
	pv := &domain.PreviewLink{}
	pv.Evolve(events.Event{Subject: "pv-1", Time: at, Data: &events.PreviewCreated{Ranking: "r", TokenHash: hash,
		ExpiresAt: at.Add(time.Hour).Format(time.RFC3339)}})
	opened := func(p *domain.PreviewLink, when time.Time) *domain.PreviewLink {
		n := *p
		n.Evolve(events.Event{Subject: "pv-1", Time: when, Data: &events.PreviewOpened{}})
		return &n
	}
	revoked := *pv
	revoked.Evolve(events.Event{Subject: "pv-1", Data: &events.PreviewRevoked{}})
	for _, c := range []struct {
		name    string
		pv      *domain.PreviewLink
		hash    string
		now     time.Time
		records int
		err     error
	}{
		{"first opening", pv, hash, at.Add(time.Minute), 1, nil},
		{"within the fold", opened(pv, at), hash, at.Add(59 * time.Second), 0, nil},
		{"after the fold", opened(pv, at), hash, at.Add(time.Minute), 1, nil},
		{"another token", pv, strings.Repeat("b", 64), at, 0, domain.ErrPreviewClosed},
		{"revoked", &revoked, hash, at, 0, domain.ErrPreviewClosed},
		{"expired", pv, hash, at.Add(time.Hour), 0, domain.ErrPreviewClosed},
	} {
		got, err := domain.DecideOpenPreview(c.pv, c.hash, c.now)
		if len(got) != c.records || !errors.Is(err, c.err) && !(err == nil && c.err == nil) {
			t.Errorf("%s: %d events, %v; want %d, %v", c.name, len(got), err, c.records, c.err)
		}
	}
}
