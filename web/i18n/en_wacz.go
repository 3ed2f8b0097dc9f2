package i18n

// enWacz words the link to an edition's archive of cited pages.
var enWacz = map[string]string{
	"wacz.download":    "Download the archive (WACZ)",
	"wacz.explain":     "— the captured pages this edition's evidence cites, as WARC records in one WACZ file, to open in any web archive player.",
	"wacz.title":       "%s, edition %d: the pages its evidence cites",
	"wacz.description": "The web pages that the evidence of edition %[2]d of the ranking `%[1]s` cites, as the site captured them: one WARC response record each, with the HTTP head and body as sent. Published by Crossrank; each record's payload digest is the SHA-256 the edition's evidence names.",
	"error.416":        "Range not satisfiable",
	"archive.range":    "No range asked for lies within the archive; its size is in Content-Range.",
}
