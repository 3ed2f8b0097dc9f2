package desk

import (
	"cmp"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// The review queue's summary of a batch, in the URL it redirects to:
// how many votes were stored, with which verdict, and the refusals, each
// "code|field|count".
const (
	summaryVoted   = "voted"
	summaryVerdict = "verdict"
	summaryRefused = "refused"
	// summaryValidated counts the proposals an approval of the batch
	// cross-validated.
	summaryValidated = "validated"
)

// reviewVoted is where a batch goes: the same filtered page, with the
// summary of its results.
func (d *Desk) reviewVoted(r *http.Request, in *command.VotesInput, _ handler.Result) string {
	q := r.URL.Query()
	q.Del(summaryVoted)
	q.Del(summaryVerdict)
	q.Del(summaryRefused)
	q.Del(summaryValidated)
	voted := 0
	var approved []string
	refused := map[[2]string]int{}
	for i, res := range in.Results {
		if res.Code == "" {
			voted++
			if in.Votes[i].Verdict == events.Approve {
				approved = append(approved, res.Proposal)
			}
		} else {
			refused[[2]string{res.Code, res.Field}]++
		}
	}
	q.Set(summaryVoted, strconv.Itoa(voted))
	if len(in.Votes) > 0 {
		q.Set(summaryVerdict, in.Votes[0].Verdict)
	}
	if voted > 0 && len(in.Votes) > 0 && in.Votes[0].Verdict == "approve" {
		// After an approval the queue shows what is left to review, from
		// its first page: the proposals just approved leave the list
		// rather than coming back marked "needs 1 more approval".
		q.Set("unapproved", "1")
		q.Del("page")
	}
	// The read models hold the batch's votes (the form waited for them),
	// so they say which approvals completed a quorum.
	if rows, err := d.read.ProposalsByID(r.Context(), approved); err == nil {
		validated := 0
		for _, p := range rows {
			if p.Status == domain.StatusCrossValidated {
				validated++
			}
		}
		if validated > 0 {
			q.Set(summaryValidated, strconv.Itoa(validated))
		}
	}
	for _, k := range slices.SortedFunc(maps.Keys(refused), func(a, b [2]string) int { return cmp.Compare(a[0]+a[1], b[0]+b[1]) }) {
		q.Add(summaryRefused, k[0]+"|"+k[1]+"|"+strconv.Itoa(refused[k]))
	}
	return paths.Review + "?" + q.Encode()
}

// reviewFailed shows the queue again with the batch's error (none
// ticked, more than a page): nothing was stored. With none ticked the
// command's "Votes is required." names a field the page does not show,
// so the page says what to do instead.
func (d *Desk) reviewFailed(w http.ResponseWriter, r *http.Request, in *command.VotesInput, st ui.FormState, status int) {
	if len(in.Votes) == 0 {
		verdict := "approve"
		if r.PostFormValue("verdict") == "reject" {
			verdict = "reject"
		}
		st.Summary = i18n.T(httpx.Lang(r.Context()), "desk.review.none_ticked."+verdict)
		delete(st.Fields, "votes")
	}
	d.renderReview(w, r, status, st)
}

// reviewSummary puts a batch's summary from the URL into sentences; bad
// reports whether any vote was refused.
func reviewSummary(p ui.Page, q url.Values) (lines []string, bad bool) {
	if !q.Has(summaryVoted) {
		return nil, false
	}
	n, _ := strconv.Atoi(q.Get(summaryVoted))
	verdict := q.Get(summaryVerdict)
	if verdict != "reject" {
		verdict = "approve"
	}
	lines = append(lines, i18n.Plural(p.Lang, "desk.review.summary."+verdict, n))
	if v, _ := strconv.Atoi(q.Get(summaryValidated)); v > 0 && verdict == "approve" {
		lines = append(lines, i18n.Plural(p.Lang, "desk.review.summary.validated", v))
	}
	for _, v := range q[summaryRefused] {
		parts := strings.Split(v, "|")
		if len(parts) != 3 {
			continue
		}
		count, _ := strconv.Atoi(parts[2])
		words := parts[0]
		switch {
		case parts[1] != "":
			words = i18n.Field(p.Lang, &domain.FieldError{Field: parts[1], Code: parts[0]})
		case i18n.Has(parts[0]):
			words = p.T(parts[0])
		}
		lines = append(lines, p.T("desk.review.summary.refused", count, words))
		bad = true
	}
	return lines, bad
}
