package projections

import (
	"fmt"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// project writes the read-model rows of one event and fills the audit row.
func (p *projector) project(ev events.Event, s any, a *auditRow) error {
	switch d := ev.Data.(type) {
	case *events.RankingDefined:
		a.ranking = d.Slug
		a.say("ranking_defined", "title", d.Title)
		return p.saveRanking(s.(*domain.Ranking), ev)
	case *events.WeightsSet:
		a.ranking = ev.Subject
		a.say("weights_set")
		a.after = jsonText(d.Weights)
		if err := p.saveRanking(s.(*domain.Ranking), ev); err != nil {
			return err
		}
		return p.rerank(ev.Subject)
	case *events.ScenariosSet:
		a.ranking = ev.Subject
		a.say("scenarios_set", "scenarios", len(d.Scenarios), "filters", len(d.Filters))
		if err := p.saveRanking(s.(*domain.Ranking), ev); err != nil {
			return err
		}
		return p.rerank(ev.Subject)
	case *events.MethodologyPublished:
		a.ranking, a.proposal = d.Slug, d.Proposal
		a.say("methodology_published", "edition", d.Edition, "title", d.Methodology.Title, "changes", len(d.Changes))
		a.after = domain.MethodologyHash(d.Methodology)
		if err := p.saveRanking(s.(*domain.Ranking), ev); err != nil {
			return err
		}
		for i, c := range d.Changes {
			if err := p.exec(`INSERT INTO methodology_history VALUES (?,?,?,?,?,?,?,?,?,?)`, d.Slug, d.Edition, i,
				d.Proposal, c.Kind, c.Target, c.From, c.To, ts(ev.Time), ev.Actor); err != nil {
				return err
			}
		}
		return nil
	case *events.ConflictDeclared:
		a.ranking, a.entry = ev.Subject, d.Entry
		a.say("conflict_declared", "reason", d.Reason)
		a.after = d.Reason
		if err := p.saveRanking(s.(*domain.Ranking), ev); err != nil {
			return err
		}
		// The declarer's approvals stop counting, as a role revoked
		// (project_reviewers.go).
		if err := p.requorumApprovals(d.User); err != nil {
			return err
		}
		return p.exec(`INSERT INTO conflicts VALUES (?,?,?,?,?,?)`, ev.Subject, d.User, d.Entry, d.Reason, ts(ev.Time), ev.Sequence)
	case *events.EditionScheduled, *events.EditionScheduleCanceled, *events.EditionScheduleFailed:
		return p.projectSchedule(ev, s.(*domain.Edition), a)
	case *events.EntryCreated:
		a.ranking, a.entry, a.proposal = d.Ranking, d.Slug, d.Proposal
		a.say("entry_created", "name", d.Name)
		return p.exec(`INSERT INTO entries(ranking, slug, name_zh, name_en, category, website, desc_zh, desc_en,
			created_by_proposal, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)`,
			d.Ranking, d.Slug, d.Name.Zh, d.Name.En, d.Category, d.Website, d.Description.Zh, d.Description.En,
			d.Proposal, ts(ev.Time))
	case *events.EditionPublished:
		a.ranking = d.Ranking
		n := len(d.Proposals)
		if d.Size != nil {
			n = d.Size.Proposals
		}
		a.say("edition_published", "edition", d.Number, "proposals", n)
		a.after = d.SnapshotHash
		if err := p.publish(ev, d, s.(*domain.Edition)); err != nil {
			return err
		}
		return p.notifyVendorsOfEdition(ev, d.Ranking, d.Number)
	case *events.EditionPartRecorded:
		a.ranking = ev.Subject
		a.say("edition_part_recorded", "part", d.Part, "edition", d.Number, "proposals", len(d.Proposals), "changes", len(d.Changes))
		return p.part(ev, d, s.(*domain.Edition))
	case *events.UserRegistered, *events.RoleGranted, *events.RoleRevoked, *events.PasswordChanged,
		*events.TokenIssued, *events.TokenRevoked, *events.InboxRead, *events.FeedTokenSet,
		*events.UserInvited, *events.PasswordReset, *events.InvitationAccepted, *events.InvitationRevoked,
		*events.IdentityBound,
		*events.MailAddressConfirmed, *events.MailAddressErased:
		return p.projectUser(ev, s.(*domain.User), a)
	case *events.VendorEntriesSet:
		return p.projectVendorScope(ev, d, s.(*domain.User), a)
	case *events.WebhookDelivered:
		a.ranking = d.Ranking
		a.say("webhook_delivered", "edition", d.Edition, "url", d.URL, "status", d.Status)
		return p.exec(`INSERT INTO webhook_deliveries(seq, url, ranking, edition, ok, status, attempt, error, at, webhook)
			VALUES (?,?,?,?,1,?,?,'',?,?)`, ev.Sequence, d.URL, d.Ranking, d.Edition, d.Status, d.Attempts, ts(ev.Time), ev.Subject)
	case *events.WebhookFailed:
		a.ranking = d.Ranking
		a.say("webhook_failed", "edition", d.Edition, "url", d.URL, "error", d.Error)
		return p.exec(`INSERT INTO webhook_deliveries(seq, url, ranking, edition, ok, status, attempt, error, at, webhook)
			VALUES (?,?,?,?,0,0,?,?,?,?)`, ev.Sequence, d.URL, d.Ranking, d.Edition, d.Attempt, d.Error, ts(ev.Time), ev.Subject)
	case *events.ChatWebhookSet, *events.ChatPosted, *events.ChatFailed:
		return projectChat(ev, a)
	case *events.WebhookRedeliveryRequested:
		// The audit line is the whole record: the delivery's row comes
		// with the sender's answer.
		a.ranking = d.Ranking
		a.say("webhook_redelivery", "webhook", ev.Subject, "edition", d.Edition)
		return nil
	}
	if ev.Kind() == events.KindProposal {
		if err := p.projectProposal(ev, s.(*domain.Proposal), a); err != nil {
			return err
		}
		return p.vendorProposal(ev, s.(*domain.Proposal))
	}
	if ev.Kind() == events.KindReply {
		return p.projectReply(ev, s.(*domain.Reply), a)
	}
	if ev.Kind() == events.KindReport {
		return p.projectReport(ev, s.(*domain.Report), a)
	}
	if ev.Kind() == events.KindPreview {
		return p.projectPreview(ev, s.(*domain.PreviewLink), a)
	}
	return fmt.Errorf("%w: no projection for %s", events.ErrUnknownType, ev.Type)
}

func (p *projector) saveRanking(r *domain.Ranking, ev events.Event) error {
	if err := p.exec(`INSERT INTO rankings(slug, title_zh, title_en, desc_zh, desc_en, quorum_min, quorum_evidence,
		definition, updated_at) VALUES (?,?,?,?,?,?,?,?,?)
		ON CONFLICT(slug) DO UPDATE SET title_zh=excluded.title_zh, title_en=excluded.title_en,
		desc_zh=excluded.desc_zh, desc_en=excluded.desc_en, quorum_min=excluded.quorum_min,
		quorum_evidence=excluded.quorum_evidence, definition=excluded.definition, updated_at=excluded.updated_at`,
		r.Slug, r.Title.Zh, r.Title.En, r.Description.Zh, r.Description.En, r.Quorum.MinApprovals,
		boolInt(r.Quorum.RequireEvidenceVerified), jsonText(r), ts(ev.Time)); err != nil {
		return err
	}
	for _, t := range []string{"categories", "criteria", "scenarios"} {
		if err := p.exec("DELETE FROM "+t+" WHERE ranking=?", r.Slug); err != nil {
			return err
		}
	}
	for i, c := range r.Categories {
		if err := p.exec(`INSERT INTO categories VALUES (?,?,?,?,?,?,?)`, r.Slug, c.Slug, i,
			c.Name.Zh, c.Name.En, c.Description.Zh, c.Description.En); err != nil {
			return err
		}
	}
	for i, c := range r.Criteria {
		if err := p.exec(`INSERT INTO criteria VALUES (?,?,?,?,?,?,?,?)`, r.Slug, c.Slug, i,
			c.Name.Zh, c.Name.En, c.Description.Zh, c.Description.En, c.Weight); err != nil {
			return err
		}
	}
	for i, sc := range r.Scenarios {
		if err := p.exec(`INSERT INTO scenarios VALUES (?,?,?,?,?,?,?,?)`, r.Slug, sc.Slug, i,
			sc.Name.Zh, sc.Name.En, sc.Description.Zh, sc.Description.En, jsonText(sortedWeights(sc.Weights))); err != nil {
			return err
		}
	}
	return nil
}

func sortedWeights(w map[string]int) []domain.NamedInt {
	out := make([]domain.NamedInt, 0, len(w))
	for k, v := range w {
		out = append(out, domain.NamedInt{Name: k, Value: v})
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Name < out[j-1].Name; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// rerank recomputes totals and ranks of the published entries, overall, per
// category and per scenario, with the ranking's current weights.
func (p *projector) rerank(slug string) error {
	r, err := p.ranking(slug)
	if err != nil {
		return err
	}
	ed, err := p.edition(slug)
	if err != nil || len(ed.Entries) == 0 {
		return err
	}
	// Only what changed since the last rerank is written (an edition
	// moves a few entries; the memo remembers what the rows hold). With no
	// memo of the ranking, everything is written.
	prev, known := p.ranks[slug]
	cur := make(map[string]domain.Standing, len(ed.Entries))
	for _, st := range domain.Standings(ed.Entries, r.Weights()) {
		cur[st.Entry] = st
		if old, ok := prev[st.Entry]; ok && old == st {
			continue
		}
		if err := p.exec(`UPDATE entries SET total=?, rank=?, category_rank=? WHERE ranking=? AND slug=?`,
			st.Total, st.Rank, st.CategoryRank, slug, st.Entry); err != nil {
			return err
		}
	}
	p.ranks[slug] = cur
	prevScen, knownScen := p.scenarioRanks[slug]
	scen := map[[2]string][2]int{}
	var rows []any
	for _, sc := range r.Scenarios {
		for _, st := range domain.Standings(ed.Entries, sc.Weights) {
			k, v := [2]string{sc.Slug, st.Entry}, [2]int{st.Total, st.Rank}
			scen[k] = v
			if old, ok := prevScen[k]; !ok || old != v {
				rows = append(rows, slug, sc.Slug, st.Entry, st.Total, st.Rank)
			}
		}
	}
	p.scenarioRanks[slug] = scen
	if !known || !knownScen {
		if err := p.exec("DELETE FROM scenario_ranks WHERE ranking=?", slug); err != nil {
			return err
		}
		return p.insertRows("scenario_ranks", 5, rows)
	}
	for k := range prevScen {
		if _, ok := scen[k]; !ok {
			if err := p.exec("DELETE FROM scenario_ranks WHERE ranking=? AND scenario=? AND entry=?", slug, k[0], k[1]); err != nil {
				return err
			}
		}
	}
	return p.insertRows("scenario_ranks(ranking, scenario, entry, total, rank)", 5, rows,
		"ON CONFLICT(ranking, scenario, entry) DO UPDATE SET total=excluded.total, rank=excluded.rank")
}

func targetParts(t string) (kind, key string) {
	if k, v, ok := strings.Cut(t, ":"); ok {
		return k, v
	}
	return "score", t
}
