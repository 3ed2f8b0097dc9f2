package httpx

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/crossrank/crossrank/web/i18n"
)

// Problem is an RFC 9457 problem detail.
type Problem struct {
	Type      string         `json:"type"`
	Title     string         `json:"title"`
	Status    int            `json:"status"`
	Detail    string         `json:"detail,omitempty"`
	Instance  string         `json:"instance,omitempty"`
	RequestID string         `json:"request_id,omitempty"`
	Errors    []FieldProblem `json:"errors,omitempty"`
}

// problemTypes names the kind of each status; clients may branch on type.
var problemTypes = map[int]string{
	http.StatusBadRequest:            "malformed",
	http.StatusUnauthorized:          "unauthenticated",
	http.StatusForbidden:             "forbidden",
	http.StatusNotFound:              "not-found",
	http.StatusMethodNotAllowed:      "method-not-allowed",
	http.StatusConflict:              "conflict",
	http.StatusRequestEntityTooLarge: "too-large",
	http.StatusUnsupportedMediaType:  "unsupported-media-type",
	http.StatusUnprocessableEntity:   "invalid",
	http.StatusTooManyRequests:       "too-many-requests",
	http.StatusInternalServerError:   "internal",
	http.StatusServiceUnavailable:    "unavailable",
	http.StatusInsufficientStorage:   "insufficient-storage",
}

// problemType returns the type URI of a status.
func problemType(status int) string {
	if t, ok := problemTypes[status]; ok {
		return "urn:crossrank:problem:" + t
	}
	return "about:blank"
}

// ProblemKind names the kind of a status ("conflict", "forbidden"…), as
// the last part of its problem type; "" for a status without one.
func ProblemKind(status int) string { return problemTypes[status] }

// WriteProblem answers err as application/problem+json in the request's
// language: a title for the status, the user message as detail, and the
// fields at fault.
func WriteProblem(w http.ResponseWriter, r *http.Request, status int, err error) {
	lang := Lang(r.Context())
	p := Problem{
		Type:      problemType(status),
		Title:     StatusTitle(lang, status),
		Status:    status,
		Detail:    Message(lang, err),
		Instance:  r.URL.Path,
		RequestID: RequestID(r.Context()),
		Errors:    FieldProblems(lang, err),
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Cache-Control", "no-store")
	var more *WithMembers
	if errors.As(err, &more) {
		if body, ok := withMembers(p, more.Members); ok {
			w.WriteHeader(status)
			_ = json.NewEncoder(w).Encode(body)
			return
		}
	}
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(p)
}

// WithMembers is an error whose problem+json carries extension members
// (RFC 9457 §3.2) besides the standard ones: a 409 on publish carries the
// current preview, so the client need not ask for it again. Members must
// encode as a JSON object; the standard members win over its own.
type WithMembers struct {
	Err     error
	Members any
}

func (e *WithMembers) Error() string { return e.Err.Error() }
func (e *WithMembers) Unwrap() error { return e.Err }

// withMembers merges p over members; ok is false when members is not an
// object, and the problem is answered without them.
func withMembers(p Problem, members any) (map[string]json.RawMessage, bool) {
	raw, err := json.Marshal(members)
	if err != nil {
		return nil, false
	}
	var out map[string]json.RawMessage
	if json.Unmarshal(raw, &out) != nil || out == nil {
		return nil, false
	}
	std, err := json.Marshal(p)
	if err != nil {
		return nil, false
	}
	var own map[string]json.RawMessage
	if json.Unmarshal(std, &own) != nil {
		return nil, false
	}
	for k, v := range own {
		out[k] = v
	}
	return out, true
}

// StatusTitle is the short title of a status in lang.
func StatusTitle(lang string, status int) string {
	key := "error." + strconv.Itoa(status)
	if i18n.Has(key) {
		return i18n.T(lang, key)
	}
	return http.StatusText(status)
}

// WriteJSON answers v as JSON with status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
