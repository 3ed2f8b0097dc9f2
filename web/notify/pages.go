package notify

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// settingsView is the model of the desk's mail page.
type settingsView struct {
	ui.Page
	Off     bool
	Account Account
	Kinds   []kindRow
	Hours   []int
	Error   string // why the last post failed
	Address string // the address posted, when it failed
}

// kindRow is one line of the choices: a kind and its mode.
type kindRow struct {
	Kind  string
	Label string
	Mode  Mode
}

// Modes are the choices of each kind, in the order the form lists them.
var Modes = []Mode{ModeInstant, ModeDigest, ModeNone}

// StateText words a delivery's state.
func (v settingsView) StateText(d Delivery) string {
	if d.State == StateFailed {
		return v.T("mail.state.failed", d.Error)
	}
	return v.T("mail.state." + d.State)
}

// KindText words an inbox kind.
func (v settingsView) KindText(kind string) string {
	if i18n.Has("lists.inbox.kind." + kind) {
		return v.T("lists.inbox.kind." + kind)
	}
	return kind
}

// Hour shows an hour of the day.
func (settingsView) Hour(h int) string { return strconv.Itoa(h) + ":00" }

func (h handlers) settings(w http.ResponseWriter, r *http.Request) {
	h.renderSettings(w, r, http.StatusOK, "", nil)
}

// renderSettings shows the mail page; failed is the address posted when
// err refused it.
func (h handlers) renderSettings(w http.ResponseWriter, r *http.Request, status int, failed string, err error) {
	v := settingsView{Page: ui.PageOf(r, "mail.title", ""), Off: h.mail == nil, Address: failed}
	if done := r.URL.Query().Get("done"); done == "address" || done == "prefs" || done == "confirmed" {
		v.Notice = v.T("mail.done." + done)
	}
	if err != nil {
		v.Error = httpx.Message(v.Lang, err)
	}
	if h.mail != nil {
		a, err := h.mail.Account(r.Context(), user(r))
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		v.Account = a
		for _, k := range append(append([]string{}, Kinds...), Other) {
			label := v.KindText(k)
			if k == Other {
				label = v.T("mail.kind.label.other")
			}
			v.Kinds = append(v.Kinds, kindRow{Kind: k, Label: label, Mode: a.Prefs.ModeOf(k)})
		}
		for i := range 24 {
			v.Hours = append(v.Hours, i)
		}
	}
	ui.Render(w, r, status, settingsPage(v))
}

// addressForm answers POST /desk/account/mail/address.
func (h handlers) addressForm(w http.ResponseWriter, r *http.Request) {
	f, err := httpx.ParseForm(r)
	if err == nil {
		err = bySession(r)
	}
	if err == nil && h.mail == nil {
		err = ErrMailOff
	}
	if err == nil {
		err = h.mail.RequestAddress(r.Context(), user(r), f.Str("address"), httpx.FromContext(r.Context()).Lang)
	}
	if err != nil {
		addr := ""
		if f != nil {
			addr = f.Str("address")
		}
		h.renderSettings(w, r, httpx.Status(err), addr, err)
		return
	}
	http.Redirect(w, r, "/desk/account/mail?done=address", http.StatusSeeOther)
}

// prefsForm answers POST /desk/account/mail/prefs.
func (h handlers) prefsForm(w http.ResponseWriter, r *http.Request) {
	f, err := httpx.ParseForm(r)
	if err == nil && h.mail == nil {
		err = ErrMailOff
	}
	if err == nil {
		p := Prefs{Kinds: map[string]Mode{}, DigestHour: f.Int("digest_hour"), TimeZone: f.Str("time_zone"), Lang: f.Str("lang")}
		for _, k := range append(append([]string{}, Kinds...), Other) {
			p.Kinds[k] = Mode(f.Str("kind." + k))
		}
		if err = f.Err(); err == nil {
			err = h.mail.SetPrefs(r.Context(), user(r), p)
		}
	}
	if err != nil {
		h.renderSettings(w, r, httpx.Status(err), "", err)
		return
	}
	http.Redirect(w, r, "/desk/account/mail?done=prefs", http.StatusSeeOther)
}

// noteView is the model of the pages a mail's links open.
type noteView struct {
	ui.Page
	Text  string
	Token string // set: ask before unsubscribing
	// User and Confirm (its token), when set: ask before confirming.
	User, Confirm string
}

// confirmAsk answers GET /mail/confirm?user=…&token=…: a page with the
// button that confirms, since a GET changes nothing here (and a link
// scanner opening the mail must not confirm).
func (h handlers) confirmAsk(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if err := h.linkUsable(q.Get("user"), q.Get("token")); err != nil {
		ui.Fail(w, r, err)
		return
	}
	v := noteView{Page: ui.PageOf(r, "mail.title", ""), User: q.Get("user"), Confirm: q.Get("token")}
	v.Text = v.T("mail.confirm.ask")
	ui.Render(w, r, http.StatusOK, notePage(v))
}

// linkUsable refuses, before showing a button that could only fail, a
// link on a server that sends no mail (404 mail.off) or one missing a
// part (400 mail.bad_token: mangled by a mail client, say). Whether the
// token is right is checked when the button is pressed, since a GET
// changes nothing.
func (h handlers) linkUsable(parts ...string) error {
	if h.mail == nil {
		return ErrMailOff
	}
	if slices.Contains(parts, "") {
		return ErrBadToken
	}
	return nil
}

// confirm answers POST /mail/confirm (user, token): holding the link
// proves the mailbox receives mail, which is all confirming asks; no
// sign-in is needed.
func (h handlers) confirm(w http.ResponseWriter, r *http.Request) {
	v := noteView{Page: ui.PageOf(r, "mail.title", "")}
	f, err := httpx.ParseForm(r)
	if err == nil && h.mail == nil {
		err = ErrMailOff
	}
	if err == nil {
		err = h.mail.ConfirmAddress(r.Context(), f.Str("user"), f.Str("token"))
	}
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	v.Text = v.T("mail.confirmed")
	ui.Render(w, r, http.StatusOK, notePage(v))
}

// unsubscribeAsk answers GET /mail/unsubscribe?token=…: a page with the
// button, since a GET (a link scanner's, say) must not unsubscribe.
func (h handlers) unsubscribeAsk(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	if err := h.linkUsable(token); err != nil {
		ui.Fail(w, r, err)
		return
	}
	v := noteView{Page: ui.PageOf(r, "mail.title", ""), Token: token}
	v.Text = v.T("mail.unsubscribe.ask")
	ui.Render(w, r, http.StatusOK, notePage(v))
}

// unsubscribe answers POST /mail/unsubscribe?token=…, the one-click
// unsubscribe of RFC 8058 (body "List-Unsubscribe=One-Click", which it
// need not read) and the button of the page above.
func (h handlers) unsubscribe(w http.ResponseWriter, r *http.Request) {
	v := noteView{Page: ui.PageOf(r, "mail.title", "")}
	if err := h.unsubscribeToken(r); err != nil {
		ui.Fail(w, r, err)
		return
	}
	v.Text = v.T("mail.unsubscribed")
	ui.Render(w, r, http.StatusOK, notePage(v))
}

// unsubscribeToken turns off what the posted token names: the token is in
// the address (one-click) or in the page's form.
func (h handlers) unsubscribeToken(r *http.Request) error {
	if h.mail == nil {
		return ErrMailOff
	}
	token := r.URL.Query().Get("token")
	if token == "" {
		f, err := httpx.ParseForm(r)
		if err != nil {
			return err
		}
		token = f.Str("token")
	}
	_, _, err := h.mail.Unsubscribe(r.Context(), token)
	return err
}
