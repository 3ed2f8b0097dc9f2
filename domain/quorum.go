package domain

import (
	"slices"
	"sort"

	"github.com/crossrank/crossrank/events"
)

// DefaultQuorum is the policy rankings start with: two approvals that between
// them verified every evidence item. It is also the floor: cross-validation
// means at least two distinct non-author reviewers and every evidence item
// verified, so a ranking's policy may raise the bar, never lower it.
// ValidateMethodology refuses a lower policy; one stated before the floor
// existed (old events replay as they were) is judged by the floor.
var DefaultQuorum = events.QuorumPolicy{MinApprovals: 2, RequireEvidenceVerified: true}

// floored returns policy raised to the floor (DefaultQuorum).
func floored(policy events.QuorumPolicy) events.QuorumPolicy {
	policy.MinApprovals = max(policy.MinApprovals, DefaultQuorum.MinApprovals)
	policy.RequireEvidenceVerified = true
	return policy
}

// QuorumState is how far a proposal's current revision is from being
// cross-validated, in terms a page can put into words.
type QuorumState struct {
	Approvers  []string // distinct eligible reviewers approving the current revision
	Needed     int      // approvals still missing
	Unverified []string // evidence ids of the revision no approver verified
	Vetoes     []string // reviewers whose reject is open (not lifted, not dismissed)
	Outdated   []string // reviewers whose approval was for an earlier revision
	Ineligible []string // approvals that do not count: the author or a reviser
	// Revoked are approvals that do not count because their voter no
	// longer holds the reviewer role.
	Revoked     []string `json:",omitempty"`
	StaleTarget []string // changes whose baseline was published over since
	// Conflicted are approvals that do not count because their reviewer
	// declared a conflict of interest with the entry or the ranking: voter
	// → the reason declared.
	Conflicted map[string]string `json:",omitempty"`
	// OpenComments are unresolved comments of reviewers on the proposal, by
	// id: they are part of the explanation, they do not block.
	OpenComments []string `json:",omitempty"`
	Met          bool
}

// Quorum evaluates the policy on the proposal's current revision. ed is the
// published state of the ranking (nil: nothing published yet).
//
// The rules: at least MinApprovals approvals from distinct reviewers on the
// current revision; the author and revisers never count; every evidence item
// verified by at least one counting approver; no open veto (a reject carries
// over revisions until its voter approves or a publisher dismisses it); an
// approval of an earlier revision is outdated; a reviewer's later vote
// replaces the earlier one. A stale baseline blocks until revised.
func Quorum(p *Proposal, policy events.QuorumPolicy, ed *Edition) QuorumState {
	return quorum(p, policy, ed, nil)
}

// QuorumOf evaluates the ranking's policy on p, counting no approval of a
// reviewer who declared a conflict with p's entry or with the ranking, nor,
// when the handler fed in the voters' roles (quorum_roles.go), of one who
// no longer holds the reviewer role.
func (r *Ranking) QuorumOf(p *Proposal, ed *Edition) QuorumState {
	return quorum(p, r.Quorum, ed, r)
}

func quorum(p *Proposal, policy events.QuorumPolicy, ed *Edition, r *Ranking) QuorumState {
	policy = floored(policy)
	var q QuorumState
	verified := map[string]bool{}
	voters := make([]string, 0, len(p.Votes))
	for v := range p.Votes {
		voters = append(voters, v)
	}
	sort.Strings(voters)
	for _, name := range voters {
		v := p.Votes[name]
		switch {
		case v.OpenVeto():
			q.Vetoes = append(q.Vetoes, name)
		case v.Verdict == events.Reject: // dismissed: it no longer blocks, and it never approves
		case !p.CanVote(name):
			q.Ineligible = append(q.Ineligible, name)
		case v.Revision != p.Revision:
			q.Outdated = append(q.Outdated, name)
		case r.reviewerRevoked(name):
			q.Revoked = append(q.Revoked, name)
		case r.conflictReason(name, p.Entry) != "":
			if q.Conflicted == nil {
				q.Conflicted = map[string]string{}
			}
			q.Conflicted[name] = r.conflictReason(name, p.Entry)
		default:
			q.Approvers = append(q.Approvers, name)
			for _, id := range v.VerifiedEvidence {
				verified[id] = true
			}
		}
	}
	for _, id := range p.EvidenceIDs() {
		if !verified[id] {
			q.Unverified = append(q.Unverified, id)
		}
	}
	q.OpenComments = p.openReviewerComments()
	q.Needed = max(0, policy.MinApprovals-len(q.Approvers))
	if ed != nil {
		q.StaleTarget = p.StaleTargets(ed)
	}
	q.Met = q.Needed == 0 && len(q.Unverified) == 0 && len(q.Vetoes) == 0 && len(q.StaleTarget) == 0
	return q
}

// CanVote reports whether user may count as an approver: not the author and
// not anyone who revised the proposal, whatever roles they hold.
func (p *Proposal) CanVote(user string) bool {
	return user != p.Author && !slices.Contains(p.Revisers, user)
}
