package i18n

// enVerify words the page that checks an edition's bundle in the browser.
var enVerify = map[string]string{
	"verify.link":             "Verify this edition",
	"verify.link_explain":     "— in your browser, without our code: checks the signature and every digest, and recomputes the ranking from the events.",
	"verify.title":            "Verify edition %d",
	"verify.intro":            "This page downloads the edition's bundle and this site's signing key, and a script independent of the server's code checks the bundle here, in your browser: the Ed25519 signature, every file's SHA-256, each event as stored, and then it recomputes every edition's ranking — totals, ranks, scenarios — from the events and compares its hash with the one the edition published.",
	"verify.needs_script":     "The checks run in your browser and need JavaScript; without it, download the bundle and run crossrank verify-bundle.",
	"verify.running":          "Checking…",
	"verify.pass":             "Every check passed: these events compute this edition.",
	"verify.fail":             "A check failed: this bundle does not compute the edition it claims.",
	"verify.error":            "The bundle or the key could not be downloaded:",
	"verify.check.manifest":   "The manifest says what the bundle is",
	"verify.check.signature":  "Signed by this site's key",
	"verify.check.files":      "Every file matches its digest",
	"verify.check.events":     "The events are whole, in order, as stored",
	"verify.check.snapshot":   "The ranking recomputed from the events",
	"verify.check.evidence":   "Every cited evidence item is there",
	"verify.check.captures":   "The captured pages' digests",
	"verify.proves_title":     "What this proves",
	"verify.proves":           "That the holder of this site's key vouched for these events, and that they compute this edition's ranking — every score, total and rank — by the published algorithm (docs/edition-bundle.md).",
	"verify.not_proves_title": "What it does not prove",
	"verify.not_proves":       "It trusts the key: the key comes from this same site, so compare it with a copy you got elsewhere. It does not prove the bundle holds every event the site ever stored (drafts, votes and the audit chain stay on the server), nor that the evidence says what the scores claim: read the captured pages for that.",
	"verify.key":              "This site's signing key",
}
