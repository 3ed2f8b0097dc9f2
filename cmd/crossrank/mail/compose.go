package mail

import (
	"bytes"
	htmltemplate "html/template"
	"net/url"
	"strings"
	texttemplate "text/template"
	"time"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/desk"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/paths"
)

// Composer words mails in their user's language; PublicURL
// ("https://rank.example") starts every link.
type Composer struct {
	PublicURL string
}

// item is one inbox item as a mail shows it.
type item struct {
	Line   string
	Detail string
	URL    string
}

// body is what the templates fill in.
type body struct {
	Lang        string
	Intro       string
	Items       []item
	Open        string
	Footer      string
	Settings    string
	Unsubscribe string
	UnsubWord   string
}

// itemOf words one inbox row. A kind the catalog has no words for (one
// added after this mailer) still gets a line that names it.
func (c Composer) itemOf(lang string, row projections.InboxItem) item {
	key := "inbox.kind." + row.Kind
	it := item{Line: i18n.T(lang, "mail.kind.other", row.Kind, row.Proposal), Detail: row.Detail, URL: c.PublicURL + itemPath(row)}
	if i18n.Has(key) {
		it.Line = i18n.T(lang, key, row.Actor, row.Proposal)
	}
	return it
}

// itemPath is the desk page of an inbox item: the proposal it concerns, the
// publish page of a failed scheduled edition, else the inbox's items of
// its kind.
func itemPath(row projections.InboxItem) string {
	switch {
	case row.Kind == "schedule_failed":
		return paths.Publish + "?ranking=" + url.QueryEscape(row.Ranking)
	case row.Proposal != "":
		return desk.ProposalPath(row.Proposal)
	}
	return paths.Inbox + "?kind=" + url.QueryEscape(row.Kind)
}

// Instant is the mail of one inbox item.
func (c Composer) Instant(to, lang string, row projections.InboxItem, unsubscribe string) (Message, error) {
	it := c.itemOf(lang, row)
	return c.render(to, lang, i18n.T(lang, "mail.subject", it.Line), body{Items: []item{it}}, unsubscribe)
}

// Digest is the mail of many inbox items.
func (c Composer) Digest(to, lang string, rows []projections.InboxItem, unsubscribe string) (Message, error) {
	b := body{Intro: i18n.T(lang, "mail.digest.intro")}
	for _, r := range rows {
		b.Items = append(b.Items, c.itemOf(lang, r))
	}
	return c.render(to, lang, i18n.T(lang, "mail.digest.subject", len(rows)), b, unsubscribe)
}

// Confirm is the mail asking to confirm an address.
func (c Composer) Confirm(to, lang, user, token string, expires time.Time) (Message, error) {
	link := c.PublicURL + "/mail/confirm?" + url.Values{"user": {user}, "token": {token}}.Encode()
	b := body{Intro: i18n.T(lang, "mail.confirm.intro", user, i18n.DateTime(lang, expires)),
		Items:  []item{{Line: i18n.T(lang, "mail.confirm.action"), URL: link}},
		Footer: i18n.T(lang, "mail.confirm.ignore")}
	return c.render(to, lang, i18n.T(lang, "mail.confirm.subject"), b, "")
}

func (c Composer) render(to, lang, subject string, b body, unsubscribe string) (Message, error) {
	b.Lang, b.Open = contentLanguage(lang), i18n.T(lang, "mail.open")
	if unsubscribe != "" {
		b.Footer = i18n.T(lang, "mail.footer")
		b.Settings = c.PublicURL + SettingsPath
		b.Unsubscribe, b.UnsubWord = unsubscribe, i18n.T(lang, "mail.unsubscribe")
	}
	var text, html bytes.Buffer
	if err := textMail.Execute(&text, b); err != nil {
		return Message{}, err
	}
	if err := htmlMail.Execute(&html, b); err != nil {
		return Message{}, err
	}
	return Message{To: to, Subject: strings.ReplaceAll(subject, "\n", " "), Text: text.String(), HTML: html.String(),
		Unsubscribe: unsubscribe, Lang: lang}, nil
}

// SettingsPath is the desk's mail settings page.
const SettingsPath = "/desk/account/mail"

var textMail = texttemplate.Must(texttemplate.New("text").Parse(`{{with .Intro}}{{.}}

{{end}}{{range .Items}}- {{.Line}}{{with .Detail}}
  {{.}}{{end}}
  {{$.Open}}: {{.URL}}

{{end}}{{with .Footer}}--
{{.}}{{with $.Settings}} {{.}}{{end}}
{{end}}{{with .Unsubscribe}}{{$.UnsubWord}}: {{.}}
{{end}}`))

// html/template escapes every value: the lines carry names and ids that
// users chose.
var htmlMail = htmltemplate.Must(htmltemplate.New("html").Parse(`<!DOCTYPE html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"></head>
<body style="font-family:sans-serif;line-height:1.5">
{{with .Intro}}<p>{{.}}</p>{{end}}
<ul>{{range .Items}}<li><a href="{{.URL}}">{{.Line}}</a>{{with .Detail}}<br><span style="color:#555">{{.}}</span>{{end}}</li>{{end}}</ul>
{{with .Footer}}<hr><p style="color:#555;font-size:small">{{.}}{{with $.Settings}} <a href="{{.}}">{{.}}</a>{{end}}</p>{{end}}
{{with .Unsubscribe}}<p style="font-size:small"><a href="{{.}}">{{$.UnsubWord}}</a></p>{{end}}
</body></html>
`))
