package events

import (
	"fmt"
	"net/url"
	"strings"
)

// The ways an actor signs in, the first word of the ce-authvia attribute.
const (
	ViaSession = "session" // a desk sign-in (session cookie)
	ViaToken   = "token"   // an API token (Authorization: Bearer)
	ViaCLI     = "cli"     // the operator's command line
	ViaWorker  = "worker"  // a worker inside the server (the capture worker), acting on events
	// ViaInvitation is a person choosing their password on the one-time
	// link of an invitation or a reset: the link, not a session, says who.
	ViaInvitation = "invitation"
	// ViaIntake is a reader without an account, through the public report
	// form or its JSON twin: nobody signed in, the intake vouches for
	// nothing but the text.
	ViaIntake = "intake"
	// ViaOIDC is a desk sign-in through the organisation's OpenID
	// Provider; the issuer it vouched through rides along.
	ViaOIDC = "oidc"
)

// Via is how an event's actor was authenticated: the ce-authvia extension
// attribute. Its text form is one of
//
//	session
//	cli
//	worker
//	invitation
//	intake
//	token;id=<token id>;name=<token name, query-escaped>
//	oidc;iss=<issuer URL, query-escaped>
//
// The name is escaped (url.QueryEscape) so the value stays one line of
// ASCII whatever a user calls a token, and ';' or '=' in a name cannot be
// read as a separator. The zero Via (no attribute) is what every event
// stored before the attribute existed has.
type Via struct {
	Method    string // ViaSession, ViaToken, ViaCLI, ViaWorker, ViaInvitation, ViaIntake, ViaOIDC; "" unknown
	TokenID   string // with ViaToken
	TokenName string // with ViaToken: the name the token was issued with
	Issuer    string // with ViaOIDC: the OpenID Provider's issuer URL
}

// String returns the attribute's text form; "" for the zero Via.
func (v Via) String() string {
	switch v.Method {
	case ViaOIDC:
		return ViaOIDC + ";iss=" + url.QueryEscape(v.Issuer)
	case ViaToken:
	default:
		return v.Method
	}
	return ViaToken + ";id=" + url.QueryEscape(v.TokenID) + ";name=" + url.QueryEscape(v.TokenName)
}

// IsZero reports whether v records nothing (an older event).
func (v Via) IsZero() bool { return v == Via{} }

// ParseVia reads the text form of a ce-authvia attribute. "" is the zero
// Via. A value this version does not know (another writer's) is an error;
// readers that only display it may show it as it is.
func ParseVia(s string) (Via, error) {
	method, params, more := strings.Cut(s, ";")
	switch method {
	case "":
		if s == "" {
			return Via{}, nil
		}
	case ViaSession, ViaCLI, ViaWorker, ViaInvitation, ViaIntake:
		if !more {
			return Via{Method: method}, nil
		}
	case ViaToken:
		v := Via{Method: ViaToken}
		for p := range strings.SplitSeq(params, ";") {
			k, raw, _ := strings.Cut(p, "=")
			val, err := url.QueryUnescape(raw)
			if err != nil {
				return Via{}, fmt.Errorf("%w: authvia %q: %v", ErrMalformed, s, err)
			}
			switch k {
			case "id":
				v.TokenID = val
			case "name":
				v.TokenName = val
			}
		}
		if v.TokenID != "" {
			return v, nil
		}
	case ViaOIDC:
		k, raw, _ := strings.Cut(params, "=")
		iss, err := url.QueryUnescape(raw)
		if k == "iss" && err == nil && iss != "" && !strings.Contains(params, ";") {
			return Via{Method: ViaOIDC, Issuer: iss}, nil
		}
	}
	return Via{}, fmt.Errorf("%w: authvia %q", ErrMalformed, s)
}
