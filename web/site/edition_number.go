package site

import (
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/ui"
)

// canonicalEdition answers 404 for an edition number not written the one
// way the site writes it: decimal digits without a sign or a leading zero
// ("2", never "02" or "+2"). strconv.Atoi reads all three as 2, which gave
// one edition many addresses, each its own entry in caches and citations.
func canonicalEdition(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !canonicalNumber(r.PathValue("n")) {
			ui.Fail(w, r, domain.ErrNotFound)
			return
		}
		h(w, r)
	}
}

// canonicalNumber reports whether s is a positive whole number written
// without a sign or leading zeros, and short enough for an int.
func canonicalNumber(s string) bool {
	if s == "" || len(s) > 9 || s[0] == '0' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
