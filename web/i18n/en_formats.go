package i18n

// enFormats are words inside the machine-readable downloads: the counts
// in the public Atom feed's entries, in their plural forms (see Plural),
// and the notes of ranking.csv's CSVW metadata.
var enFormats = map[string]string{
	"public.feed_changes.one":     "%d change",
	"public.feed_changes.other":   "%d changes",
	"public.feed_proposals.one":   "%d proposal",
	"public.feed_proposals.other": "%d proposals",
	"download.col.score_note":     "Empty: the entry has no score on this criterion. The ranking counts it as 0 in the total (Σ weight × score), which is this column's default.",
}
