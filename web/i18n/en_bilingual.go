package i18n

// enBilingual holds the English words around bilingual claims and
// rationales (issue 43): the disclosure of the other language and the
// desk's two fields.
var enBilingual = map[string]string{
	"text.original": "Original",
	"text.lang.zh":  "Chinese",
	"text.lang.en":  "English",
	"text.hint":     "Write it in Chinese, in English or in both: readers see the language they chose, and the other one under “Original”.",
}
