package i18n

// enWacz words the link to an edition's archive of cited pages.
var enWacz = map[string]string{
	"wacz.download": "Download the archive (WACZ)",
	"wacz.explain":  "— the captured pages this edition's evidence cites, as WARC records in one WACZ file, to open in any web archive player.",
}
