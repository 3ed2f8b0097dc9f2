package httpx

import (
	"bytes"
	"net/http"

	"github.com/a-h/templ"
)

// Render writes a templ component as the response with status. The
// component is rendered into a buffer first: when it fails, Render returns
// the error having written nothing, so the caller can answer a clean error
// page instead of half a page (ui.Render does).
func Render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) error {
	var buf bytes.Buffer
	if err := c.Render(r.Context(), &buf); err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Add("Vary", "Cookie")
	h.Add("Vary", "Accept-Language")
	if User(r.Context()) != nil {
		h.Set("Cache-Control", "no-store")
	} else if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-cache")
	}
	w.WriteHeader(status)
	_, _ = buf.WriteTo(w)
	return nil
}
