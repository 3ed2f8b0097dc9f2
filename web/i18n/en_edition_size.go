package i18n

// enEditionSize holds the English words of a large edition's publish page:
// its size, its largest moves and its pages.
var enEditionSize = map[string]string{
	"publish.ready_count":   "%s; %d in this preview.",
	"publish.size":          "This edition releases %s: %s, %s; the ranking after it has %s.",
	"publish.largest_moves": "Largest moves",
	"publish.pages":         "Pages of the preview",
	"publish.page_of":       "Page %d of %d",
	"field.page_number":     "{Field} must be a page number: 1 or more.",
	"label.page":            "page",
}
