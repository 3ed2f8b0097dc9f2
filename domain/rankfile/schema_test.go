package rankfile_test

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
)

type schema struct {
	Type                 schemaType         `json:"type"`
	Ref                  string             `json:"$ref"`
	Properties           map[string]*schema `json:"properties"`
	Required             []string           `json:"required"`
	Items                *schema            `json:"items"`
	AdditionalProperties any                `json:"additionalProperties"`
	Defs                 map[string]*schema `json:"$defs"`
}

// schemaType is a schema's "type": one name, or a list of them (a claim
// is ["object", "string"]).
type schemaType []string

func (st *schemaType) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*st = schemaType{one}
		return nil
	}
	return json.Unmarshal(b, (*[]string)(st))
}

func (st schemaType) has(name string) bool { return slices.Contains(st, name) }

func loadSchema(t *testing.T) *schema {
	t.Helper()
	b, err := os.ReadFile("../../docs/ranking-file.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

// jsonFields returns a struct's JSON field names.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "-" && f.IsExported() {
			out[name] = f.Type
		}
	}
	return out
}

// Every field of the file's Go types is in the schema, and nothing else:
// the schema's definition of each struct (the root for File, $defs by Go
// type name otherwise) has exactly its JSON fields as properties.
func TestSchemaHasEveryField(t *testing.T) {
	root := loadSchema(t)
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		for ty.Kind() == reflect.Slice || ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Map {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] {
			return
		}
		seen[ty] = true
		def := root
		if ty != reflect.TypeFor[rankfile.File]() {
			def = root.Defs[ty.Name()]
		}
		if def == nil {
			t.Errorf("the schema has no $defs/%s", ty.Name())
			return
		}
		fields := jsonFields(ty)
		if got, want := slices.Sorted(maps.Keys(def.Properties)), slices.Sorted(maps.Keys(fields)); !slices.Equal(got, want) {
			t.Errorf("%s: the schema's properties are %v, the Go fields %v", ty.Name(), got, want)
		}
		if def.AdditionalProperties != false {
			t.Errorf("%s: the schema allows unknown properties; the decoder does not", ty.Name())
		}
		for _, ft := range fields {
			walk(ft)
		}
	}
	walk(reflect.TypeFor[rankfile.File]())
}

// check reports where v breaks s's object shapes: unknown or missing
// properties and wrong JSON types (the schema's other rules are the
// domain's, checked by TestDemoFileImports).
func check(t *testing.T, root, s *schema, v any, path string) {
	if s.Ref != "" {
		s = root.Defs[strings.TrimPrefix(s.Ref, "#/$defs/")]
	}
	switch x := v.(type) {
	case map[string]any:
		if !s.Type.has("object") {
			t.Errorf("%s: an object where the schema has %q", path, s.Type)
			return
		}
		for _, r := range s.Required {
			if _, ok := x[r]; !ok {
				t.Errorf("%s: lacks required %q", path, r)
			}
		}
		for k, val := range x {
			ps, ok := s.Properties[k]
			switch {
			case ok:
				check(t, root, ps, val, path+"."+k)
			case s.AdditionalProperties == false:
				t.Errorf("%s: %q is not in the schema", path, k)
			}
		}
	case []any:
		if !s.Type.has("array") {
			t.Errorf("%s: an array where the schema has %q", path, s.Type)
			return
		}
		for i, val := range x {
			check(t, root, s.Items, val, path+"["+strconv.Itoa(i)+"]")
		}
	}
}

func TestDemoFileMatchesSchema(t *testing.T) {
	root := loadSchema(t)
	b, err := json.Marshal(demo.File())
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	check(t, root, root, v, "$")
}

// The demo file, imported whole into an empty store, passes every rule the
// domain checks (the demo itself imports it in two parts).
func TestDemoFileImports(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	env := jstest.Start(t)
	h := handler.New(env.Store, nil)
	rep, err := rankfile.Import(ctx, h, demo.File(), importer)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Proposals) != 9 || rep.Definition == "" {
		t.Errorf("report %+v, want the definition and 9 proposals", rep)
	}
}
