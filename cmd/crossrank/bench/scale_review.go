package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
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

// queued is a proposal awaiting review.
type queued struct {
	ID       string
	Revision int
	Evidence []string
}

// reviewAll has each of two reviewers take the ranking's proposals in
// review, then approve every one with all its evidence
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
		if err := s.caughtUp(ctx); err != nil {
			return err
		}
		queue, err := s.queue(ctx)
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
				v.VerifiedEvidence = append(v.VerifiedEvidence, p.Evidence...)
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

// queue lists every proposal of the ranking in review, with its revision
// and evidence, from the read models and the handler (what a reviewer's
// client reads from GET /api/v1/proposals, without its cost: the listing
// is not what is measured).
func (s *scaleRun) queue(ctx context.Context) ([]queued, error) {
	var all []queued
	f := projections.ProposalFilter{Ranking: scaleSlug, Status: string(domain.StatusInReview), Limit: projections.MaxProposalLimit}
	for {
		page, err := s.read.ProposalIDs(ctx, f)
		if err != nil {
			return nil, err
		}
		for _, id := range page.IDs {
			p, err := s.srv.Commands.Proposal(ctx, id)
			if err != nil {
				return nil, err
			}
			all = append(all, queued{ID: id, Revision: p.Revision, Evidence: p.EvidenceIDs()})
		}
		if page.Next.IsZero() {
			return all, nil
		}
		f.After = page.Next
	}
}
