package mail

import (
	"bytes"
	"crypto/tls"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// relayServer is a real SMTP server (emersion/go-smtp) on loopback, with
// STARTTLS under httptest's certificate and AUTH PLAIN; it keeps what it
// receives, and refuses the first Refuse messages with a 451. With drop
// set it accepts each message (250) and then drops the connection at the
// client's next command (go-mail's RSET, else QUIT), as a relay that
// crashes after queueing would.
type relayServer struct {
	Addr   string
	TLS    *tls.Config // what a client trusts the server's certificate with
	mu     sync.Mutex
	refuse int
	drop   bool
	got    []received
	signal chan struct{}
}

// received is one message as the server read it; Raw holds its bytes as
// they came, folds and all.
type received struct {
	From, To string
	Msg      *mail.Message
	Body     []byte
	Raw      []byte
}

func startRelay(t *testing.T, refuse int) *relayServer {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	ts.StartTLS() // for its certificate and a client config that trusts it
	t.Cleanup(ts.Close)
	rs := &relayServer{TLS: ts.Client().Transport.(*http.Transport).TLSClientConfig, refuse: refuse, signal: make(chan struct{}, 100)}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &session{rs: rs, conn: c}, nil }))
	srv.Domain = "localhost"
	srv.TLSConfig = ts.TLS
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rs.Addr = ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	return rs
}

type session struct {
	rs       *relayServer
	conn     *smtp.Conn
	authed   bool
	from, to string
	accepted bool // a message was accepted and the server has reset after it
	resets   int  // resets since the last accepted message
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, user, pass string) error {
		if user != "crossrank" || pass != "s3cret" {
			return errors.New("bad credentials")
		}
		s.authed = true
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if !s.authed {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error { s.to = to; return nil }
func (s *session) Reset() {
	// The server resets once after answering DATA; the next reset is the
	// client's own command.
	if !s.accepted {
		return
	}
	if s.resets++; s.resets == 2 {
		s.rs.mu.Lock()
		drop := s.rs.drop
		s.rs.mu.Unlock()
		if drop {
			// The raw connection: Conn.Close waits for the lock this
			// command holds.
			s.conn.Conn().Close()
		}
	}
}
func (s *session) Logout() error { return nil }

func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.rs.mu.Lock()
	defer s.rs.mu.Unlock()
	if s.rs.refuse > 0 {
		s.rs.refuse--
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	m, err := mail.ReadMessage(bytes.NewReader(b))
	if err != nil {
		return err
	}
	body, _ := io.ReadAll(m.Body)
	s.rs.got = append(s.rs.got, received{From: s.from, To: s.to, Msg: m, Body: body, Raw: b})
	s.accepted, s.resets = true, 0
	s.rs.signal <- struct{}{}
	return nil
}

// all returns what the server received so far.
func (rs *relayServer) all() []received {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return append([]received(nil), rs.got...)
}

// await waits until a message to `to` whose subject contains subject has
// arrived, and returns it.
func (rs *relayServer) await(t *testing.T, to, subject string) received {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		for _, m := range rs.all() {
			if m.To == to && strings.Contains(decodedSubject(m), subject) {
				return m
			}
		}
		select {
		case <-rs.signal:
		case <-deadline:
			t.Fatalf("no mail to %s with %q in its subject; got %d mails", to, subject, len(rs.all()))
		}
	}
}

func decodedSubject(m received) string {
	s, err := new(mime.WordDecoder).DecodeHeader(m.Msg.Header.Get("Subject"))
	if err != nil {
		return m.Msg.Header.Get("Subject")
	}
	return s
}

// parts returns the text/plain and text/html parts of a received mail,
// decoded.
func parts(t *testing.T, m received) (text, html string) {
	t.Helper()
	mt, params, err := mime.ParseMediaType(m.Msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("content type %q: %v", m.Msg.Header.Get("Content-Type"), err)
	}
	mr := multipart.NewReader(bytes.NewReader(m.Body), params["boundary"])
	for {
		p, err := mr.NextPart() // decodes quoted-printable
		if err == io.EOF {
			return text, html
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(p)
		if err != nil {
			t.Fatal(err)
		}
		ct, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		switch ct {
		case "text/plain":
			text = string(b)
		case "text/html":
			html = string(b)
		}
	}
}
