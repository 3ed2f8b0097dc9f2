package command

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
)

// MaxBatchVotes bounds the votes of one batch: a reviewer's page of the
// review queue holds at most 100, and a client catching up sends a few
// pages at once.
const MaxBatchVotes = 500

// batchWorkers is how many votes of a batch run at once: the handler
// chains concurrent appends, and a few in flight keep it busy without
// letting one batch crowd out every other user.
const batchWorkers = 8

// BatchVote is one vote of a batch: the same fields as VoteInput, and the
// proposal it is on.
type BatchVote struct {
	Proposal         string   `json:"proposal"`
	Revision         int      `json:"revision"`
	Verdict          string   `json:"verdict"`
	VerifiedEvidence []string `json:"verified_evidence"`
	Comment          string   `json:"comment,omitempty"`
}

// VotesInput is POST /api/v1/votes and the review queue's form: votes on
// many proposals in one request. Results is filled in by the run.
type VotesInput struct {
	WithCommandID
	Votes   []BatchVote  `json:"votes"`
	Results []VoteResult `json:"-"`
}

// VoteResult is the outcome of one vote of a batch: Status is the HTTP
// status the vote alone would have answered (201 stored, or stored before
// when Replayed), and on failure Code the error's code (Field the
// field at fault, Message in the request's language).
type VoteResult struct {
	Proposal string `json:"proposal"`
	Status   int    `json:"status"`
	Command  string `json:"command,omitempty"`
	Sequence uint64 `json:"sequence,omitempty"`
	Replayed bool   `json:"replayed,omitempty"`
	Code     string `json:"code,omitempty"`
	Field    string `json:"field,omitempty"`
	Message  string `json:"message,omitempty"`
}

// VotesAnswer is the API's answer to a batch: one result per vote, in the
// order sent.
type VotesAnswer struct {
	Command string       `json:"command"`
	Results []VoteResult `json:"results"`
}

// CastVotes casts a batch of votes. Each vote is its own command, as if
// posted alone to its proposal: its own VoteCast on that proposal's current
// revision naming exactly the evidence it verified, with a command id
// derived from the batch's and the vote's place in it, so a retry of the
// batch (same Idempotency-Key) stores nothing new and answers the same
// results. A vote refused fails only itself.
//
// The review queue's form names the proposals ticked (proposal), each
// one's revision as shown (revision.ID) and its evidence ticked
// (verified.ID), with one verdict and one comment for all.
var CastVotes = Action[VotesInput]{
	Name: "proposal.votes",
	Form: func(f *httpx.Form, in *VotesInput) {
		verdict, comment := f.Str("verdict"), f.Str("comment")
		for _, id := range f.Strs("proposal") {
			in.Votes = append(in.Votes, BatchVote{Proposal: id, Revision: f.Int("revision." + id), Verdict: verdict,
				VerifiedEvidence: f.Strs("verified." + id), Comment: comment})
		}
	},
	Run: castVotes,
	Resource: func(*Deps, context.Context, *VotesInput, string) (string, string) {
		return "", ""
	},
	Answer: func(_ *Deps, _ context.Context, in *VotesInput, commandID string, _ handler.Result) any {
		return VotesAnswer{Command: commandID, Results: in.Results}
	},
	Status: votesStatus,
}

// votesStatus is a batch's status: 200 when every vote was stored, 207
// Multi-Status when any failed, so a client that reads only the status
// never takes a batch of refusals (or of 503s, nothing stored) for success.
func votesStatus(in *VotesInput) int {
	for _, r := range in.Results {
		if r.Status >= 300 {
			return http.StatusMultiStatus
		}
	}
	return http.StatusOK
}

func castVotes(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *VotesInput) (handler.Result, error) {
	switch n := len(in.Votes); {
	case n == 0:
		return handler.Result{}, domain.Invalid("votes", "field.required", nil)
	case n > MaxBatchVotes:
		return handler.Result{}, domain.Invalid("votes", "field.too_many", domain.Args{"limit": MaxBatchVotes})
	}
	lang := httpx.Lang(ctx)
	in.Results = make([]VoteResult, len(in.Votes))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(batchWorkers, len(in.Votes)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				in.Results[i] = castOne(d, ctx, a, lang, voteCommandID(commandID, i, in.Votes[i].Proposal), in.Votes[i])
			}
		}()
	}
	for i := range in.Votes {
		next <- i
	}
	close(next)
	wg.Wait()
	var last uint64
	for _, r := range in.Results {
		last = max(last, r.Sequence)
	}
	// The batch answers with the last sequence, which Execute waits for:
	// the next page shows every vote.
	return handler.Result{Sequence: last}, nil
}

// voteCommandID is the requested id of the i-th vote of batch commandID,
// hashed with the user's name into a UUID by httpx.CommandID.
func voteCommandID(batch string, i int, proposal string) string {
	return batch + "/" + strconv.Itoa(i) + "/" + proposal
}

func castOne(d *Deps, ctx context.Context, a domain.Actor, lang, requested string, v BatchVote) VoteResult {
	out := VoteResult{Proposal: v.Proposal}
	var id string
	err := error(domain.ErrProposalMissing)
	if events.ValidID(v.Proposal) {
		id, err = httpx.CommandID(a.Name, requested, d.Now())
	}
	if err == nil {
		out.Command = id
		start := time.Now()
		var res handler.Result
		res, err = d.Commands.CastVote(ctx, a, domain.CastVote{CommandID: id, Proposal: v.Proposal, Revision: v.Revision,
			Verdict: v.Verdict, VerifiedEvidence: v.VerifiedEvidence, Comment: v.Comment})
		if d.Observe != nil {
			d.Observe(Vote.Name, time.Since(start), res, err)
		}
		out.Sequence, out.Replayed = res.Sequence, res.Replayed
	}
	if err != nil {
		out.Status, out.Code, out.Field = httpx.Status(err), errorCode(err), errorField(err)
		out.Message = httpx.Message(lang, err)
		return out
	}
	out.Status = http.StatusCreated // as the single vote answers, a retry too (Replayed says so)
	d.Log.Info("command", "request_id", httpx.RequestID(ctx), "action", Vote.Name, "user", a.Name,
		"command_id", id, "sequence", out.Sequence, "replayed", out.Replayed)
	return out
}

// errorCode is the stable code of err: a field error's rule, a domain
// error's code, else the kind of failure its status says.
func errorCode(err error) string {
	var fe *domain.FieldError
	var bf *httpx.BadField
	var coded interface{ Code() string }
	switch {
	case errors.As(err, &fe):
		return fe.Code
	case errors.As(err, &bf):
		return bf.Code
	case errors.As(err, &coded):
		return coded.Code()
	}
	return httpx.ProblemKind(httpx.Status(err))
}

// errorField is the field a field error names, "" for other errors.
func errorField(err error) string {
	var fe *domain.FieldError
	var bf *httpx.BadField
	switch {
	case errors.As(err, &fe):
		return fe.Field
	case errors.As(err, &bf):
		return bf.Field
	}
	return ""
}
