package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// ProposalSummary is a proposal in a list or queue.
type ProposalSummary struct {
	ID        string
	Ranking   string
	Entry     string
	EntryName string
	NewEntry  bool
	Title     string
	Author    string
	Status    domain.Status
	Revision  int
	Revisers  []string
	OpenedAt  string
	UpdatedAt string
	Edition   int
	Quorum    domain.QuorumState
	// Kind is domain.KindMethodology for a methodology proposal (Entry
	// empty); NewRanking, one that defines its ranking.
	Kind       string
	NewRanking bool
}

const proposalCols = `p.id, p.ranking, p.entry, coalesce(e.name_zh, p.entry), p.new_entry, p.title, p.author, p.status,
	p.revision, p.revisers, p.opened_at, p.updated_at, p.edition, p.quorum, p.kind, p.new_ranking`

func (s *Store) proposalList(ctx context.Context, where string, args ...any) ([]ProposalSummary, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+proposalCols+` FROM proposals p
		LEFT JOIN entries e ON e.ranking=p.ranking AND e.slug=p.entry `+prefixed(where), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ProposalSummary
	for rows.Next() {
		var p ProposalSummary
		var revisers, quorum, status string
		if err := rows.Scan(&p.ID, &p.Ranking, &p.Entry, &p.EntryName, &p.NewEntry, &p.Title, &p.Author, &status,
			&p.Revision, &revisers, &p.OpenedAt, &p.UpdatedAt, &p.Edition, &quorum, &p.Kind, &p.NewRanking); err != nil {
			return nil, err
		}
		p.Status = domain.Status(status)
		_ = json.Unmarshal([]byte(revisers), &p.Revisers)
		_ = json.Unmarshal([]byte(quorum), &p.Quorum)
		out = append(out, p)
	}
	return out, rows.Err()
}

// prefixed qualifies the bare column names the callers use with "p.".
func prefixed(where string) string {
	out := []byte{}
	cols := []string{"ranking", "entry", "status", "author", "opened_at", "updated_at", "id", "edition"}
	for i := 0; i < len(where); {
		matched := false
		for _, c := range cols {
			if len(where)-i >= len(c) && where[i:i+len(c)] == c && (i == 0 || !isIdent(where[i-1])) &&
				(i+len(c) == len(where) || !isIdent(where[i+len(c)])) {
				out = append(out, "p."+c...)
				i += len(c)
				matched = true
				break
			}
		}
		if !matched {
			out = append(out, where[i])
			i++
		}
	}
	return string(out)
}

func isIdent(b byte) bool {
	return b == '_' || b == '.' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// Queues are the dashboard's lists for one user.
type Queues struct {
	MyDrafts       []ProposalSummary // drafts the user authored or revised
	MyInReview     []ProposalSummary // the user's proposals in review
	AwaitingReview []ProposalSummary // in review, the user may vote and has no current vote on this revision
	ReadyToPublish []ProposalSummary // cross-validated
	Stale          []StaleEvidence   // evidence of published values past its validity
	Recent         []EditionSummary  // recently published editions
}

// StaleEvidence is a published value whose evidence may be out of date.
type StaleEvidence struct {
	Ranking   string
	Entry     string
	EntryName string
	Targets   []string // the entry's published values citing it, sorted
	Evidence  EvidenceView
}

// Queues returns the dashboard for user on day now.
func (s *Store) Queues(ctx context.Context, user string, now time.Time) (Queues, error) {
	var q Queues
	var err error
	if q.MyDrafts, err = s.proposalList(ctx, `WHERE status='draft' AND (author=? OR EXISTS (SELECT 1 FROM json_each(p.revisers) WHERE value=?)) ORDER BY updated_at DESC`, user, user); err != nil {
		return q, err
	}
	if q.MyInReview, err = s.proposalList(ctx, `WHERE status IN ('in_review','cross_validated') AND author=? ORDER BY updated_at DESC`, user); err != nil {
		return q, err
	}
	if q.AwaitingReview, err = s.proposalList(ctx, `WHERE status='in_review' AND author<>?
		AND NOT EXISTS (SELECT 1 FROM json_each(p.revisers) WHERE value=?)
		AND NOT EXISTS (SELECT 1 FROM votes v WHERE v.proposal=p.id AND v.voter=? AND v.current=1 AND v.revision=p.revision)
		ORDER BY updated_at`, user, user, user); err != nil {
		return q, err
	}
	if q.ReadyToPublish, err = s.proposalList(ctx, `WHERE status='cross_validated' ORDER BY updated_at`); err != nil {
		return q, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT pe.ranking, pe.entry, en.name_zh, pe.target, `+evidenceCols+`
		FROM published_evidence pe JOIN evidence e ON e.proposal=pe.proposal AND e.evidence_id=pe.evidence_id
		JOIN entries en ON en.ranking=pe.ranking AND en.slug=pe.entry
		WHERE e.stale_after IS NOT NULL AND e.stale_after < ? ORDER BY e.stale_after, pe.entry, pe.target LIMIT 200`, now.Format(time.DateOnly))
	if err != nil {
		return q, err
	}
	for rows.Next() {
		var st StaleEvidence
		var target string
		if err := rows.Scan(append([]any{&st.Ranking, &st.Entry, &st.EntryName, &target}, st.Evidence.dest()...)...); err != nil {
			rows.Close()
			return q, err
		}
		st.Targets = []string{target}
		q.Stale = append(q.Stale, st)
	}
	rows.Close()
	q.Recent, err = s.Editions(ctx, "", 5)
	return q, err
}

// EditionSummary is an edition in a list.
type EditionSummary struct {
	Ranking      string
	Number       int
	PublishedAt  string
	Publisher    string
	Proposals    []string
	SnapshotHash string
	Note         string
	Seq          uint64
	Changes      int
}

// Editions lists editions newest first, of one ranking or all ("").
func (s *Store) Editions(ctx context.Context, ranking string, limit int) ([]EditionSummary, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT ed.ranking, ed.number, ed.published_at, ed.publisher, ed.proposals,
		ed.snapshot_hash, ed.note, ed.seq, (SELECT count(*) FROM edition_changes c WHERE c.ranking=ed.ranking AND c.number=ed.number)
		FROM editions ed WHERE ?='' OR ed.ranking=? ORDER BY ed.seq DESC LIMIT ?`, ranking, ranking, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []EditionSummary
	for rows.Next() {
		var e EditionSummary
		var props string
		if err := rows.Scan(&e.Ranking, &e.Number, &e.PublishedAt, &e.Publisher, &props, &e.SnapshotHash, &e.Note, &e.Seq, &e.Changes); err != nil {
			return nil, err
		}
		_ = json.Unmarshal([]byte(props), &e.Proposals)
		out = append(out, e)
	}
	return out, rows.Err()
}

// ChangeView is one proposed change with its baseline.
type ChangeView struct {
	Target    string
	Revision  int
	FromScore *int
	ToScore   *int
	FromTags  []string
	ToTags    []string
	Rationale events.Text
	Evidence  []string
}

// VoteView is one vote, current or replaced.
type VoteView struct {
	Voter       string
	Revision    int
	Verdict     string
	Verified    []string
	Comment     string
	CastAt      string
	Current     bool
	Outdated    bool // an approval of an earlier revision
	DismissedBy string
	Dismissal   string
}

// RevisionView is one revision of a proposal.
type RevisionView struct {
	Revision int
	Actor    string
	At       string
	Note     string
}

// ProposalDetail is everything the review page shows.
type ProposalDetail struct {
	ProposalSummary
	Summary      string
	ClosedReason string
	Changes      []ChangeView
	Evidence     []EvidenceView // current revision first, removed ones marked
	Votes        []VoteView     // current votes first, then replaced ones
	Revisions    []RevisionView
}

// Proposal returns a proposal's detail.
func (s *Store) Proposal(ctx context.Context, id string) (ProposalDetail, error) {
	list, err := s.proposalList(ctx, `WHERE id=?`, id)
	if err != nil {
		return ProposalDetail{}, err
	}
	if len(list) == 0 {
		return ProposalDetail{}, ErrNotFound
	}
	d := ProposalDetail{ProposalSummary: list[0]}
	err = s.db.QueryRowContext(ctx, `SELECT summary, closed_reason FROM proposals WHERE id=?`, id).Scan(&d.Summary, &d.ClosedReason)
	if err != nil {
		return d, err
	}
	cq, err := s.db.QueryContext(ctx, `SELECT target, revision, from_score, to_score, from_tags, to_tags, rationale_zh, rationale_en, evidence
		FROM changes WHERE proposal=? ORDER BY target`, id)
	if err != nil {
		return d, err
	}
	for cq.Next() {
		var c ChangeView
		var fs, ts sql.NullInt64
		var ft, tt sql.NullString
		var ev string
		if err := cq.Scan(&c.Target, &c.Revision, &fs, &ts, &ft, &tt, &c.Rationale.Zh, &c.Rationale.En, &ev); err != nil {
			cq.Close()
			return d, err
		}
		c.FromScore, c.ToScore = intPtr(fs), intPtr(ts)
		if ft.Valid {
			_ = json.Unmarshal([]byte(ft.String), &c.FromTags)
		}
		if tt.Valid {
			_ = json.Unmarshal([]byte(tt.String), &c.ToTags)
		}
		_ = json.Unmarshal([]byte(ev), &c.Evidence)
		d.Changes = append(d.Changes, c)
	}
	cq.Close()
	eq, err := s.db.QueryContext(ctx, `SELECT `+evidenceCols+` FROM evidence e WHERE e.proposal=?
		ORDER BY e.removed_revision IS NOT NULL, length(e.evidence_id), e.evidence_id`, id)
	if err != nil {
		return d, err
	}
	for eq.Next() {
		var e EvidenceView
		if err := eq.Scan(e.dest()...); err != nil {
			eq.Close()
			return d, err
		}
		d.Evidence = append(d.Evidence, e)
	}
	eq.Close()
	vq, err := s.db.QueryContext(ctx, `SELECT voter, revision, verdict, verified, comment, cast_at, current,
		coalesce(dismissed_by, ''), coalesce(dismiss_reason, '') FROM votes WHERE proposal=? ORDER BY current DESC, seq DESC`, id)
	if err != nil {
		return d, err
	}
	for vq.Next() {
		var v VoteView
		var verified string
		if err := vq.Scan(&v.Voter, &v.Revision, &v.Verdict, &verified, &v.Comment, &v.CastAt, &v.Current, &v.DismissedBy, &v.Dismissal); err != nil {
			vq.Close()
			return d, err
		}
		_ = json.Unmarshal([]byte(verified), &v.Verified)
		v.Outdated = v.Verdict == "approve" && v.Revision != d.Revision
		d.Votes = append(d.Votes, v)
	}
	vq.Close()
	rq, err := s.db.QueryContext(ctx, `SELECT revision, actor, at, note FROM revisions WHERE proposal=? ORDER BY revision`, id)
	if err != nil {
		return d, err
	}
	defer rq.Close()
	for rq.Next() {
		var r RevisionView
		if err := rq.Scan(&r.Revision, &r.Actor, &r.At, &r.Note); err != nil {
			return d, err
		}
		d.Revisions = append(d.Revisions, r)
	}
	return d, rq.Err()
}

func intPtr(n sql.NullInt64) *int {
	if !n.Valid {
		return nil
	}
	v := int(n.Int64)
	return &v
}
