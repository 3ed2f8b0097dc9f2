package handler

import (
	"context"
	"errors"
	"slices"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// ProposalSteps are commands on one proposal carried out as one: the
// proposal opened (unless Open is nil and it exists), evidence added,
// changes proposed and, when Submit is set, the draft submitted. Each
// decides on what the ones before it decided, with the rules it has on
// its own, and their events are stored in one atomic append or not at
// all. Each keeps its command id, so the events are those the commands one
// by one would have stored, and carrying them out again stores nothing
// new (a step already stored is passed over).
//
// A ranking file's import runs one per entry: an entry of ten criteria
// and three evidence items was fifteen appends, each waiting for its
// fsync, and is one.
type ProposalSteps struct {
	Open       *domain.OpenProposal // not a methodology proposal
	Proposal   string               // the proposal, when Open is nil
	Evidence   []domain.AddEvidence
	Scores     []domain.ProposeScore
	Attributes []domain.ProposeAttribute
	Submit     *domain.Submit
}

// errStepsProposal: a step of ProposalSteps names another proposal.
var errStepsProposal = errors.New("handler: the steps name more than one proposal")

// RunProposalSteps carries out c as one command.
func (h *Handler) RunProposalSteps(ctx context.Context, a domain.Actor, c ProposalSteps) (Result, error) {
	id := c.Proposal
	if c.Open != nil {
		id = c.Open.ID
	}
	names := []string{}
	for _, ev := range c.Evidence {
		names = append(names, ev.Proposal)
	}
	for _, sc := range c.Scores {
		names = append(names, sc.Proposal)
	}
	for _, at := range c.Attributes {
		names = append(names, at.Proposal)
	}
	if c.Submit != nil {
		names = append(names, c.Submit.Proposal)
	}
	if slices.ContainsFunc(names, func(p string) bool { return p != id }) {
		return Result{}, errStepsProposal
	}
	// The first step is the command opening the proposal, or the command on
	// the proposal as it is: its reads and writes are all the steps'.
	var cmd command
	rk, dep := "", ""
	if o := c.Open; o != nil {
		if o.Methodology {
			return Result{}, errors.New("handler: a methodology proposal opens on its own")
		}
		if err := domain.CheckProposalRefs(*o); err != nil {
			return Result{}, err
		}
		cmd, rk, dep = openEntryProposal(a, *o), o.Ranking, o.DependsOn
		cmd.steps = []step{{commandID: cmd.commandID, decide: cmd.decide}}
	} else {
		var err error
		if rk, dep, err = h.proposalRanking(ctx, id); err != nil {
			return Result{}, err
		}
		cmd = command{actor: a, writes: []events.Aggregate{domain.ProposalID(id)}, reads: proposalReads(rk, dep)}
	}
	cmd.commandID, cmd.decide = "", nil
	add := func(commandID string, d proposalDecision) {
		cmd.steps = append(cmd.steps, step{commandID: commandID, decide: onStates(rk, dep, id, d)})
	}
	for _, ev := range c.Evidence {
		add(ev.CommandID, addEvidence(a, ev))
	}
	for _, sc := range c.Scores {
		add(sc.CommandID, proposeScore(a, sc))
	}
	for _, at := range c.Attributes {
		add(at.CommandID, proposeAttribute(a, at))
	}
	if c.Submit != nil {
		add(c.Submit.CommandID, submit(a))
	}
	if len(cmd.steps) == 0 {
		return Result{}, nil
	}
	return h.run(ctx, cmd)
}
