package openapicheck

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/crossrank/crossrank/web/api"
)

// strictResponses returns the OpenAPI document doc with every object
// schema a response uses closed (unevaluatedProperties: false), so a field
// the server sends and the document does not name fails the check. The
// document itself stays open (clients must ignore members they do not
// know); the test holds the server to listing them all.
//
// An object without properties is closed too: it has no field the
// document names. A schema that states additionalProperties or
// unevaluatedProperties (a map, the problem's extension members) is left
// as it says. An allOf
// of references is merged into its schema first: a closed part of an
// allOf would refuse the members its siblings add.
func strictResponses(doc []byte) ([]byte, error) {
	var d map[string]any
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	components, _ := d["components"].(map[string]any)
	schemas, _ := components["schemas"].(map[string]any)
	s := strictener{schemas: schemas, closed: map[string]bool{}}
	paths, _ := d["paths"].(map[string]any)
	for _, item := range paths {
		ops, _ := item.(map[string]any)
		for _, op := range ops {
			o, _ := op.(map[string]any)
			responses, _ := o["responses"].(map[string]any)
			for _, res := range responses {
				s.response(res)
			}
		}
	}
	responses, _ := components["responses"].(map[string]any)
	for _, res := range responses {
		s.response(res)
	}
	return json.Marshal(d)
}

// strictener closes schemas, each component once.
type strictener struct {
	schemas map[string]any
	closed  map[string]bool // component names done
}

func (s strictener) response(res any) {
	r, _ := res.(map[string]any)
	content, _ := r["content"].(map[string]any)
	for _, media := range content {
		m, _ := media.(map[string]any)
		s.schema(m["schema"])
	}
}

// schema closes sc and every schema inside it.
func (s strictener) schema(sc any) {
	m, ok := sc.(map[string]any)
	if !ok {
		return
	}
	if ref, ok := m["$ref"].(string); ok {
		name, found := strings.CutPrefix(ref, "#/components/schemas/")
		if found && !s.closed[name] {
			s.closed[name] = true
			s.schema(s.schemas[name])
		}
	}
	s.mergeAllOf(m)
	props, named := m["properties"].(map[string]any)
	_, add := m["additionalProperties"]
	_, uneval := m["unevaluatedProperties"]
	if (named || isObject(m["type"])) && !add && !uneval {
		m["unevaluatedProperties"] = false
	}
	for _, p := range props {
		s.schema(p)
	}
	for _, key := range []string{"items", "additionalProperties", "not"} {
		s.schema(m[key])
	}
	for _, key := range []string{"oneOf", "anyOf", "prefixItems"} {
		list, _ := m[key].([]any)
		for _, sub := range list {
			s.schema(sub)
		}
	}
}

// mergeAllOf moves the properties and required of m's allOf parts (inline
// or references) into m.
func (s strictener) mergeAllOf(m map[string]any) {
	parts, ok := m["allOf"].([]any)
	if !ok {
		return
	}
	delete(m, "allOf")
	props, _ := m["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	required, _ := m["required"].([]any)
	for _, part := range parts {
		p, _ := part.(map[string]any)
		if ref, ok := p["$ref"].(string); ok {
			p, _ = s.schemas[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)
		}
		pp, _ := p["properties"].(map[string]any)
		for k, v := range pp {
			if _, ok := props[k]; !ok {
				props[k] = v
			}
		}
		pr, _ := p["required"].([]any)
		required = append(required, pr...)
	}
	m["properties"] = props
	if len(required) > 0 {
		m["required"] = required
	}
}

// operation is one operation of the document, with the statuses it lists.
type operation struct {
	method   string
	path     *regexp.Regexp // the path template, {name} as one segment
	params   int            // how many {name} segments: fewer wins, as in ServeMux
	statuses map[string]bool
}

// operations lists the document's operations, most specific path first.
var operations = sync.OnceValues(func() ([]operation, error) {
	var doc struct {
		Paths map[string]map[string]struct {
			Responses map[string]json.RawMessage `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(api.OpenAPI, &doc); err != nil {
		return nil, err
	}
	param := regexp.MustCompile(`\{[^}]+\}`)
	var out []operation
	for path, ops := range doc.Paths {
		re := regexp.MustCompile("^" + param.ReplaceAllString(regexp.QuoteMeta(path), "[^/]+") + "$")
		for method, op := range ops {
			o := operation{method: strings.ToUpper(method), path: re, params: strings.Count(path, "{"), statuses: map[string]bool{}}
			for status := range op.Responses {
				o.statuses[status] = true
			}
			out = append(out, o)
		}
	}
	slices.SortFunc(out, func(a, b operation) int { return a.params - b.params })
	return out, nil
})

// undocumentedRefusal returns a report when the server refused a request
// to a documented operation with a 4xx the operation does not list; ""
// otherwise (the document's default covers only 5xx and the rare 405).
func undocumentedRefusal(method, path string, status int) string {
	if status/100 != 4 || status == http.StatusMethodNotAllowed {
		return ""
	}
	ops, err := operations()
	if err != nil {
		return err.Error()
	}
	for _, o := range ops {
		if o.method != method || !o.path.MatchString(path) {
			continue
		}
		if o.statuses[strconv.Itoa(status)] || o.statuses["4XX"] {
			return ""
		}
		return fmt.Sprintf("answered %d, which the document does not list for it", status)
	}
	return ""
}

// isObject reports whether a schema's type is, or includes, object.
func isObject(t any) bool {
	switch t := t.(type) {
	case string:
		return t == "object"
	case []any:
		return slices.Contains(t, any("object"))
	}
	return false
}
