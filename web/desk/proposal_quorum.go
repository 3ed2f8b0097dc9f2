package desk

import (
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// quorumPart is one clause of a proposal's quorum state in words, such as
// "needs 1 more approval" or "1 open veto by reviewer2".
type quorumPart struct {
	ID   string // "met", "ranking_in_review", "needed", "unverified", "quote", "vetoes", "outdated", "ineligible", "stale", "revoked", "conflicted", "comments"
	Lead string // the separator before it: "" for the first clause, "; " or "；" after
	Text string
}

// quorumParts puts the quorum state into words, clause by clause, in the
// page's language. quoteNotFound lists the evidence items whose quote the
// capture did not contain: a note for reviewers, not a condition.
func quorumParts(p ui.Page, l rankingLabels, q domain.QuorumState, quoteNotFound []string) []quorumPart {
	var out []quorumPart
	add := func(id, text string) {
		pt := quorumPart{ID: id, Text: text}
		if len(out) == 0 {
			pt.Text = upperFirst(text) // the clauses read as one sentence
		} else {
			pt.Lead = quorumSep(p.Lang)
		}
		out = append(out, pt)
	}
	sep := listSep(p.Lang)
	if q.Met {
		add("met", p.T("desk.quorum.met", strings.Join(q.Approvers, sep)))
	}
	if q.Needed > 0 {
		add("needed", plural(p.Lang, "desk.quorum.needed", q.Needed, q.Needed))
	}
	if n := len(q.Unverified); n > 0 {
		add("unverified", plural(p.Lang, "desk.quorum.unverified", n, strings.Join(q.Unverified, sep)))
	}
	if n := len(quoteNotFound); n > 0 {
		add("quote", plural(p.Lang, "desk.quorum.quote_not_found", n, strings.Join(quoteNotFound, sep)))
	}
	if n := len(q.Vetoes); n > 0 {
		add("vetoes", plural(p.Lang, "desk.quorum.vetoes", n, n, strings.Join(q.Vetoes, sep)))
	}
	if n := len(q.StaleTarget); n > 0 {
		names := make([]string, n)
		for i, t := range q.StaleTarget {
			names[i] = l.target(p.Lang, t)
		}
		add("stale", plural(p.Lang, "desk.quorum.stale", n, strings.Join(names, sep)))
	}
	if n := len(q.Outdated); n > 0 {
		add("outdated", plural(p.Lang, "desk.quorum.outdated", n, strings.Join(q.Outdated, sep)))
	}
	if n := len(q.Ineligible); n > 0 {
		add("ineligible", plural(p.Lang, "desk.quorum.ineligible", n, strings.Join(q.Ineligible, sep)))
	}
	if n := len(q.Revoked); n > 0 {
		add("revoked", plural(p.Lang, "desk.quorum.revoked", n, strings.Join(q.Revoked, sep)))
	}
	if n := len(q.Conflicted); n > 0 {
		voters := slices.Sorted(maps.Keys(q.Conflicted))
		named := make([]string, n)
		for i, v := range voters {
			named[i] = p.T("desk.quorum.conflicted.one_voter", v, q.Conflicted[v])
		}
		add("conflicted", plural(p.Lang, "desk.quorum.conflicted", n, strings.Join(named, sep)))
	}
	if n := len(q.OpenComments); n > 0 {
		add("comments", plural(p.Lang, "desk.quorum.open_comments", n, n, strings.Join(q.OpenComments, sep)))
	}
	return out
}

// rankingInReviewPart says that the proposal's ranking is itself in
// review (the new-ranking proposal dep): the proposal is judged by the
// methodology proposed and publishes together with the definition.
func rankingInReviewPart(p ui.Page, l rankingLabels, dep string, first bool) quorumPart {
	pt := quorumPart{ID: "ranking_in_review", Lead: quorumSep(p.Lang), Text: p.T("desk.quorum.ranking_in_review", l.title(p.Lang), dep)}
	if first {
		pt.Lead = ""
	}
	return pt
}

// quorumSentence joins the clauses into one sentence. The dashboard's
// summaries carry no capture results, so it names no missing quote.
func quorumSentence(p ui.Page, l rankingLabels, q domain.QuorumState) string {
	var b strings.Builder
	for _, pt := range quorumParts(p, l, q, nil) {
		b.WriteString(pt.Lead + pt.Text)
	}
	return b.String()
}

// quorumSep separates clauses of the quorum sentence.
func quorumSep(lang string) string {
	if lang == i18n.Zh {
		return "；"
	}
	return "; "
}

// plural picks key+".one" for one in English and key+".other"
// otherwise (Chinese has no singular form), then formats it with args.
func plural(lang, key string, n int, args ...any) string {
	form := i18n.PluralKey(lang, key, n)
	if !i18n.Has(form) {
		return key
	}
	return i18n.T(lang, form, args...)
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
