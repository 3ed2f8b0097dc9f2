package i18n

// zhCaptureProgress holds the Chinese words of the capture progress an
// import's page shows for its ranking's sources.
var zhCaptureProgress = map[string]string{
	"desk.import.captures_title":          "引用页面的存档",
	"desk.import.captures.one":            "已存档 %[2]s 个来源中的 %[1]s 个，%[3]s 个失败",
	"desk.import.captures.other":          "已存档 %[2]s 个来源中的 %[1]s 个，%[3]s 个失败",
	"desk.import.captures_waiting.one":    "%s 个来源正在等待首次抓取或重试；本页会自动刷新。",
	"desk.import.captures_waiting.other":  "%s 个来源正在等待首次抓取或重试；本页会自动刷新。",
	"desk.import.captures_retrying.one":   "整个编辑台目前有 %s 个来源抓取失败（所有榜单合计）；它会稍后重试，每次等待更久，直到达到次数上限后放弃。",
	"desk.import.captures_retrying.other": "整个编辑台目前有 %s 个来源抓取失败（所有榜单合计）；每个都会稍后重试，每次等待更久，直到达到次数上限后放弃。",
}
