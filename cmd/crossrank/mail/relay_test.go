package mail

import (
	"context"
	"mime"
	"regexp"
	"strings"
	"testing"
	"time"
)

// rawSubject is the Subject field of a raw message: its lines as sent.
var rawSubject = regexp.MustCompile(`(?m)^Subject:.*\r\n(?:[ \t].*\r\n)*`)

// A subject in Chinese (or any that needs encoding) starts on the header's
// own line, not after a fold right behind the colon that some parsers
// (Python's email) read as a leading space; its lines keep to RFC 2047's 76
// characters, and it decodes, unfolded, to exactly the subject sent. An
// ASCII subject goes as it is.
func TestRelaySubjectStartsOnItsLine(t *testing.T) {
	t.Parallel()
	rs := startRelay(t, 0)
	relay, err := ParseRelay("smtp://crossrank:s3cret@"+rs.Addr, "Crossrank <desk@rank.example>")
	if err != nil {
		t.Fatal(err)
	}
	relay.TLS = rs.TLS
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i, subject := range []string{
		"[Crossrank] editor 请你评审提案 01JQ7ZK3M9X2：把「开源数据库」排在第 3 位，理由见附件与来源",
		"[Crossrank] 每日摘要：收件箱有 12 条新事项",
		"[Crossrank] 短",
		"[Crossrank] an emoji 🎉 and 排名 across a word boundary, long enough to need three encoded words 🎉🎉🎉",
		"[Crossrank] editor asked you to review proposal 01JQ7ZK3M9X2",
	} {
		to := "r" + string(rune('a'+i)) + "@example.org"
		if err := relay.Send(ctx, Message{To: to, Subject: subject, Text: "t", HTML: "<p>t</p>", Lang: "zh"}); err != nil {
			t.Fatal(err)
		}
		m := rs.await(t, to, "")
		field := rawSubject.FindString(string(m.Raw))
		lines := strings.Split(strings.TrimSuffix(field, "\r\n"), "\r\n")
		if lines[0] == "Subject:" || strings.HasPrefix(lines[0], "Subject:  ") {
			t.Errorf("%q: the subject starts after a fold: %q", subject, field)
		}
		for _, l := range lines {
			if len(l) > 76 {
				t.Errorf("%q: a line of %d characters: %q", subject, len(l), l)
			}
		}
		value := strings.TrimPrefix(strings.ReplaceAll(field[:len(field)-2], "\r\n", ""), "Subject: ")
		got, err := new(mime.WordDecoder).DecodeHeader(value)
		if err != nil || got != subject {
			t.Errorf("subject decodes to %q (%v), want %q; sent %q", got, err, subject, field)
		}
		if ascii := !strings.ContainsFunc(subject, func(r rune) bool { return r > '~' }); ascii && value != subject {
			t.Errorf("an ASCII subject went as %q", field)
		}
	}
}
