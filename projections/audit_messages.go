package projections

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
)

// An audit row says what its event did as a message id and the message's
// named arguments (columns msg and args), not in words: web/i18n words them
// in the reader's language (catalog key "audit.msg.<id>", each {name} filled
// from the arguments), so the read model is the same whatever the languages
// of the interface, and a new language is one catalog.
//
// An argument is a number, a string, a list of strings, or a text in both
// languages ({"zh":…,"en":…}, events.Text). Arguments named in auditCodes
// hold codes, not user data: the catalog words their values too.

// auditMessages lists every message id an audit row can carry, with the
// names of its arguments in order. TestAuditMessagesListed checks that
// every say in this package names a listed id with its listed arguments;
// web/i18n's tests check that every id has words in every language.
var auditMessages = map[string][]string{
	"ranking_defined":       {"title"},
	"weights_set":           nil,
	"scenarios_set":         {"scenarios", "filters"},
	"methodology_published": {"edition", "title", "changes"},
	"conflict_declared":     {"reason"},
	"entry_created":         {"name"},
	"edition_published":     {"edition", "proposals"},
	"edition_part_recorded": {"part", "edition", "proposals", "changes"},
	"webhook_delivered":     {"edition", "url", "status"},
	"webhook_failed":        {"edition", "url", "error"},
	"webhook_redelivery":    {"webhook", "edition"},
	"report_opened":         nil,
	"report_folded":         nil,
	"report_accepted":       {"proposal"},
	"report_declined":       {"reason"},
	"report_duplicate":      {"of"},
	"preview_created":       {"proposals", "expires_at"},
	"preview_revoked":       nil,
	"preview_opened":        nil,
	"vendor_entries_set":    {"user", "entries"},
	"reply_written":         {"criterion"},
	"reply_hidden":          {"reason"},
	"edition_scheduled":     {"proposals", "at"},
	"schedule_canceled":     {"schedule"},
	"schedule_failed":       {"schedule", "code"},

	"proposal_opened":                {"title"},
	"proposal_opened_methodology":    {"title", "methodology"},
	"methodology_proposed":           {"methodology"},
	"evidence_added":                 {"evidence", "claim"},
	"evidence_removed":               {"evidence"},
	"evidence_captured":              {"evidence", "status", "bytes"},
	"evidence_capture_failed":        {"evidence", "reason"},
	"source_changed_quote_found":     {"evidence"},
	"source_changed_quote_lost":      {"evidence"},
	"source_dead":                    {"evidence", "reason"},
	"score_proposed":                 {"criterion", "to"},
	"attribute_proposed":             {"attribute"},
	"change_removed":                 {"target"},
	"proposal_submitted":             {"revision"},
	"proposal_revised":               {"revision"},
	"vote_cast":                      {"verdict", "revision"},
	"vote_cast_cross_validated":      {"verdict", "revision", "validated"},
	"vote_cast_returned":             {"verdict", "revision", "return_reason"},
	"veto_dismissed":                 {"voter", "reason"},
	"veto_dismissed_cross_validated": {"voter", "reason", "validated"},
	"veto_dismissed_returned":        {"voter", "reason", "return_reason"},
	"cross_validated":                {"validated"},
	"returned_to_review":             {"return_reason"},
	"proposal_published":             {"edition"},
	"proposal_rejected":              {"reason"},
	"proposal_withdrawn":             nil,
	"review_nudged":                  {"reviewer", "due"},
	"chat_webhook_set":               {"url", "lang"},
	"chat_webhook_removed":           nil,
	"chat_posted":                    {"url", "status"},
	"chat_failed":                    {"url", "error"},
	"reviewers_requested":            {"reviewers"},
	"comment_added":                  {"comment"},
	"comment_resolved":               {"comment"},

	"user_registered":                 {"user", "roles"},
	"user_invited":                    {"user", "roles", "expires"},
	"password_reset":                  {"user", "expires"},
	"password_reset_tokens":           {"user", "tokens", "expires"},
	"password_reset_feed":             {"user", "expires"},
	"password_reset_tokens_feed":      {"user", "tokens", "expires"},
	"invitation_accepted":             nil,
	"invitation_revoked":              {"user"},
	"identity_bound":                  {"issuer"},
	"role_granted":                    {"role", "user"},
	"role_revoked":                    {"role", "user"},
	"password_changed":                nil,
	"password_changed_tokens":         {"tokens"},
	"token_issued":                    {"name"},
	"inbox_read":                      {"upto"},
	"feed_token_set":                  nil,
	"feed_token_revoked":              nil,
	"token_revoked":                   {"token"},
	"mail_address_confirmed_link":     {"user"},
	"mail_address_confirmed_operator": {"user"},
	"mail_address_erased":             {"user"},

	// Rows projected before migration 016 keep their words as they were,
	// both languages in one text, until a rebuild says them anew.
	"legacy": {"text"},
}

// auditCodes lists the arguments that hold codes and the values each can
// take: a catalog words each value ("audit.code.<arg>.<value>").
var auditCodes = map[string][]string{
	"verdict":       {"approve", "reject"},
	"return_reason": {"veto", "baseline_changed"},
}

// AuditMessages returns every message id an audit row can carry, with the
// names of its arguments.
func AuditMessages() map[string][]string { return maps.Clone(auditMessages) }

// AuditCodes returns the arguments of audit messages that hold codes, with
// the values each can take, sorted.
func AuditCodes() map[string][]string {
	out := make(map[string][]string, len(auditCodes))
	for k, v := range auditCodes {
		out[k] = slices.Sorted(slices.Values(v))
	}
	return out
}

// say sets the row's message: its id and its arguments as name, value
// pairs in the order auditMessages lists them. The arguments are written as
// a JSON object in that order, so a replay writes the same text.
func (a *auditRow) say(msg string, args ...any) {
	a.msg = msg
	if len(args) == 0 {
		a.args = "{}"
		return
	}
	b := make([]byte, 0, 64)
	b = append(b, '{')
	for i := 0; i+1 < len(args); i += 2 {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, args[i].(string)) // names are plain ASCII
		b = append(b, ':')
		if n, ok := args[i+1].(int); ok { // most arguments: no encoder needed
			b = strconv.AppendInt(b, int64(n), 10)
			continue
		}
		v, err := json.Marshal(args[i+1])
		if err != nil {
			v = []byte("null")
		}
		b = append(b, v...)
	}
	a.args = string(append(b, '}'))
}
