package events_test

import (
	"errors"
	"testing"

	"github.com/crossrank/crossrank/events"
)

func TestViaText(t *testing.T) {
	tests := []struct {
		via  events.Via
		text string
	}{
		{events.Via{}, ""},
		{events.Via{Method: events.ViaSession}, "session"},
		{events.Via{Method: events.ViaCLI}, "cli"},
		{events.Via{Method: events.ViaWorker}, "worker"},
		{events.Via{Method: events.ViaInvitation}, "invitation"},
		{events.Via{Method: events.ViaToken, TokenID: "0195eb2c-1a00-7000-8000-0000000000aa", TokenName: "ci-bot"},
			"token;id=0195eb2c-1a00-7000-8000-0000000000aa;name=ci-bot"},
		// A name with the separators and non-ASCII stays one ASCII value.
		{events.Via{Method: events.ViaToken, TokenID: "t1", TokenName: "导入; a=b %"}, "token;id=t1;name=%E5%AF%BC%E5%85%A5%3B+a%3Db+%25"},
		{events.Via{Method: events.ViaToken, TokenID: "t1"}, "token;id=t1;name="},
		{events.Via{Method: events.ViaOIDC, Issuer: "https://id.example.org/realms/news"}, "oidc;iss=https%3A%2F%2Fid.example.org%2Frealms%2Fnews"},
	}
	for _, tt := range tests {
		if got := tt.via.String(); got != tt.text {
			t.Errorf("%+v.String() = %q, want %q", tt.via, got, tt.text)
		}
		got, err := events.ParseVia(tt.text)
		if err != nil || got != tt.via {
			t.Errorf("ParseVia(%q) = %+v, %v; want %+v", tt.text, got, err, tt.via)
		}
	}
}

func TestParseViaRejects(t *testing.T) {
	for _, s := range []string{"password", "session;x=1", "cli;", "worker;id=1", "token", "token;name=x", "token;id=%zz", ";", "Session", "oidc", "oidc;iss=", "oidc;sub=x", "oidc;iss=a;iss=b", "oidc;iss=%zz"} {
		if v, err := events.ParseVia(s); !errors.Is(err, events.ErrMalformed) {
			t.Errorf("ParseVia(%q) = %+v, %v; want ErrMalformed", s, v, err)
		}
	}
}

// FuzzParseVia: ce-authvia is read from the stream, which any NATS client
// may write to. Whatever parses must print back to a value that parses to
// the same Via.
func FuzzParseVia(f *testing.F) {
	for _, s := range []string{"", "session", "cli", "token;id=t1;name=ci", "token;id=t1;name=%E5%AF%BC%3B", "token;name=x;id=y;id=z", "token;id=%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := events.ParseVia(s)
		if err != nil {
			return
		}
		again, err := events.ParseVia(v.String())
		if err != nil || again != v {
			t.Fatalf("ParseVia(%q) = %+v; its String %q parses to %+v, %v", s, v, v.String(), again, err)
		}
	})
}
