package i18n

// enCaptureProgress holds the English words of the capture progress an
// import's page shows for its ranking's sources.
var enCaptureProgress = map[string]string{
	"desk.import.captures_title":   "Copies of the cited pages",
	"desk.import.captures":         "%s of %s sources captured, %s failed",
	"desk.import.captures_waiting": "%s wait for their first attempt or a retry; this page updates itself.",
}
