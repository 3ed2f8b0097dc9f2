package httpx

import (
	"encoding/json"
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
}

// problemType returns the type URI of a status.
func problemType(status int) string {
	if t, ok := problemTypes[status]; ok {
		return "urn:crossrank:problem:" + t
	}
	return "about:blank"
}

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
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(p)
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
