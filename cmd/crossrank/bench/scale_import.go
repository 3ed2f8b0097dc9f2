package bench

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

type scaleImport struct {
	proposals, events, bytes int
	dryRun                   time.Duration // upload to checked
	took, raw                time.Duration // confirm to done; RawPublish of the same events
}

// importState is the part of the API's import (GET /api/v1/imports/{id})
// the bench reads.
type importState struct {
	ID      string `json:"id"`
	State   string `json:"state"`
	Opened  int    `json:"opened"`
	Summary struct {
		Open     int   `json:"open"`
		Problems []any `json:"problems"`
	} `json:"summary"`
	Error any `json:"error"`
}

// importFile imports the ranking file as the desk's import page and the
// API do: POST /api/v1/imports (the dry run, checked in the background),
// then confirm, polling the job as a client does. The rate counts from the
// confirmation to the job's end (every proposal opened and submitted);
// the raw reference RawPublishes the very events it appended, one at a
// time as the import appends them.
func (s *scaleRun) importFile(ctx context.Context, file []byte) error {
	im, res := importState{}, &s.res.imp
	start := time.Now()
	if err := s.api.do(ctx, http.MethodPost, scaleEditor, "/api/v1/imports", "application/json", file, &im); err != nil {
		return err
	}
	im, err := s.awaitImport(ctx, im.ID, "checking")
	if err != nil {
		return err
	}
	res.dryRun = time.Since(start)
	if im.State != "checked" || len(im.Summary.Problems) > 0 {
		return fmt.Errorf("the dry run ended %s with %d problems (%v)", im.State, len(im.Summary.Problems), im.Error)
	}
	before, err := s.p.desk.events.LastSequence(ctx)
	if err != nil {
		return err
	}
	start = time.Now()
	if err := s.api.do(ctx, http.MethodPost, scaleEditor, "/api/v1/imports/"+im.ID+"/confirm", "", nil, &im); err != nil {
		return err
	}
	if im, err = s.awaitImport(ctx, im.ID, "opening"); err != nil {
		return err
	}
	res.took = time.Since(start)
	if im.State != "done" || im.Opened != im.Summary.Open {
		return fmt.Errorf("the import ended %s, %d of %d proposals opened (%v)", im.State, im.Opened, im.Summary.Open, im.Error)
	}
	res.proposals = im.Opened
	if res.events, res.bytes, res.raw, err = republish(ctx, s.p.desk, before, s.p.raw, 1); err != nil {
		return err
	}
	s.o.logf("  dry run %v; %d proposals (%d events, file %d KiB) in %v; RawPublish of the same events %v",
		res.dryRun.Round(time.Millisecond), res.proposals, res.events, s.res.fileBytes>>10, res.took.Round(time.Millisecond), res.raw.Round(time.Millisecond))
	return nil
}

// awaitImport polls import id every 20 ms while it is in state.
func (s *scaleRun) awaitImport(ctx context.Context, id, state string) (importState, error) {
	for {
		var im importState
		if err := s.api.do(ctx, http.MethodGet, scaleEditor, "/api/v1/imports/"+id, "", nil, &im); err != nil || im.State != state {
			return im, err
		}
		select {
		case <-ctx.Done():
			return im, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}
