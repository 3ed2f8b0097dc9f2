package i18n

// enEditionPage holds the English words of an edition's public page: its
// summary, the ranking after it, its largest moves and its changes by
// entry, paged and filtered.
var enEditionPage = map[string]string{
	"edition.summary":           "Summary",
	"edition.stat_added":        "Entries added",
	"edition.stat_changed":      "Entries changed",
	"edition.stat_up":           "Moved up",
	"edition.stat_down":         "Moved down",
	"edition.stat_scores":       "Score changes",
	"edition.stat_attributes":   "Attribute changes",
	"edition.stat_proposals":    "Proposals",
	"edition.stat_methodology":  "Methodology changes",
	"edition.top_of":            "The first %d of %d entries.",
	"edition.full_ranking":      "The whole ranking →",
	"edition.full_ranking_csv":  "The whole ranking of this edition (CSV)",
	"edition.largest_moves":     "Largest moves",
	"edition.no_moves":          "No entry changed rank in this edition.",
	"edition.more_new":          "…and %d more, each marked “new” in the ranking.",
	"edition.changes_by_entry":  "Changes by entry",
	"edition.no_changes":        "No change matches.",
	"edition.no_entry":          "No entry is named “%s”.",
	"edition.continued":         "continued",
	"edition.only_entry":        "Only this entry",
	"edition.filter_entry":      "Entry (name or slug)",
	"edition.filter_criterion":  "Criterion",
	"edition.filter_all":        "Every criterion and attribute",
	"edition.filter_scores":     "Scores",
	"edition.filter_attributes": "Attributes",
	"edition.filter_apply":      "Filter",
	"edition.filter_clear":      "Show every change",
	"edition.about":             "About this edition",
	"edition.more_proposals":    "…and %d more, listed in the edition's JSON.",
	"count.changes.one":         "%d change",
	"count.changes.other":       "%d changes",
	"field.edition_criterion":   "{Field} names no criterion or attribute of this ranking: \"{value}\".",
}
