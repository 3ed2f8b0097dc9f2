package i18n

// zhWacz words the link to an edition's archive of cited pages.
var zhWacz = map[string]string{
	"wacz.download":    "下载存档（WACZ）",
	"wacz.explain":     "——本期证据引用的存档网页，以 WARC 记录打包为一个 WACZ 文件，可用任何网页存档播放器打开。",
	"wacz.title":       "%s 第 %d 期：证据引用的网页",
	"wacz.description": "排名 `%[1]s` 第 %[2]d 期证据所引用的网页，即本站抓取时的原样：每页一条 WARC response 记录，含原始 HTTP 头与正文。由 Crossrank 发布；每条记录的载荷摘要即本期证据所载的 SHA-256。",
	"error.416":        "请求的范围无法满足",
	"archive.range":    "所请求的范围均不在存档之内；存档大小见 Content-Range。",
}
