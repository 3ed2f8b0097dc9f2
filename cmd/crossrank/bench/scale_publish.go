package bench

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

type scalePublish struct {
	proposals, changes, events, bytes int
	preview, took                     time.Duration // the preview call; preview and publish stored
	settled                           time.Duration // from the preview until the read models show the edition
	raw                               time.Duration // RawPublish of the same events
	refused                           string        // the answer when the publish was refused
}

// publishAll publishes the first edition through the API as a publisher
// does: the preview of every cross-validated proposal (POST
// …/editions/preview with none named), then publishing the proposals it
// lists with its hash, answered when stored (?nowait=1: what the engine
// costs, not the read models; their catching up is timed apart). The raw
// reference RawPublishes the very events the publish appended, one at a
// time.
func (s *scaleRun) publishAll(ctx context.Context) error {
	res := &s.res.pub
	before, err := s.p.desk.events.LastSequence(ctx)
	if err != nil {
		return err
	}
	var pv struct {
		Proposals   []string `json:"proposals"`
		PreviewHash string   `json:"preview_hash"`
		Number      int      `json:"number"`
		Size        struct {
			Changes int `json:"changes"`
		} `json:"size"`
	}
	base := "/api/v1/rankings/" + scaleSlug + "/editions"
	start := time.Now()
	if err := s.api.do(ctx, http.MethodPost, scalePublisher, base+"/preview", "application/json", []byte("{}"), &pv); err != nil {
		return err
	}
	res.preview = time.Since(start)
	if pv.Number != 1 {
		return fmt.Errorf("the preview is of edition %d, want 1", pv.Number)
	}
	res.proposals, res.changes = len(pv.Proposals), pv.Size.Changes
	err = s.api.post(ctx, scalePublisher, base, map[string]any{"proposals": pv.Proposals, "preview_hash": pv.PreviewHash}, nil)
	if he := (*httpError)(nil); errors.As(err, &he) && he.status/100 == 4 {
		// Refused: a finding, not a failure of the bench. What follows
		// runs without the edition.
		res.refused = he.short()
		s.o.logf("  edition 1 (%d proposals, %d changes) refused after %v: %s", res.proposals, res.changes,
			time.Since(start).Round(time.Millisecond), res.refused)
		return nil
	}
	if err != nil {
		return err
	}
	res.took = time.Since(start)
	if err := s.caughtUp(ctx); err != nil {
		return err
	}
	res.settled = time.Since(start)
	if res.events, res.bytes, res.raw, err = republish(ctx, s.p.desk, before, s.p.raw, 1); err != nil {
		return err
	}
	s.o.logf("  edition 1: %d proposals, %d changes, %d events (%d KiB); preview %v, stored after %v, read models after %v; RawPublish of the same events %v",
		res.proposals, res.changes, res.events, res.bytes>>10, res.preview.Round(time.Millisecond), res.took.Round(time.Millisecond),
		res.settled.Round(time.Millisecond), res.raw.Round(time.Millisecond))
	return nil
}
