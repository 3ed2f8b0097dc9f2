package i18n

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// AuditLine words one line of the audit trail in lang: the message of id
// msg (key "audit.msg.<msg>") with each {name} filled from args, the row's
// JSON object of named arguments (projections.AuditRow). A number is
// written as stored; a list is joined with the language's separator; a
// text in both languages ({"zh":…,"en":…}) is read in lang, or in the
// other language when lang's is empty; the value of an argument that
// holds a code is worded by "audit.code.<name>.<value>" when the catalog
// has it. User data is put in as it is: the page's template escapes it.
//
// A message the catalog does not know (a row written by a newer version)
// shows as its id and arguments, "id (name=value, …)", rather than failing.
func AuditLine(lang, msg string, args []byte) string {
	vals, err := auditArgs(args)
	m, ok := catalog(lang)["audit.msg."+msg]
	switch {
	case err != nil:
		return strings.TrimSpace(msg + " " + string(args))
	case !ok:
		return unknownAuditLine(lang, msg, vals)
	case len(vals) == 0:
		return m
	}
	pairs := make([]string, 0, 2*len(vals))
	for name, v := range vals {
		pairs = append(pairs, "{"+name+"}", auditValue(lang, name, v))
	}
	return strings.NewReplacer(pairs...).Replace(m)
}

// auditArgs decodes a row's arguments, numbers as they are written.
func auditArgs(args []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(args)) == 0 {
		return nil, nil
	}
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	var vals map[string]any
	if err := d.Decode(&vals); err != nil {
		return nil, err
	}
	return vals, nil
}

// auditValue words the value v of argument name.
func auditValue(lang, name string, v any) string {
	switch v := v.(type) {
	case string:
		if w, ok := catalog(lang)["audit.code."+name+"."+v]; ok {
			return w
		}
		return v
	case json.Number:
		return v.String()
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = auditValue(lang, name, e)
		}
		return strings.Join(parts, T(lang, "audit.list_separator"))
	case map[string]any: // a text in both languages
		for _, l := range []string{lang, En, Zh} {
			if s, ok := v[l].(string); ok && s != "" {
				return s
			}
		}
		return ""
	case bool:
		if v {
			return "true"
		}
		return "false"
	}
	return ""
}

// unknownAuditLine shows a message without words as its id and its
// arguments, by name.
func unknownAuditLine(lang, msg string, vals map[string]any) string {
	if len(vals) == 0 {
		return msg
	}
	names := make([]string, 0, len(vals))
	for name := range vals {
		names = append(names, name)
	}
	slices.Sort(names)
	for i, name := range names {
		names[i] = name + "=" + auditValue(lang, name, vals[name])
	}
	return msg + " (" + strings.Join(names, ", ") + ")"
}
