package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"

	"github.com/crossrank/crossrank/events"
)

// Entry returns an entry with every published score and the evidence behind
// it, its attributes, its rank history across editions and its proposals.
func (s *Store) Entry(ctx context.Context, ranking, slug string) (EntryView, error) {
	r, edition, err := s.Definition(ctx, ranking)
	if err != nil {
		return EntryView{}, err
	}
	v := EntryView{Ranking: r, Edition: edition, Slug: slug}
	var pub sql.NullInt64
	var rank, catRank sql.NullInt64
	err = s.db.QueryRowContext(ctx, `SELECT name_zh, name_en, category, website, desc_zh, desc_en, published_edition,
		total, rank, category_rank FROM entries WHERE ranking=? AND slug=?`, ranking, slug).Scan(
		&v.Name.Zh, &v.Name.En, &v.Category, &v.Website, &v.Description.Zh, &v.Description.En, &pub, &v.Total, &rank, &catRank)
	if errors.Is(err, sql.ErrNoRows) {
		return v, ErrNotFound
	}
	if err != nil {
		return v, err
	}
	v.Published, v.Rank, v.CategoryRnk = pub.Valid, int(rank.Int64), int(catRank.Int64)
	evidence, err := s.publishedEvidence(ctx, ranking, slug)
	if err != nil {
		return v, err
	}
	rationale := map[string]events.Text{}
	rr, err := s.db.QueryContext(ctx, `SELECT c.proposal, c.target, c.rationale_zh, c.rationale_en FROM changes c
		JOIN scores s ON s.proposal=c.proposal AND c.target='score:'||s.criterion WHERE s.ranking=? AND s.entry=?`, ranking, slug)
	if err != nil {
		return v, err
	}
	for rr.Next() {
		var p, t string
		var text events.Text
		if err := rr.Scan(&p, &t, &text.Zh, &text.En); err != nil {
			rr.Close()
			return v, err
		}
		rationale[p+"/"+t] = text
	}
	rr.Close()
	scores := map[string]ScoreView{}
	sq, err := s.db.QueryContext(ctx, `SELECT criterion, score, proposal, edition FROM scores WHERE ranking=? AND entry=?`, ranking, slug)
	if err != nil {
		return v, err
	}
	for sq.Next() {
		var sv ScoreView
		if err := sq.Scan(&sv.Criterion, &sv.Score, &sv.Proposal, &sv.Edition); err != nil {
			sq.Close()
			return v, err
		}
		sv.Evidence = evidence["score:"+sv.Criterion]
		sv.Rationale = rationale[sv.Proposal+"/score:"+sv.Criterion]
		scores[sv.Criterion] = sv
	}
	sq.Close()
	for _, c := range r.Criteria {
		if sv, ok := scores[c.Slug]; ok {
			v.Scores = append(v.Scores, sv)
		}
	}
	aq, err := s.db.QueryContext(ctx, `SELECT key, tags, proposal, edition FROM attributes WHERE ranking=? AND entry=? ORDER BY key`, ranking, slug)
	if err != nil {
		return v, err
	}
	for aq.Next() {
		var av AttributeView
		var tags string
		if err := aq.Scan(&av.Key, &tags, &av.Proposal, &av.Edition); err != nil {
			aq.Close()
			return v, err
		}
		_ = json.Unmarshal([]byte(tags), &av.Tags)
		av.Evidence = evidence["attr:"+av.Key]
		v.Attributes = append(v.Attributes, av)
	}
	aq.Close()
	hq, err := s.db.QueryContext(ctx, `SELECT number, after_rank, after_total FROM edition_moves
		WHERE ranking=? AND entry=? ORDER BY number`, ranking, slug)
	if err != nil {
		return v, err
	}
	for hq.Next() {
		var p RankPoint
		if err := hq.Scan(&p.Edition, &p.Rank, &p.Total); err != nil {
			hq.Close()
			return v, err
		}
		v.History = append(v.History, p)
	}
	hq.Close()
	v.Proposals, err = s.proposalList(ctx, `WHERE ranking=? AND entry=? ORDER BY opened_at DESC, id`, ranking, slug)
	return v, err
}

// publishedEvidence returns the evidence behind each published target of an entry.
func (s *Store) publishedEvidence(ctx context.Context, ranking, entry string) (map[string][]EvidenceView, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT pe.target, `+evidenceCols+` FROM published_evidence pe
		JOIN evidence e ON e.proposal=pe.proposal AND e.evidence_id=pe.evidence_id
		WHERE pe.ranking=? AND pe.entry=? ORDER BY pe.target, e.proposal, length(e.evidence_id), e.evidence_id`, ranking, entry)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]EvidenceView{}
	for rows.Next() {
		var target string
		var e EvidenceView
		if err := rows.Scan(append([]any{&target}, e.dest()...)...); err != nil {
			return nil, err
		}
		e.fix()
		out[target] = append(out[target], e)
	}
	return out, rows.Err()
}

const evidenceCols = `e.proposal, e.evidence_id, e.claim_zh, e.claim_en, e.source_url, e.source_name, e.section, e.excerpt,
	e.observed_on, e.valid_for_days, coalesce(e.stale_after, ''), e.added_by, e.removed_revision IS NOT NULL,
	e.capture_state, e.capture_sha256, e.capture_final_url, e.capture_status, e.capture_content_type, e.capture_size,
	e.capture_at, e.quote_found, e.quote_checked, e.capture_reason, e.capture_attempts,
	e.drift_state, e.drift_sha256, e.drift_status, e.drift_quote_found, e.drift_quote_checked, e.drift_reason, e.drift_at, e.tier`

func (e *EvidenceView) dest() []any {
	c, d := &e.Capture, &e.Drift
	return []any{&e.Proposal, &e.ID, &e.Claim.Zh, &e.Claim.En, &e.SourceURL, &e.SourceName, &e.Section, &e.Excerpt,
		&e.ObservedOn, &e.ValidForDays, &e.StaleAfter, &e.AddedBy, &e.Removed,
		&c.State, &c.SHA256, &c.FinalURL, &c.Status, &c.ContentType, &c.Size, &c.At, &c.QuoteFound, &c.QuoteChecked, &c.Reason, &c.Attempts,
		&d.State, &d.SHA256, &d.Status, &d.QuoteFound, &d.QuoteChecked, &d.Reason, &d.At, &e.Tier}
}

func (e *EvidenceView) fix() {
	e.Claim.Zh, e.Claim.En = strings.TrimSpace(e.Claim.Zh), strings.TrimSpace(e.Claim.En)
}
