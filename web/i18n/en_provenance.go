package i18n

// enProvenance holds the English words about where evidence comes from and
// how it is kept checkable: provenance tiers, the independent view, the
// highlighted quote, re-verification and pending captures.
var enProvenance = map[string]string{
	"tier.vendor":      "vendor's own claim",
	"tier.third_party": "third-party report",
	"tier.own":         "our own measurement",
	"tier.unknown":     "provenance not stated",
	"tier.label":       "Provenance",

	"desk.field.tier":          "Provenance",
	"desk.field.tier_unstated": "Not stated",
	"desk.field.tier_hint":     "Whose claim is this? The independent view of the ranking counts only scores that a third-party report or our own measurement backs.",
	"public.view_published":    "All evidence",
	"public.view_independent":  "Independent evidence only",
	"public.basis_label":       "Evidence counted",
	"public.independent_note":  "Counting only scores backed by at least one third-party report or our own measurement; a score resting on the vendor's own claims alone counts as 0. This view is computed from edition %d, not published.",
	"public.independent_hash":  "View hash (SHA-256)",

	"desk.passage.changed_link": "quote in the new version",
	"desk.passage.link":         "quoted passage in the copy",
	"desk.passage.title":        "Quoted passage in the archived copy",
	"desk.passage.banner":       "Text of the archived copy of %s, fetched by Crossrank on %s, as the quote check reads it: not the live page.",
	"desk.passage.found":        "the quote is marked below",

	"desk.reverify.open":            "Open a re-verification proposal",
	"desk.reverify.prefill_intro":   "This proposal re-verifies a published source that changed or is gone. Check the source again, then add the evidence and the score it supports.",
	"desk.reverify.prefill_title":   "Re-verify: %s",
	"desk.reverify.prefill_summary": "Re-verify %s. Published evidence %s (“%s”, %s): %s.",
	"desk.reverify.prefill_note":    "Re-verifying evidence %s of proposal %s, behind %s: %s. The form starts from the old item's claim and source; quote what the source says now.",
}
