package ui

import "github.com/crossrank/crossrank/events"

// Bilingual is a claim or a rationale as a page shows it (issue 43): Text
// in the page's language, or in the other where it has none; Original the
// other language's text where it has one that differs, which the page puts
// behind a disclosure ("原文" / "Original") so that a page reads in one
// language while a translation can be checked against what the editor
// wrote. Machine-readable outputs keep both languages and never use it.
type Bilingual struct {
	Text, Lang         string // the text shown and its language ("zh" or "en")
	Original, OrigLang string // "" when there is nothing else to show
	Label              string // the disclosure's label, in the page's language
}

// BilingualOf is t as page p shows it.
func BilingualOf(p Page, t events.Text) Bilingual {
	other := "en"
	if p.Lang == "en" {
		other = "zh"
	}
	b := Bilingual{Text: t.In(p.Lang), Lang: p.Lang, Label: p.T("text.original")}
	if b.Text != textIn(t, p.Lang) { // fell back to the other language
		b.Lang = other
	}
	if o := textIn(t, other); o != "" && o != b.Text {
		b.Original, b.OrigLang = o, other
	}
	return b
}

// textIn is t's text in lang, without falling back.
func textIn(t events.Text, lang string) string {
	if lang == "zh" {
		return t.Zh
	}
	return t.En
}
