package i18n

// enCaptures words the site's page about an archived copy of a cited page.
var enCaptures = map[string]string{
	"capture.download":   "Download the archived body",
	"capture.size":       "%s bytes, as the source sent them",
	"capture.not_framed": "This kind of document is not shown here: download it to read it.",
}
