package command

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// ProposeChangeInput proposes a criterion's score ("criterion", "to": 8) or
// an attribute's tags ("attribute", "to": ["hourly", "monthly"]).
type ProposeChangeInput struct {
	WithCommandID
	Proposal  string           `json:"-"`
	Criterion string           `json:"criterion,omitempty"`
	Attribute string           `json:"attribute,omitempty"`
	To        ChangeTo         `json:"to"`
	Rationale domain.TextField `json:"rationale"` // as AddEvidenceInput.Claim
	Evidence  []string         `json:"evidence"`
}

// ChangeTo is the new value of a change: a whole number for a score, a
// list of tags for an attribute.
type ChangeTo struct {
	Score *int
	Tags  []string
	List  bool // the value was a list
}

// UnmarshalJSON accepts a whole number or a list of strings.
func (c *ChangeTo) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*c = ChangeTo{}
		return nil
	case len(b) > 0 && b[0] == '[':
		c.List, c.Score = true, nil
		if err := json.Unmarshal(b, &c.Tags); err != nil {
			return &httpx.BadField{Field: "to", Code: "field.list"}
		}
		return nil
	}
	var n int
	if err := json.Unmarshal(b, &n); err != nil {
		return &httpx.BadField{Field: "to", Code: "field.whole_number"}
	}
	c.Score, c.Tags, c.List = &n, nil, false
	return nil
}

// MarshalJSON writes the value back in the shape it came in.
func (c ChangeTo) MarshalJSON() ([]byte, error) {
	if c.List {
		return json.Marshal(c.Tags)
	}
	return json.Marshal(c.Score)
}

var ProposeChange = Action[ProposeChangeInput]{
	Name: "change.propose",
	Path: func(r *http.Request, in *ProposeChangeInput) { in.Proposal = proposalPath(r) },
	Form: func(f *httpx.Form, in *ProposeChangeInput) {
		in.Criterion, in.Attribute, in.Rationale = f.Str("criterion"), f.Str("attribute"), formText(f, "rationale")
		in.Evidence = f.Strs("evidence")
		if in.Attribute != "" {
			in.To = ChangeTo{Tags: f.Lines("to"), List: true}
		} else if f.Str("to") != "" {
			n := f.Int("to")
			in.To = ChangeTo{Score: &n}
		}
	},
	Run: proposeChange,
	Resource: func(_ *Deps, _ context.Context, in *ProposeChangeInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}

// proposeChange proposes a score or an attribute change, whichever the
// input names.
func proposeChange(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *ProposeChangeInput) (handler.Result, error) {
	switch {
	case in.Criterion != "" && in.Attribute != "":
		return handler.Result{}, &domain.FieldError{Field: "criterion", Code: "change.criterion_or_attribute"}
	case in.Criterion != "":
		if in.To.Score == nil {
			return handler.Result{}, &domain.FieldError{Field: "to", Code: "field.whole_number"}
		}
		return d.Commands.ProposeScore(ctx, a, domain.ProposeScore{CommandID: commandID, Proposal: in.Proposal, Criterion: in.Criterion,
			To: *in.To.Score, Rationale: in.Rationale.Text(), Evidence: in.Evidence})
	case in.Attribute != "":
		if in.To.Score != nil {
			return handler.Result{}, &domain.FieldError{Field: "to", Code: "field.list"}
		}
		return d.Commands.ProposeAttribute(ctx, a, domain.ProposeAttribute{CommandID: commandID, Proposal: in.Proposal, Attribute: in.Attribute,
			To: in.To.Tags, Rationale: in.Rationale.Text(), Evidence: in.Evidence})
	}
	return handler.Result{}, &domain.FieldError{Field: "criterion", Code: "field.required"}
}
