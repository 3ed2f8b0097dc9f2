package i18n

// zhWacz words the link to an edition's archive of cited pages.
var zhWacz = map[string]string{
	"wacz.download": "下载存档（WACZ）",
	"wacz.explain":  "——本期证据引用的存档网页，以 WARC 记录打包为一个 WACZ 文件，可用任何网页存档播放器打开。",
}
