package i18n

// enPaging holds the English words of paged lists and search.
var enPaging = map[string]string{
	"paging.label":              "Pages",
	"paging.label_of":           "Pages: %s",
	"paging.showing":            "%d–%d of %d",
	"paging.prev":               "← Previous",
	"paging.next":               "Next →",
	"public.whole_list":         "Every entry of edition %d, to download:",
	"public.name_label":         "Find by name",
	"public.name_apply":         "Find",
	"public.name_clear":         "Show every entry",
	"public.name_none":          "No entry's name holds “%s”.",
	"search.title":              "Search",
	"search.label":              "Entries, proposals and evidence",
	"search.submit":             "Search",
	"search.count":              "%d found",
	"search.count_more":         "more than %d found (the best shown)",
	"search.none":               "Nothing found.",
	"search.more":               "All %d →",
	"search.kind.entry":         "Entries",
	"search.kind.proposal":      "Proposals",
	"search.kind.evidence":      "Evidence",
	"nav.search":                "Search",
	"field.unknown_search_kind": "{Field} is one of entry, proposal, evidence, not \"{value}\".",
}
