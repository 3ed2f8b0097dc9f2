package i18n

// enCaptureProgress holds the English words of the capture progress an
// import's page shows for its ranking's sources.
var enCaptureProgress = map[string]string{
	"desk.import.captures_title":         "Copies of the cited pages",
	"desk.import.captures.one":           "%s of %s source captured, %s failed",
	"desk.import.captures.other":         "%s of %s sources captured, %s failed",
	"desk.import.captures_waiting.one":   "%s waits for its first attempt or a retry; this page updates itself.",
	"desk.import.captures_waiting.other": "%s wait for their first attempt or a retry; this page updates itself.",
	// The retries waiting are counted over the whole desk: a retry names
	// its source, not the source's ranking.
	"desk.import.captures_retrying.one":   "%s source on the desk is failing now (all rankings); it is tried again later, with a longer wait each time, until the worker gives up.",
	"desk.import.captures_retrying.other": "%s sources on the desk are failing now (all rankings); each is tried again later, with a longer wait each time, until the worker gives up.",
}
