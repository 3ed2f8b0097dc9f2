package projections

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// The dashboard's queues, a page at a time: each page is read in queue
// order from an index (migration 015) with LIMIT/OFFSET, and counted.

// Queue names one of the dashboard's queues of proposals.
type Queue string

// The dashboard's queues of proposals.
const (
	QueueMyDrafts       Queue = "my-drafts"        // drafts the user authored or revised, latest change first
	QueueMyInReview     Queue = "my-in-review"     // the user's proposals in review or cross-validated, latest change first
	QueueAwaitingReview Queue = "awaiting-review"  // in review, the user may vote and has no vote on this revision, oldest change first
	QueueReadyToPublish Queue = "ready-to-publish" // cross-validated, oldest change first
)

// QueueQuery selects a page of one queue of User's dashboard.
type QueueQuery struct {
	Queue   Queue
	User    string
	Page    int // 1-based; 0 is the first
	PerPage int // at least 1
}

// QueuePage is one page of a queue. Total counts the whole queue; its
// first Firsts proposals are those where it is the user's turn, listed
// first: in QueueAwaitingReview those the user was asked to review, in
// QueueMyInReview those with a veto open or a reviewer's comment
// unresolved.
type QueuePage struct {
	Items  []ProposalSummary
	Total  int
	Firsts int
}

// queueSQL is a queue's condition (columns qualified with "p."), its
// arguments and its order; first and its arguments select the proposals
// listed first ("" for none).
type queueSQL struct {
	where     string
	args      []any
	order     string
	first     string
	firstArgs []any
}

func (q QueueQuery) sql() queueSQL {
	u := q.User
	switch q.Queue {
	case QueueMyDrafts:
		return queueSQL{where: `p.status='draft' AND (p.author=? OR EXISTS (SELECT 1 FROM json_each(p.revisers) WHERE value=?))`,
			args: []any{u, u}, order: `p.updated_at DESC, p.id DESC`}
	case QueueMyInReview:
		// The author is in the proposal's attention set (the domain's
		// Proposal.AttentionSet): a veto is open, or a comment of someone
		// who may vote on it is unresolved. The dashboard's test holds
		// the two to agreeing.
		return queueSQL{where: `p.author=? AND p.status IN ('in_review','cross_validated')`, args: []any{u},
			order: `p.updated_at DESC, p.id DESC`,
			first: authorsTurn}
	case QueueAwaitingReview:
		return queueSQL{where: `p.status='in_review' AND p.author<>?
			AND NOT EXISTS (SELECT 1 FROM json_each(p.revisers) WHERE value=?)
			AND NOT EXISTS (SELECT 1 FROM votes v WHERE v.proposal=p.id AND v.voter=? AND v.current=1 AND v.revision=p.revision)`,
			args: []any{u, u, u}, order: `p.updated_at, p.id`,
			first: `p.id IN (SELECT proposal FROM proposal_reviewers WHERE reviewer=?)`, firstArgs: []any{u}}
	}
	return queueSQL{where: `p.status='cross_validated'`, order: `p.updated_at, p.id`}
}

// authorsTurn selects the proposals in their author's attention set:
// those with a veto open or a comment unresolved by someone who may vote.
// It lists them from the few votes and comments that qualify (partial
// indexes, migration 028) instead of testing each of the author's
// proposals, which at 10,000 was most of the editor's dashboard.
const authorsTurn = `p.id IN (SELECT v.proposal FROM votes v WHERE v.current=1 AND v.verdict='reject' AND v.dismissed_by IS NULL
	UNION SELECT c.proposal FROM comments c JOIN proposals q ON q.id=c.proposal
	WHERE c.resolved_by='' AND c.author<>q.author AND NOT EXISTS (SELECT 1 FROM json_each(q.revisers) WHERE value=c.author))`

// parts are the queue's two runs, the first and the rest, each a
// condition with its arguments; a queue without a first run has one.
func (s queueSQL) parts() [][2]any {
	if s.first == "" {
		return [][2]any{{s.where, s.args}}
	}
	return [][2]any{
		{s.where + ` AND ` + s.first, append(append([]any{}, s.args...), s.firstArgs...)},
		{s.where + ` AND NOT (` + s.first + `)`, append(append([]any{}, s.args...), s.firstArgs...)},
	}
}

// QueueProposals returns one page of a queue: the first run, then the
// rest, each in the queue's order. The counts are the queue's and its
// first run's; the rest counts as their difference. A count scans the
// queue (an index range, with the queue's tests on each row), so it is
// kept while the read models stay at one position (positionCache); the
// page itself is read in the index's order, LIMIT and OFFSET.
func (s *Store) QueueProposals(ctx context.Context, q QueueQuery) (QueuePage, error) {
	per := max(1, q.PerPage)
	sq := q.sql()
	var page QueuePage
	var err error
	count := func(where string, args []any) (int, error) {
		return atPosition(s, fmt.Sprint("queue\x00", where, args), func() (n int, err error) {
			err = s.db.QueryRowContext(ctx, `SELECT count(*) FROM proposals p WHERE `+where, args...).Scan(&n)
			return n, err
		})
	}
	if page.Total, err = count(sq.where, sq.args); err != nil {
		return page, err
	}
	offset := (max(1, q.Page) - 1) * per
	for i, part := range sq.parts() {
		where, args := part[0].(string), part[1].([]any)
		n := page.Total
		if sq.first != "" {
			if i == 0 {
				if page.Firsts, err = count(where, args); err != nil {
					return page, err
				}
				n = page.Firsts
			} else {
				n = page.Total - page.Firsts
			}
		}
		if need := per - len(page.Items); need > 0 && offset < n {
			rows, err := s.proposalList(ctx, `WHERE `+where+` ORDER BY `+sq.order+` LIMIT ? OFFSET ?`, append(args, need, offset)...)
			if err != nil {
				return page, err
			}
			page.Items = append(page.Items, rows...)
		}
		offset = max(0, offset-n)
	}
	return page, nil
}

// staleFrom joins published values to their evidence past its validity on
// a day, led by the evidence index in validity order (CROSS JOIN keeps
// that order), so a page is read without sorting the queue.
const staleFrom = ` FROM evidence e CROSS JOIN published_evidence pe ON pe.proposal=e.proposal AND pe.evidence_id=e.evidence_id
	JOIN entries en ON en.ranking=pe.ranking AND en.slug=pe.entry
	WHERE e.stale_after IS NOT NULL AND e.stale_after < ?`

// staleGroup makes one row of each stale evidence item on each entry,
// however many of the entry's published values cite it: the item is
// re-verified once, and the entry's public page counts items too.
const staleGroup = ` GROUP BY e.stale_after, e.proposal, e.evidence_id, pe.ranking, pe.entry`

// staleOrder lists the oldest validity first, then by evidence item.
const staleOrder = ` ORDER BY e.stale_after, e.proposal, e.evidence_id, pe.ranking, pe.entry`

// StaleEvidencePage returns one page of the published evidence items past
// their validity on day now, each with the values it backs on its entry,
// and how many there are.
func (s *Store) StaleEvidencePage(ctx context.Context, now time.Time, page, perPage int) ([]StaleEvidence, int, error) {
	day := now.Format(time.DateOnly)
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1`+staleFrom+staleGroup+`)`, day).Scan(&total); err != nil {
		return nil, 0, err
	}
	per := max(1, perPage)
	rows, err := s.db.QueryContext(ctx, `SELECT pe.ranking, pe.entry, en.name_zh, group_concat(pe.target, char(31)), `+evidenceCols+staleFrom+staleGroup+staleOrder+` LIMIT ? OFFSET ?`,
		day, per, (max(1, page)-1)*per)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []StaleEvidence
	for rows.Next() {
		var st StaleEvidence
		var targets string
		if err := rows.Scan(append([]any{&st.Ranking, &st.Entry, &st.EntryName, &targets}, st.Evidence.dest()...)...); err != nil {
			return nil, 0, err
		}
		st.Targets = strings.Split(targets, "\x1f")
		slices.Sort(st.Targets)
		out = append(out, st)
	}
	return out, total, rows.Err()
}
