// Package i18n holds every word a user reads, in each interface language,
// and the rules that put them together: one catalog per language (en.go,
// zh.go, each joined from five parts by area) keyed by message id or error
// code, plural forms, dates, the choice of language for a request, and the
// words for an error.
//
// Page messages are fmt format strings ("Signed in as %s"). Error messages
// name their arguments instead ("{Field} is {length} characters long"), as
// the domain's errors carry them by name, and so do the lines of the audit
// trail, whose rows carry a message id and named arguments (AuditLine).
package i18n

import (
	"fmt"
	"strings"
)

// The interface languages.
const (
	Zh = "zh"
	En = "en"
)

// catalogs holds the messages of each language by key.
var catalogs = map[string]map[string]string{En: en, Zh: zh}

// catalog returns lang's messages; an unknown language reads English.
func catalog(lang string) map[string]string {
	if lang == Zh {
		return zh
	}
	return en
}

// Has reports whether key is a message of the catalogs.
func Has(key string) bool {
	_, ok := en[key]
	return ok
}

// T returns the message key in lang; with args, the message is a format
// string for fmt.Sprintf. An unknown key returns the key itself, so a
// missing translation shows on the page instead of an empty string.
func T(lang, key string, args ...any) string {
	m, ok := catalog(lang)[key]
	if !ok {
		return key
	}
	if len(args) == 0 {
		return m
	}
	return fmt.Sprintf(m, args...)
}

// Prefixed returns lang's messages whose keys start with prefix, keyed
// without it: the words a page hands its script (verify.js's, say).
func Prefixed(lang, prefix string) map[string]string {
	out := map[string]string{}
	for k, m := range catalog(lang) {
		if rest, ok := strings.CutPrefix(k, prefix); ok {
			out[rest] = m
		}
	}
	return out
}

// PluralKey returns the key of the form of message key for count n:
// key+".one" when n is 1 in English, else key+".other" (Chinese has only
// .other).
func PluralKey(lang, key string, n int) string {
	if lang == En && n == 1 && Has(key+".one") {
		return key + ".one"
	}
	return key + ".other"
}

// Plural returns the form of message key for count n (see PluralKey),
// with n in place of its %d if it has one. A key without forms returns
// the key itself.
func Plural(lang, key string, n int) string {
	m, ok := catalog(lang)[PluralKey(lang, key, n)]
	if !ok {
		return key
	}
	if strings.Contains(m, "%d") {
		return fmt.Sprintf(m, n)
	}
	return m
}

// join merges a language's catalog parts into one map. A key in two parts
// would let one silently win: TestCatalogPartsDisjoint counts them.
func join(parts ...map[string]string) map[string]string {
	all := map[string]string{}
	for _, p := range parts {
		for k, v := range p {
			all[k] = v
		}
	}
	return all
}
