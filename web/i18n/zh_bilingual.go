package i18n

// zhBilingual holds the Simplified Chinese words around bilingual claims
// and rationales.
var zhBilingual = map[string]string{
	"text.original": "原文",
	"text.lang.zh":  "中文",
	"text.lang.en":  "英文",
	"text.hint":     "可用中文、英文或两种都写：读者看到所选的语言，另一种收在“原文”里。",
}
