package mail

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	gomail "github.com/wneessen/go-mail"
)

// Relay is the SMTP server mail goes through, as --smtp-url names it:
// smtp://user:pass@host:port (STARTTLS required; port 587 by default) or
// smtps://… (TLS from the first byte; port 465 by default).
type Relay struct {
	host     string
	port     int
	user     string
	password string
	implicit bool
	from     string
	domain   string // the From address's domain, which names its Message-IDs
	// TLS, when set, replaces the TLS settings (tests trust their own
	// certificate with it).
	TLS *tls.Config
}

// ParseRelay reads an --smtp-url and the --mail-from address.
func ParseRelay(rawURL, from string) (*Relay, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("smtp url: %w", err)
	}
	r := &Relay{host: u.Hostname()}
	switch u.Scheme {
	case "smtp":
		r.port = 587
	case "smtps":
		r.port, r.implicit = 465, true
	default:
		return nil, fmt.Errorf("smtp url: scheme %q: want smtp:// (STARTTLS) or smtps:// (implicit TLS)", u.Scheme)
	}
	if r.host == "" {
		return nil, fmt.Errorf("smtp url: no host")
	}
	if p := u.Port(); p != "" {
		if r.port, err = strconv.Atoi(p); err != nil || r.port <= 0 || r.port > 65535 {
			return nil, fmt.Errorf("smtp url: bad port %q", p)
		}
	}
	if u.User != nil {
		r.user = u.User.Username()
		r.password, _ = u.User.Password()
	}
	a, err := mail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("mail from %q: %w", from, err)
	}
	r.from = a.String()
	r.domain = a.Address[strings.LastIndexByte(a.Address, '@')+1:]
	return r, nil
}

// Message is one mail: To is a bare address; Unsubscribe, when set, is the
// https address of its one-click unsubscribe.
type Message struct {
	To          string
	Subject     string
	Text        string
	HTML        string
	Unsubscribe string
	Lang        string
}

// ErrAfterAccepted wraps what went wrong after the relay accepted a mail
// (250 to its DATA): the reset or the goodbye that followed, or the
// connection dropped. The mail is sent; a caller logs this and must not
// send it again, or the reader gets it twice.
var ErrAfterAccepted = errors.New("mail: the relay accepted the mail, then the session failed")

// Send sends m through the relay. An error wrapping ErrAfterAccepted means
// the mail was sent; any other means it was not.
func (r *Relay) Send(ctx context.Context, m Message) error {
	msg := gomail.NewMsg()
	if err := msg.From(r.from); err != nil {
		return fmt.Errorf("mail from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("mail to: %w", err)
	}
	setSubject(msg, m.Subject)
	msg.SetDate()
	// The Message-ID names the From domain, which the site owns, not the
	// host it runs on (go-mail's default: "…@vm" leaks the machine's name
	// and is not unique across replicas named alike).
	msg.SetMessageIDWithValue(rand.Text() + "@" + r.domain)
	msg.SetGenHeader(gomail.HeaderContentLang, contentLanguage(m.Lang))
	// Mail a machine sends: no auto-replies back.
	msg.SetGenHeader("Auto-Submitted", "auto-generated")
	if m.Unsubscribe != "" {
		msg.SetGenHeader("List-Unsubscribe", "<"+m.Unsubscribe+">")
		msg.SetGenHeader("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	opts := []gomail.Option{gomail.WithPort(r.port), gomail.WithTimeout(30 * time.Second)}
	if r.implicit {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if r.user != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthPlain), gomail.WithUsername(r.user), gomail.WithPassword(r.password))
	}
	if r.TLS != nil {
		cfg := r.TLS.Clone()
		if cfg.ServerName == "" {
			cfg.ServerName = r.host
		}
		opts = append(opts, gomail.WithTLSConfig(cfg))
	}
	c, err := gomail.NewClient(r.host, opts...)
	if err != nil {
		return err
	}
	err = c.DialAndSendWithContext(ctx, msg)
	if err != nil && msg.IsDelivered() {
		// go-mail marks the message delivered once the relay answered 250
		// to its DATA, and still returns what failed after: the RSET it
		// sends next, or the QUIT.
		return fmt.Errorf("%w: %w", ErrAfterAccepted, err)
	}
	return err
}

// setSubject sets msg's Subject. go-mail folds a header before any word
// that does not fit on the line, and its first encoded word (75
// characters) never fits after "Subject: ", so a Chinese subject began on
// the next line, after "Subject:" and a fold, and parsers that keep the
// space of a fold (Python's email) read the subject with a leading space.
// A subject that needs encoding is therefore encoded here, in base64
// words of whole characters, the first sized to fit on the header's own
// line and the others on theirs (RFC 2047: lines of at most 76
// characters), folded between words, whose whitespace decoders drop.
func setSubject(msg *gomail.Msg, subject string) {
	subject = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(subject)
	if !needsEncoding(subject) {
		msg.Subject(subject)
		return
	}
	msg.SetGenHeaderPreformatted(gomail.HeaderSubject, strings.Join(encodedWords(subject, 76-len("Subject: "), 76-len(" ")), "\r\n "))
}

// encodedWords splits s into UTF-8 base64 encoded words, the first at
// most first characters long, the others at most rest.
func encodedWords(s string, first, rest int) []string {
	const prefix, suffix = "=?UTF-8?B?", "?="
	fits := func(n, limit int) bool { return len(prefix)+base64.StdEncoding.EncodedLen(n)+len(suffix) <= limit }
	var words []string
	limit, start := first, 0
	for i, r := range s {
		end := i + utf8.RuneLen(r)
		if !fits(end-start, limit) && i > start {
			words = append(words, prefix+base64.StdEncoding.EncodeToString([]byte(s[start:i]))+suffix)
			limit, start = rest, i
		}
	}
	return append(words, prefix+base64.StdEncoding.EncodeToString([]byte(s[start:]))+suffix)
}

// needsEncoding reports whether s holds a byte a header cannot carry as it
// is: outside printable ASCII, or the start of what reads as an encoded
// word.
func needsEncoding(s string) bool {
	for _, b := range []byte(s) {
		if b < ' ' || b > '~' {
			return true
		}
	}
	return strings.Contains(s, "=?")
}

func contentLanguage(lang string) string {
	if lang == "zh" {
		return "zh-CN"
	}
	return "en"
}
