package command

import (
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
)

// formText reads a claim or a rationale from a form: its two fields
// name_zh and name_en (the desk's forms), or, as forms posted before
// claims and rationales were bilingual (issue 43), the one field name,
// read as the language it is written in like a JSON string (TextField).
func formText(f *httpx.Form, name string) domain.TextField {
	if t := (domain.TextField{Zh: f.Str(name + "_zh"), En: f.Str(name + "_en")}); t != (domain.TextField{}) {
		return t
	}
	return domain.TextField(events.TextFrom(f.Str(name)))
}
