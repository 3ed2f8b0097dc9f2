package i18n

// zhCaptures words the site's page about an archived copy of a cited page.
var zhCaptures = map[string]string{
	"capture.download":   "下载存档原文",
	"capture.size":       "%s 字节，与来源发送的内容一致",
	"capture.not_framed": "此类文档不在此处显示：请下载后阅读。",
}
