package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

type scaleReview struct {
	votes, calls, events, bytes int
	took, raw                   time.Duration // every call answered; RawPublish of the same events
}

// reviewBatch is the most votes POST /api/v1/votes takes in one call
// (command.MaxBatchVotes).
const reviewBatch = 500

// rawReviewers is how many votes a batch runs at once on the server
// (command's batchWorkers), and so how many publishes the raw reference
// has in flight.
const rawReviewers = 8

// queued is a proposal awaiting review, as GET /api/v1/proposals lists it.
type queued struct {
	ID       string `json:"id"`
	Revision int    `json:"revision"`
	Evidence []struct {
		ID string `json:"evidence_id"`
	} `json:"evidence"`
}

// reviewAll has each of two reviewers read the ranking's proposals in
// review through the API, then approve every one with all its evidence
// verified in calls of POST /api/v1/votes of 500 votes, one call at a
// time, answered as a client is answered by default (when the read models
// show the votes); the second reviewer's votes cross-validate. Only the
// calls are timed. The raw reference RawPublishes the very events they
// appended, as many at once as a batch runs.
func (s *scaleRun) reviewAll(ctx context.Context) error {
	res := &s.res.review
	before, err := s.p.desk.events.LastSequence(ctx)
	if err != nil {
		return err
	}
	for _, reviewer := range scaleReviewers {
		queue, err := s.queue(ctx, reviewer)
		if err != nil {
			return err
		}
		for from := 0; from < len(queue); from += reviewBatch {
			type vote struct {
				Proposal         string   `json:"proposal"`
				Revision         int      `json:"revision"`
				Verdict          string   `json:"verdict"`
				VerifiedEvidence []string `json:"verified_evidence"`
			}
			var batch struct {
				Votes []vote `json:"votes"`
			}
			for _, p := range queue[from:min(from+reviewBatch, len(queue))] {
				v := vote{Proposal: p.ID, Revision: p.Revision, Verdict: "approve", VerifiedEvidence: []string{}}
				for _, e := range p.Evidence {
					v.VerifiedEvidence = append(v.VerifiedEvidence, e.ID)
				}
				batch.Votes = append(batch.Votes, v)
			}
			js, err := json.Marshal(batch)
			if err != nil {
				return err
			}
			var answer struct {
				Results []struct {
					Proposal string `json:"proposal"`
					Status   int    `json:"status"`
					Code     string `json:"code"`
				} `json:"results"`
			}
			start := time.Now()
			err = s.api.do(ctx, http.MethodPost, reviewer, "/api/v1/votes", "application/json", js, &answer)
			res.took += time.Since(start)
			if err != nil {
				return err
			}
			for _, r := range answer.Results {
				if r.Status/100 != 2 {
					return fmt.Errorf("%s's vote on %s: %d %s", reviewer, r.Proposal, r.Status, r.Code)
				}
			}
			res.votes, res.calls = res.votes+len(answer.Results), res.calls+1
		}
	}
	if res.events, res.bytes, res.raw, err = republish(ctx, s.p.desk, before, s.p.raw, rawReviewers); err != nil {
		return err
	}
	s.o.logf("  %d votes in %d calls (%d events) in %v; RawPublish of the same events, %d at once, %v",
		res.votes, res.calls, res.events, res.took.Round(time.Millisecond), rawReviewers, res.raw.Round(time.Millisecond))
	return nil
}

// queue lists every proposal of the ranking in review, as reviewer reads
// it from the API a page at a time.
func (s *scaleRun) queue(ctx context.Context, reviewer string) ([]queued, error) {
	var all []queued
	q := url.Values{"ranking": {scaleSlug}, "status": {"in_review"}, "limit": {"200"}}
	for {
		var page struct {
			Proposals []queued `json:"proposals"`
			Next      string   `json:"next"`
		}
		if err := s.api.do(ctx, http.MethodGet, reviewer, "/api/v1/proposals?"+q.Encode(), "", nil, &page); err != nil {
			return nil, err
		}
		all = append(all, page.Proposals...)
		if page.Next == "" {
			return all, nil
		}
		q.Set("after", page.Next)
	}
}
