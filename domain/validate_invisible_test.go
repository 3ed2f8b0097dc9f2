package domain_test

import (
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// The invisible formatting characters names refuse: every bidirectional
// control and the zero-width characters.
var invisibles = map[string]string{
	"LRE U+202A": "\u202a", "RLE U+202B": "\u202b", "PDF U+202C": "\u202c", "LRO U+202D": "\u202d", "RLO U+202E": "\u202e",
	"LRI U+2066": "\u2066", "RLI U+2067": "\u2067", "FSI U+2068": "\u2068", "PDI U+2069": "\u2069",
	"ZWSP U+200B": "\u200b", "ZWNJ U+200C": "\u200c", "ZWJ U+200D": "\u200d", "LRM U+200E": "\u200e", "RLM U+200F": "\u200f",
	"ALM U+061C": "\u061c", "WJ U+2060": "\u2060", "BOM U+FEFF": "\ufeff",
}

// TestNamesRefuseInvisibleCharacters: names and titles refuse every
// invisible formatting character; slugs and usernames are ASCII anyway;
// free text keeps them (the pages isolate it).
func TestNamesRefuseInvisibleCharacters(t *testing.T) {
	for label, ch := range invisibles {
		spoof := "acme" + ch + "cloud"
		open := func(f func(c *domain.OpenProposal)) func(w *world) error {
			return func(w *world) error {
				c := domain.OpenProposal{ID: "p2", Ranking: rk, Entry: "nova", Title: "Add Nova", NewEntry: newEntry()}
				f(&c)
				return errOnly(domain.DecideOpenProposal(w.ranking, w.entry(c.Entry), w.edition, w.prop(c.ID), actor("alice"), c))
			}
		}
		define := func(f func(d *events.RankingDefined)) func(w *world) error {
			return func(w *world) error {
				d := rankingDefinition()
				f(&d)
				return domain.ValidateMethodology(methodologyOf(d, events.ScenariosSet{}))
			}
		}
		register := func(f func(c *domain.RegisterUser)) func(w *world) error {
			return func(w *world) error {
				c := domain.RegisterUser{Username: "zed", DisplayName: "Zed", PasswordHash: "$argon2id$v=19$m=65536,t=3,p=4$x$y",
					Roles: []string{domain.RoleEditor}}
				f(&c)
				return errOnly(domain.DecideRegisterUser(&domain.User{}, domain.System(), c))
			}
		}
		token := func(name string) func(w *world) error {
			return func(w *world) error {
				// A token is issued by its own user only.
				return errOnly(domain.DecideIssueToken(userState(w.t, "zed", nil), domain.Actor{Name: "zed", Roles: []string{domain.RoleEditor}},
					domain.IssueToken{TokenID: "t1", Name: name, Hash: sha}))
			}
		}
		evidence := func(f func(c *domain.AddEvidence)) func(w *world) error {
			return func(w *world) error {
				c := domain.AddEvidence{Proposal: "p1", Claim: events.Text{En: "price cut"}, SourceURL: "https://acme.example/pricing",
					Excerpt: "now ¥5/h", ObservedOn: "2026-02-20"}
				f(&c)
				return errOnly(domain.DecideAddEvidence(w.prop("p1"), actor("alice"), c))
			}
		}
		t.Run(label, func(t *testing.T) {
			runValid(t, p1Draft(), []validCase{
				{"proposal title", open(func(c *domain.OpenProposal) { c.Title = spoof }), "title"},
				{"entry name", open(func(c *domain.OpenProposal) { c.NewEntry.Name = events.Text{En: spoof} }), "name.en"},
				{"entry name zh", open(func(c *domain.OpenProposal) { c.NewEntry.Name = events.Text{Zh: "新" + ch + "云"} }), "name.zh"},
				{"entry slug", open(func(c *domain.OpenProposal) { c.Entry = spoof }), "entry"},
				{"entry description is free text", open(func(c *domain.OpenProposal) { c.NewEntry.Description = events.Text{En: spoof} }), ""},
				{"proposal summary is free text", open(func(c *domain.OpenProposal) { c.Summary = spoof }), ""},
				{"claim is free text", evidence(func(c *domain.AddEvidence) { c.Claim = events.Text{En: spoof} }), ""},
				{"excerpt is free text", evidence(func(c *domain.AddEvidence) { c.Excerpt = spoof }), ""},
			})
			runValid(t, nil, []validCase{
				{"ranking title", define(func(d *events.RankingDefined) { d.Title.Zh = spoof }), "title.zh"},
				{"category name", define(func(d *events.RankingDefined) { d.Categories[0].Name.En = spoof }), "categories[0].name.en"},
				{"criterion name", define(func(d *events.RankingDefined) { d.Criteria[0].Name.En = spoof }), "criteria[0].name.en"},
				{"ranking description is free text", define(func(d *events.RankingDefined) { d.Description.En = spoof }), ""},
				{"display name", register(func(c *domain.RegisterUser) { c.DisplayName = spoof }), "display_name"},
				{"username", register(func(c *domain.RegisterUser) { c.Username = "zed" + ch }), "username"},
				{"token name", token(spoof), "name"},
			})
		})
	}
}
