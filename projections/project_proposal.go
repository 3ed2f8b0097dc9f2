package projections

import (
	"fmt"
	"sort"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// projectProposal writes the rows of a proposal event and refreshes the
// proposal's summary row, including its quorum state.
func (p *projector) projectProposal(ev events.Event, pr *domain.Proposal, a *auditRow) error {
	a.ranking, a.entry, a.proposal = pr.Ranking, pr.Entry, pr.ID
	switch d := ev.Data.(type) {
	case *events.ProposalOpened:
		a.say("proposal_opened", "title", pr.Title)
		if err := p.exec(`INSERT INTO revisions VALUES (?,?,?,?,?)`, pr.ID, 1, ev.Actor, ts(ev.Time), ""); err != nil {
			return err
		}
		if d.Proposed != nil { // the rows of a MethodologyProposed of its own
			a.say("proposal_opened_methodology", "title", pr.Title, "methodology", d.Proposed.Methodology.Title)
			a.after = domain.MethodologyHash(d.Proposed.Methodology)
			if err := p.saveMethodologyProposal(pr); err != nil {
				return err
			}
		}
	case *events.EvidenceAdded:
		a.say("evidence_added", "evidence", d.EvidenceID, "claim", d.Claim)
		var stale any
		if d.ValidForDays > 0 {
			if obs, err := time.Parse(time.DateOnly, d.ObservedOn); err == nil {
				stale = obs.AddDate(0, 0, d.ValidForDays).Format(time.DateOnly)
			}
		}
		if err := p.exec(`INSERT INTO evidence(proposal, evidence_id, revision, claim_zh, claim_en, source_url, source_name, section,
			excerpt, observed_on, valid_for_days, stale_after, added_by, added_at, tier) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			pr.ID, d.EvidenceID, d.Revision, d.Claim.Zh, d.Claim.En, d.SourceURL, d.SourceName, d.Section, d.Excerpt,
			d.ObservedOn, d.ValidForDays, stale, ev.Actor, ts(ev.Time), d.Tier); err != nil {
			return err
		}
	case *events.EvidenceRemoved:
		a.say("evidence_removed", "evidence", d.EvidenceID)
		if err := p.exec(`UPDATE evidence SET removed_revision=? WHERE proposal=? AND evidence_id=?`, d.Revision, pr.ID, d.EvidenceID); err != nil {
			return err
		}
	case *events.EvidenceCaptured:
		a.say("evidence_captured", "evidence", d.EvidenceID, "status", d.Status, "bytes", d.Size)
		a.after = d.SHA256
		// The first result stands, as in domain.Proposal: a second one
		// another writer stored changes no row.
		if err := p.exec(`UPDATE evidence SET capture_state='captured', capture_sha256=?, capture_final_url=?,
			capture_status=?, capture_content_type=?, capture_size=?, capture_at=?, quote_found=?, quote_checked=?
			WHERE proposal=? AND evidence_id=? AND capture_state='none'`,
			d.SHA256, d.FinalURL, d.Status, d.ContentType, d.Size, d.FetchedAt, boolInt(d.QuoteFound), boolInt(d.QuoteChecked),
			pr.ID, d.EvidenceID); err != nil {
			return err
		}
		if err := p.markEvidence(pr.ID, d.EvidenceID, ev.Sequence); err != nil {
			return err
		}
	case *events.EvidenceCaptureFailed:
		a.say("evidence_capture_failed", "evidence", d.EvidenceID, "reason", d.Reason)
		a.after = d.Reason
		if err := p.exec(`UPDATE evidence SET capture_state='failed', capture_reason=?, capture_at=?, capture_attempts=?
			WHERE proposal=? AND evidence_id=? AND capture_state='none'`, d.Reason, d.At, d.Attempts, pr.ID, d.EvidenceID); err != nil {
			return err
		}
		if err := p.markEvidence(pr.ID, d.EvidenceID, ev.Sequence); err != nil {
			return err
		}
	case *events.EvidenceSourceChanged:
		if d.QuoteFound {
			a.say("source_changed_quote_found", "evidence", d.EvidenceID)
		} else {
			a.say("source_changed_quote_lost", "evidence", d.EvidenceID)
		}
		a.after = d.SHA256
		if err := p.exec(`UPDATE evidence SET drift_state='changed', drift_sha256=?, drift_status=?, drift_quote_found=?,
			drift_quote_checked=?, drift_reason='', drift_at=?, drift_tick=? WHERE proposal=? AND evidence_id=?`,
			d.SHA256, d.Status, boolInt(d.QuoteFound), boolInt(d.QuoteChecked), d.CheckedAt, d.Tick, pr.ID, d.EvidenceID); err != nil {
			return err
		}
		if err := p.markEvidence(pr.ID, d.EvidenceID, ev.Sequence); err != nil {
			return err
		}
	case *events.EvidenceSourceDead:
		a.say("source_dead", "evidence", d.EvidenceID, "reason", d.Reason)
		a.after = d.Reason
		// The version last seen stays in drift_sha256, as in domain.Evidence.
		if err := p.exec(`UPDATE evidence SET drift_state='dead', drift_sha256=CASE WHEN drift_sha256='' THEN capture_sha256 ELSE drift_sha256 END,
			drift_status=?, drift_quote_found=0, drift_quote_checked=0, drift_reason=?, drift_at=?, drift_tick=?
			WHERE proposal=? AND evidence_id=?`, d.Status, d.Reason, d.CheckedAt, d.Tick, pr.ID, d.EvidenceID); err != nil {
			return err
		}
		if err := p.markEvidence(pr.ID, d.EvidenceID, ev.Sequence); err != nil {
			return err
		}
	case *events.MethodologyProposed:
		a.say("methodology_proposed", "methodology", d.Methodology.Title)
		a.after = domain.MethodologyHash(d.Methodology)
		if err := p.saveMethodologyProposal(pr); err != nil {
			return err
		}
	case *events.ScoreChangeProposed:
		a.say("score_proposed", "criterion", d.Criterion, "to", d.To)
		a.before, a.after = scoreText(d.From), fmt.Sprint(d.To)
		to := d.To
		if err := p.saveChange(pr.ID, "score:"+d.Criterion, d.Revision, d.From, &to, nil, nil, true, d.Rationale, d.Evidence); err != nil {
			return err
		}
	case *events.AttributeChangeProposed:
		a.say("attribute_proposed", "attribute", d.Attribute)
		a.before, a.after = jsonText(nonNil(d.From)), jsonText(nonNil(d.To))
		if err := p.saveChange(pr.ID, "attr:"+d.Attribute, d.Revision, nil, nil, d.From, d.To, false, d.Rationale, d.Evidence); err != nil {
			return err
		}
	case *events.ChangeRemoved:
		a.say("change_removed", "target", d.Target)
		if err := p.exec(`DELETE FROM changes WHERE proposal=? AND target=?`, pr.ID, d.Target); err != nil {
			return err
		}
	case *events.ProposalSubmitted:
		a.say("proposal_submitted", "revision", d.Revision)
	case *events.ProposalRevised:
		a.say("proposal_revised", "revision", d.Revision)
		if err := p.exec(`INSERT INTO revisions VALUES (?,?,?,?,?)`, pr.ID, d.Revision, ev.Actor, ts(ev.Time), d.Note); err != nil {
			return err
		}
		if pr.Methodology != nil {
			if err := p.saveMethodologyProposal(pr); err != nil {
				return err
			}
		}
		for _, rb := range d.Rebase {
			if rb.Target == "methodology" {
				continue
			}
			if err := p.exec(`UPDATE changes SET from_score=?, from_tags=CASE WHEN from_tags IS NULL THEN NULL ELSE ? END
				WHERE proposal=? AND target=?`, nullInt(rb.Score), jsonText(nonNil(rb.Tags)), pr.ID, rb.Target); err != nil {
				return err
			}
		}
	case *events.VoteCast:
		switch t := d.Transition; {
		case t.CrossValidated != nil:
			a.say("vote_cast_cross_validated", "verdict", d.Verdict, "revision", d.Revision, "validated", t.CrossValidated.Revision)
		case t.ReturnedToReview != nil:
			a.say("vote_cast_returned", "verdict", d.Verdict, "revision", d.Revision, "return_reason", t.ReturnedToReview.Reason)
		default:
			a.say("vote_cast", "verdict", d.Verdict, "revision", d.Revision)
		}
		a.after = d.Verdict
		if err := p.exec(`UPDATE votes INDEXED BY votes_proposal SET current=0 WHERE proposal=? AND voter=? AND current=1`, pr.ID, ev.Actor); err != nil {
			return err
		}
		if err := p.exec(`INSERT INTO votes(seq, proposal, voter, revision, verdict, verified, comment, cast_at, current)
			VALUES (?,?,?,?,?,?,?,?,1)`, ev.Sequence, pr.ID, ev.Actor, d.Revision, d.Verdict,
			jsonText(nonNil(d.VerifiedEvidence)), d.Comment, ts(ev.Time)); err != nil {
			return err
		}
	case *events.VetoDismissed:
		switch t := d.Transition; {
		case t.CrossValidated != nil:
			a.say("veto_dismissed_cross_validated", "voter", d.Voter, "reason", d.Reason, "validated", t.CrossValidated.Revision)
		case t.ReturnedToReview != nil:
			a.say("veto_dismissed_returned", "voter", d.Voter, "reason", d.Reason, "return_reason", t.ReturnedToReview.Reason)
		default:
			a.say("veto_dismissed", "voter", d.Voter, "reason", d.Reason)
		}
		if err := p.exec(`UPDATE votes INDEXED BY votes_proposal SET dismissed_by=?, dismiss_reason=?
			WHERE proposal=? AND voter=? AND current=1`,
			ev.Actor, d.Reason, pr.ID, d.Voter); err != nil {
			return err
		}
	case *events.ProposalCrossValidated:
		a.say("cross_validated", "validated", d.Revision)
	case *events.ProposalReturnedToReview:
		a.say("returned_to_review", "return_reason", d.Reason)
	case *events.ProposalPublished:
		a.say("proposal_published", "edition", d.Edition)
	case *events.ProposalRejected:
		a.say("proposal_rejected", "reason", d.Reason)
	case *events.ProposalWithdrawn:
		a.say("proposal_withdrawn")
	case *events.ReviewersRequested, *events.CommentAdded, *events.CommentResolved:
		if err := p.projectWorkflow(ev, pr, a); err != nil {
			return err
		}
	case *events.ReviewNudged:
		if err := p.projectNudge(ev, pr, a); err != nil {
			return err
		}
	default:
		return fmt.Errorf("%w: no projection for %s", events.ErrUnknownType, ev.Type)
	}
	if err := p.notifyProposal(ev, pr); err != nil {
		return err
	}
	if err := p.saveDue(pr); err != nil {
		return err
	}
	return p.saveProposalAt(pr, ts(ev.Time))
}

// saveMethodologyProposal records what a methodology proposal proposes and
// how that differs from the methodology published now.
func (p *projector) saveMethodologyProposal(pr *domain.Proposal) error {
	r, err := p.ranking(pr.Ranking)
	if err != nil {
		return err
	}
	m := pr.Methodology
	if pr.NewRanking && !r.Exists() {
		// The ranking's row holds the definition proposed, unpublished
		// (edition 0), so that entries proposed for it have their ranking.
		if err := p.saveRanking(domain.ProposedRanking(pr.Ranking, m.Methodology), events.Event{Time: pr.Opened}); err != nil {
			return err
		}
	}
	changes := domain.DiffMethodology(r.Methodology(), m.Methodology, !r.Exists())
	if changes == nil {
		changes = []events.MethodologyChange{}
	}
	return p.exec(`INSERT INTO methodology_proposals(proposal, revision, base, rationale_zh, rationale_en, methodology, changes)
		VALUES (?,?,?,?,?,?,?) ON CONFLICT(proposal) DO UPDATE SET
		revision=excluded.revision, base=excluded.base, rationale_zh=excluded.rationale_zh, rationale_en=excluded.rationale_en,
		methodology=excluded.methodology, changes=excluded.changes`,
		pr.ID, pr.Revision, m.Base, m.Rationale.Zh, m.Rationale.En, jsonText(m.Methodology), jsonText(changes))
}

func (p *projector) saveChange(id, target string, rev int, fromS, toS *int, fromT, toT []string, isScore bool, rationale events.Text, ev []string) error {
	return p.exec(`INSERT INTO changes(proposal, target, revision, from_score, to_score, from_tags, to_tags,
		rationale_zh, rationale_en, evidence) VALUES (?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT(proposal, target) DO UPDATE SET revision=excluded.revision, from_score=excluded.from_score,
		to_score=excluded.to_score, from_tags=excluded.from_tags, to_tags=excluded.to_tags,
		rationale_zh=excluded.rationale_zh, rationale_en=excluded.rationale_en, evidence=excluded.evidence`,
		id, target, rev, nullInt(fromS), nullInt(toS), nullTags(fromT, isScore), nullTags(toT, isScore),
		rationale.Zh, rationale.En, jsonText(nonNil(ev)))
}

// proposalRow is a proposal's summary row as of its latest change: the row
// holds the proposal's state, which the projector keeps current, and the
// quorum, which depends on the published edition and the voters' roles at
// the time. Its status is the one shown (domain.Proposal.StatusShown): a
// cross-validated proposal whose quorum no longer holds is in review.
type proposalRow struct {
	pr *domain.Proposal
	at string
	q  domain.QuorumState
}

// saveProposalAt records the proposal's summary row with its quorum state.
// Rows are written once per batch (writeProposals), not once per event: a
// proposal usually changes many times in a batch, and the row was the
// costliest statement of a rebuild.
func (p *projector) saveProposalAt(pr *domain.Proposal, at string) error {
	r, err := p.ranking(pr.Ranking)
	if err != nil {
		return err
	}
	// While the ranking is in review, its proposals are counted against
	// the quorum proposed for it (domain.JudgingRanking).
	dep := pr
	if !pr.NewRanking && pr.DependsOn != "" && !r.Exists() {
		if dep, err = p.proposal(pr.DependsOn); err != nil {
			return err
		}
	}
	r, _ = domain.JudgingRanking(r, pr.Ranking, dep)
	ed, err := p.edition(pr.Ranking)
	if err != nil {
		return err
	}
	holds, err := p.reviewers(pr)
	if err != nil {
		return err
	}
	p.proposals[pr.ID] = proposalRow{pr: pr, at: at, q: r.WithReviewers(holds).QuorumOf(pr, ed)}
	return nil
}

// writeProposals writes the recorded summary rows.
func (p *projector) writeProposals() error {
	ids := make([]string, 0, len(p.proposals))
	for id := range p.proposals {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		row := p.proposals[id]
		pr := row.pr
		err := p.exec(`INSERT INTO proposals(id, ranking, entry, new_entry, title, summary, author, status, revision,
		revisers, opened_at, updated_at, cross_validated_revision, edition, closed_reason, quorum, seq, kind, new_ranking)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT(id) DO UPDATE SET status=excluded.status, revision=excluded.revision, revisers=excluded.revisers,
		updated_at=excluded.updated_at, cross_validated_revision=excluded.cross_validated_revision,
		edition=excluded.edition, closed_reason=excluded.closed_reason, quorum=excluded.quorum, seq=excluded.seq`,
			pr.ID, pr.Ranking, pr.Entry, boolInt(pr.NewEntry), pr.Title, pr.Summary, pr.Author, string(pr.StatusShown(row.q)),
			pr.Revision, jsonText(nonNil(pr.Revisers)), ts(pr.Opened), row.at, pr.CrossValidatedRevision, pr.Edition,
			pr.ClosedReason, jsonText(row.q), pr.Seq, pr.Kind, boolInt(pr.NewRanking))
		if err != nil {
			return err
		}
	}
	clear(p.proposals)
	return nil
}

func scoreText(p *int) string {
	if p == nil {
		return "—"
	}
	return fmt.Sprint(*p)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// markEvidence records seq as the newest evidence result of every ranking
// that publishes the evidence item: a capture or a drift arriving after an
// edition changes what its public pages show, so it changes the ranking's
// edition mark (see Store.EditionMark) and the caches keyed on it.
func (p *projector) markEvidence(proposal, evidenceID string, seq uint64) error {
	return p.exec(`UPDATE rankings SET evidence_seq=? WHERE slug IN
		(SELECT ranking FROM published_evidence WHERE proposal=? AND evidence_id=?)`, seq, proposal, evidenceID)
}
