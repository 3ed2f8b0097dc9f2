package i18n

// enEditionSize holds the English words of a large edition's publish page:
// its size, its largest moves and its pages.
var enEditionSize = map[string]string{
	"publish.ready_count":   "%d cross-validated proposals; %d in this preview.",
	"publish.size":          "This edition releases %d proposals: %d new entries, %d changes; the ranking after it has %d entries.",
	"publish.largest_moves": "Largest moves",
	"publish.pages":         "Pages of the preview",
	"publish.page_of":       "Page %d of %d",
	"field.page_number":     "{Field} must be a page number: 1 or more.",
	"label.page":            "page",
}
