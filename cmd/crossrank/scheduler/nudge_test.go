package scheduler

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/projections"
	"github.com/nats-io/nats.go/jetstream"
)

// inReview is the demo's proposal in review: reviewer1 approved it,
// reviewer2 has not voted.
const inReview = "demo-huawei-cloud-2"

// startNudges is start with two Nudgers running, as two replicas would.
func startNudges(t *testing.T) (*env, jetstream.JetStream) {
	t.Helper()
	e := start(t)
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, name := range []string{"replica-a", "replica-b"} {
		nc, err := e.js.Server.Connect(name)
		if err != nil {
			t.Fatal(err)
		}
		n, err := NewNudger(nc, NudgeConfig{Commands: e.cmd})
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { _ = n.Run(ctx); nc.Close() })
	}
	t.Cleanup(func() { stop(); wg.Wait() })
	nc, err := e.js.Server.Connect("check")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return e, js
}

// request asks reviewer2 to review the demo proposal in review by due.
func (e *env) request(due time.Time) string {
	e.t.Helper()
	if _, err := e.cmd.RequestReviewers(e.ctx, e.actor("editor"), domain.RequestReviewers{CommandID: events.NewID(time.Now()),
		Proposal: inReview, Reviewers: []string{"reviewer2"}, Due: due}); err != nil {
		e.t.Fatalf("request: %v", err)
	}
	return due.UTC().Truncate(time.Second).Format(time.RFC3339)
}

// nudges returns the proposal's ReviewNudged events.
func (e *env) nudges() []*events.ReviewNudged {
	e.t.Helper()
	evs, err := e.js.Store.Load(e.ctx, domain.ProposalID(inReview), 0)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []*events.ReviewNudged
	for _, ev := range evs {
		if d, ok := ev.Data.(*events.ReviewNudged); ok {
			out = append(out, d)
		}
	}
	return out
}

// fired waits until the schedule of reviewer2's due date has fired and
// every fired nudge has been handled and acknowledged.
func (e *env) fired(js jetstream.JetStream, due string) {
	e.t.Helper()
	at, _ := time.Parse(time.RFC3339, due)
	subject := crjs.FiredSubject(NudgeKind, inReview+".reviewer2."+strconv.FormatInt(at.Unix(), 10))
	deadline := time.Now().Add(20 * time.Second)
	for {
		st, err := js.Stream(e.ctx, crjs.ScheduleStreamName)
		var msg *jetstream.RawStreamMsg
		if err == nil {
			msg, err = st.GetLastMsgForSubject(e.ctx, subject)
		}
		if err == nil {
			// Handled means acknowledged: the consumer's ack floor has
			// passed the fired message. Its pending counts alone are not
			// enough, as the server tells a consumer of a new message
			// after storing it, and for a moment both read zero.
			c, cerr := js.Consumer(e.ctx, crjs.ScheduleStreamName, NudgeFireConsumer)
			if cerr == nil {
				info, ierr := c.Info(e.ctx)
				if ierr == nil && info.AckFloor.Stream >= msg.Sequence && info.NumAckPending == 0 {
					return
				}
			}
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("the nudge on %s was not fired and handled in time: %v", subject, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// scheduled waits until the schedule of reviewer2's due date is held.
func (e *env) scheduled(js jetstream.JetStream, due string) {
	e.t.Helper()
	at, _ := time.Parse(time.RFC3339, due)
	subject := crjs.OnceSubject(NudgeKind, inReview+".reviewer2."+strconv.FormatInt(at.Unix(), 10))
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, err := js.Stream(e.ctx, crjs.ScheduleStreamName)
		if err == nil {
			if _, err = st.GetLastMsgForSubject(e.ctx, subject); err == nil {
				return
			}
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("no schedule on %s: %v", subject, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestNudgeFiresOnceWhenUnanswered(t *testing.T) {
	t.Parallel()
	e, js := startNudges(t)
	due := e.request(time.Now().Add(2 * time.Second))
	e.fired(js, due)
	got := e.nudges()
	if len(got) != 1 || got[0].Reviewer != "reviewer2" || got[0].Due != due {
		t.Fatalf("nudges %+v, want one of reviewer2 due %s", got, due)
	}
	// Firing again (a redelivery, another replica) records nothing more.
	res, err := e.cmd.NudgeReviewer(e.ctx, domain.NudgeReviewer{CommandID: events.NewID(time.Now()), Proposal: inReview,
		Reviewer: "reviewer2", Due: due})
	if err != nil || len(res.EventIDs) != 0 || len(e.nudges()) != 1 {
		t.Errorf("a second nudge: %+v %v, %d nudges", res, err, len(e.nudges()))
	}
	last, _ := e.js.Store.LastSequence(e.ctx)
	if err := e.read.WaitFor(e.ctx, last); err != nil {
		t.Fatal(err)
	}
	page, err := e.read.Inbox(e.ctx, projections.InboxFilter{User: "reviewer2", Kind: "review_overdue"})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Rows) != 1 || page.Rows[0].Proposal != inReview || page.Rows[0].Detail != due {
		t.Errorf("reviewer2's overdue items: %+v, want one for %s due %s", page.Rows, inReview, due)
	}
	over, err := e.read.OverdueReviews(e.ctx, []string{inReview})
	if err != nil || len(over[inReview]) != 1 || over[inReview][0].Reviewer != "reviewer2" {
		t.Errorf("overdue reviews %+v %v, want reviewer2's", over, err)
	}
	// Answering ends the overdue mark.
	p, err := e.cmd.Proposal(e.ctx, inReview)
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, ev := range p.Evidence {
		all = append(all, ev.EvidenceID)
	}
	if _, err := e.cmd.CastVote(e.ctx, e.actor("reviewer2"), domain.CastVote{CommandID: events.NewID(time.Now()), Proposal: inReview,
		Revision: p.Revision, Verdict: events.Approve, VerifiedEvidence: all}); err != nil {
		t.Fatal(err)
	}
	last, _ = e.js.Store.LastSequence(e.ctx)
	if err := e.read.WaitFor(e.ctx, last); err != nil {
		t.Fatal(err)
	}
	if over, err := e.read.OverdueReviews(e.ctx, []string{inReview}); err != nil || len(over) != 0 {
		t.Errorf("overdue after the vote: %+v %v, want none", over, err)
	}
}

func TestNoNudgeWhenAnsweredInTime(t *testing.T) {
	t.Parallel()
	e, js := startNudges(t)
	due := e.request(time.Now().Add(2 * time.Second))
	p, err := e.cmd.Proposal(e.ctx, inReview)
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, ev := range p.Evidence {
		all = append(all, ev.EvidenceID)
	}
	if _, err := e.cmd.CastVote(e.ctx, e.actor("reviewer2"), domain.CastVote{CommandID: events.NewID(time.Now()), Proposal: inReview,
		Revision: p.Revision, Verdict: events.Approve, VerifiedEvidence: all}); err != nil {
		t.Fatal(err)
	}
	e.fired(js, due)
	if got := e.nudges(); len(got) != 0 {
		t.Errorf("nudges after an answer in time: %+v, want none", got)
	}
}

func TestReplacedDueDateNudgesAtTheNewOne(t *testing.T) {
	t.Parallel()
	e, js := startNudges(t)
	first := e.request(time.Now().Add(2 * time.Second))
	e.scheduled(js, first) // so the replaced schedule fires, and the domain must refuse it
	second := e.request(time.Now().Add(4 * time.Second))
	if first == second {
		t.Fatal("the two due dates fall in one second")
	}
	e.fired(js, first)
	if got := e.nudges(); len(got) != 0 {
		t.Fatalf("nudges at the replaced due date: %+v, want none", got)
	}
	e.fired(js, second)
	if got := e.nudges(); len(got) != 1 || got[0].Due != second {
		t.Fatalf("nudges %+v, want one at %s", got, second)
	}
}
