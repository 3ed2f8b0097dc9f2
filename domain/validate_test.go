package domain_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// Strings at and over the limits, counted in runes: a CJK rune is three
// bytes, so a byte count would refuse text a user can legitimately type.
var (
	cjk200  = strings.Repeat("界", domain.MaxTitle)
	cjk201  = strings.Repeat("界", domain.MaxTitle+1)
	long500 = strings.Repeat("é", domain.MaxShortText)
	long501 = strings.Repeat("é", domain.MaxShortText+1)
	long5k  = strings.Repeat("字", domain.MaxLongText)
	long5k1 = strings.Repeat("字", domain.MaxLongText+1)
	badUTF8 = "caf\xe9"
)

type validCase struct {
	name  string
	run   func(w *world) error
	field string // the FieldError's field; "" when the command is valid
}

func runValid(t *testing.T, history []given, tests []validCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run(newWorld(t, history))
			if tt.field == "" {
				if err != nil {
					t.Fatalf("valid input refused: %v", err)
				}
				return
			}
			if !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("error = %v, want one wrapping ErrInvalid", err)
			}
			var fe *domain.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *FieldError", err)
			}
			if fe.Field != tt.field {
				t.Errorf("field = %q, want %q (%v)", fe.Field, tt.field, err)
			}
		})
	}
}

func errOnly(_ []domain.Change, err error) error { return err }

func TestValidateEvidence(t *testing.T) {
	ok := domain.AddEvidence{Proposal: "p1", Claim: events.Text{En: "price cut"}, SourceURL: "https://acme.example/pricing",
		Excerpt: "now ¥5/h", ObservedOn: "2026-02-20"}
	add := func(f func(c *domain.AddEvidence)) func(w *world) error {
		return func(w *world) error {
			c := ok
			f(&c)
			return errOnly(domain.DecideAddEvidence(w.prop("p1"), actor("alice"), c))
		}
	}
	url := func(u string) func(w *world) error { return add(func(c *domain.AddEvidence) { c.SourceURL = u }) }
	runValid(t, p1Draft(), []validCase{
		{"valid", add(func(c *domain.AddEvidence) {}), ""},
		{"claim of 500 runes", add(func(c *domain.AddEvidence) { c.Claim = events.Text{En: long500} }), ""},
		{"claim of 501 runes", add(func(c *domain.AddEvidence) { c.Claim = events.Text{En: long501} }), "claim.en"},
		{"claim missing", add(func(c *domain.AddEvidence) { c.Claim = events.Text{En: ""} }), "claim"},
		{"claim of blanks", add(func(c *domain.AddEvidence) { c.Claim = events.Text{En: " \n\t "} }), "claim"},
		{"claim not UTF-8", add(func(c *domain.AddEvidence) { c.Claim = events.Text{En: badUTF8} }), "claim.en"},
		{"claim with NUL", add(func(c *domain.AddEvidence) { c.Claim = events.Text{En: "a\x00b"} }), "claim.en"},
		{"claim with BEL", add(func(c *domain.AddEvidence) { c.Claim = events.Text{En: "a\x07b"} }), "claim.en"},
		{"claim with ESC", add(func(c *domain.AddEvidence) { c.Claim = events.Text{En: "a\x1b[31mred"} }), "claim.en"},
		{"claim with DEL", add(func(c *domain.AddEvidence) { c.Claim = events.Text{En: "a\x7fb"} }), "claim.en"},
		{"claim with C1 control", add(func(c *domain.AddEvidence) { c.Claim = events.Text{En: "a\u0085b"} }), "claim.en"},
		{"claim with newline and tab", add(func(c *domain.AddEvidence) { c.Claim = events.Text{En: "line one\n\tline two\r\n"} }), ""},
		{"excerpt of 2000 runes", add(func(c *domain.AddEvidence) { c.Excerpt = strings.Repeat("文", domain.MaxExcerpt) }), ""},
		{"excerpt of 2001 runes", add(func(c *domain.AddEvidence) { c.Excerpt = strings.Repeat("文", domain.MaxExcerpt+1) }), "excerpt"},
		{"excerpt missing", add(func(c *domain.AddEvidence) { c.Excerpt = "" }), "excerpt"},
		{"section of 201 runes", add(func(c *domain.AddEvidence) { c.Section = cjk201 }), "section"},
		{"source name of 501 runes", add(func(c *domain.AddEvidence) { c.SourceName = long501 }), "source_name"},
		{"named document instead of a URL", add(func(c *domain.AddEvidence) { c.SourceURL, c.SourceName = "", "2025 annual report" }), ""},
		{"no source at all", add(func(c *domain.AddEvidence) { c.SourceURL, c.SourceName = "", " " }), "source_url"},

		{"http URL", url("http://acme.example/p?q=1#x"), ""},
		{"upper-case scheme", url("HTTPS://acme.example/"), ""},
		{"URL with port and IPv6 host", url("https://[2001:db8::1]:8443/p"), ""},
		{"javascript: URL", url("javascript:alert(1)"), "source_url"},
		{"JavaScript: URL, mixed case", url("JavaScript:alert(1)"), "source_url"},
		{"javascript: URL with slashes", url("javascript://acme.example/%0Aalert(1)"), "source_url"},
		{"data: URL", url("data:text/html;base64,PHNjcmlwdD4="), "source_url"},
		{"ftp URL", url("ftp://acme.example/file"), "source_url"},
		{"file URL", url("file:///etc/passwd"), "source_url"},
		{"relative path", url("/pricing"), "source_url"},
		{"relative name", url("pricing.html"), "source_url"},
		{"protocol-relative URL", url("//acme.example/pricing"), "source_url"},
		{"no host", url("https:///pricing"), "source_url"},
		{"opaque https", url("https:acme.example"), "source_url"},
		{"space in the path", url("https://acme.example/a b"), "source_url"},
		{"space in the host", url("https://acme .example/"), "source_url"},
		{"leading space", url(" https://acme.example/"), "source_url"},
		{"trailing space", url("https://acme.example/ "), "source_url"},
		{"tab", url("https://acme.example/\tx"), "source_url"},
		{"newline", url("https://acme.example/\nx"), "source_url"},
		{"quote", url(`https://acme.example/"onmouseover="x`), "source_url"},
		{"angle bracket", url("https://acme.example/<script>"), "source_url"},
		{"backslash", url(`https://acme.example\@evil.example/`), "source_url"},
		{"userinfo", url("https://user:pass@acme.example/"), "source_url"},
		{"user only", url("https://user@acme.example/"), "source_url"},
		{"empty userinfo", url("https://@acme.example/"), "source_url"},
		{"URL not UTF-8", url("https://acme.example/\xff"), "source_url"},
		{"URL of 2001 runes", url("https://acme.example/" + strings.Repeat("a", domain.MaxURL-20)), "source_url"},

		{"date not a date", add(func(c *domain.AddEvidence) { c.ObservedOn = "yesterday" }), "observed_on"},
		{"date with slashes", add(func(c *domain.AddEvidence) { c.ObservedOn = "2026/02/20" }), "observed_on"},
		{"date without padding", add(func(c *domain.AddEvidence) { c.ObservedOn = "2026-2-20" }), "observed_on"},
		{"February 30th", add(func(c *domain.AddEvidence) { c.ObservedOn = "2026-02-30" }), "observed_on"},
		{"month 13", add(func(c *domain.AddEvidence) { c.ObservedOn = "2026-13-01" }), "observed_on"},
		{"date and time", add(func(c *domain.AddEvidence) { c.ObservedOn = "2026-02-20T10:00:00Z" }), "observed_on"},
		{"date missing", add(func(c *domain.AddEvidence) { c.ObservedOn = "" }), "observed_on"},
		{"leap day", add(func(c *domain.AddEvidence) { c.ObservedOn = "2028-02-29" }), ""},
		{"validity of 3650 days", add(func(c *domain.AddEvidence) { c.ValidForDays = 3650 }), ""},
		{"validity of 3651 days", add(func(c *domain.AddEvidence) { c.ValidForDays = 3651 }), "valid_for_days"},
		{"negative validity", add(func(c *domain.AddEvidence) { c.ValidForDays = -1 }), "valid_for_days"},
	})
}

func TestValidateProposalCommands(t *testing.T) {
	open := func(f func(c *domain.OpenProposal)) func(w *world) error {
		return func(w *world) error {
			c := domain.OpenProposal{ID: "p2", Ranking: rk, Entry: "nova", Title: "Add Nova", NewEntry: newEntry()}
			f(&c)
			return errOnly(domain.DecideOpenProposal(w.ranking, w.entry(c.Entry), w.edition, w.prop(c.ID), actor("alice"), c))
		}
	}
	scoreTo := func(to int, rationale string) func(w *world) error {
		return func(w *world) error {
			return errOnly(domain.DecideProposeScore(w.ranking, w.edition, w.prop("p1"), actor("alice"),
				domain.ProposeScore{Criterion: "perf", To: to, Rationale: events.Text{En: rationale}, Evidence: []string{"e1"}}))
		}
	}
	tags := func(to ...string) func(w *world) error {
		return func(w *world) error {
			return errOnly(domain.DecideProposeAttribute(w.ranking, w.edition, w.prop("p1"), actor("alice"),
				domain.ProposeAttribute{Attribute: "region", To: to, Rationale: events.Text{En: "r"}, Evidence: []string{"e1"}}))
		}
	}
	many := make([]string, domain.MaxTags+1)
	for i := range many {
		many[i] = "t" + strings.Repeat("x", i)
	}
	runValid(t, p1Draft(), []validCase{
		{"title of 200 CJK runes", open(func(c *domain.OpenProposal) { c.Title = cjk200 }), ""},
		{"title of 201 CJK runes", open(func(c *domain.OpenProposal) { c.Title = cjk201 }), "title"},
		{"title not UTF-8", open(func(c *domain.OpenProposal) { c.Title = badUTF8 }), "title"},
		{"title with a control character", open(func(c *domain.OpenProposal) { c.Title = "a\x01" }), "title"},
		{"summary of 5000 runes", open(func(c *domain.OpenProposal) { c.Summary = long5k }), ""},
		{"summary of 5001 runes", open(func(c *domain.OpenProposal) { c.Summary = long5k1 }), "summary"},
		{"entry slug upper case", open(func(c *domain.OpenProposal) { c.Entry = "Nova" }), "entry"},
		{"entry slug with underscore", open(func(c *domain.OpenProposal) { c.Entry = "no_va" }), "entry"},
		{"entry slug starting with a hyphen", open(func(c *domain.OpenProposal) { c.Entry = "-nova" }), "entry"},
		{"entry slug of 60", open(func(c *domain.OpenProposal) { c.Entry = strings.Repeat("n", 60) }), ""},
		{"entry slug of 61", open(func(c *domain.OpenProposal) { c.Entry = strings.Repeat("n", 61) }), "entry"},
		{"entry slug not ASCII", open(func(c *domain.OpenProposal) { c.Entry = "növa" }), "entry"},
		{"entry name zh only", open(func(c *domain.OpenProposal) { c.NewEntry.Name = events.Text{Zh: "新云"} }), ""},
		{"entry name of 201 runes", open(func(c *domain.OpenProposal) { c.NewEntry.Name = events.Text{En: cjk201} }), "name.en"},
		{"entry name not UTF-8", open(func(c *domain.OpenProposal) { c.NewEntry.Name = events.Text{Zh: badUTF8, En: "Nova"} }), "name.zh"},
		{"entry name missing", open(func(c *domain.OpenProposal) { c.NewEntry.Name = events.Text{Zh: " ", En: ""} }), "name"},
		{"entry description of 5001", open(func(c *domain.OpenProposal) { c.NewEntry.Description = events.Text{En: long5k1} }), "description.en"},
		{"entry website data:", open(func(c *domain.OpenProposal) { c.NewEntry.Website = "data:,x" }), "website"},
		{"entry website relative", open(func(c *domain.OpenProposal) { c.NewEntry.Website = "nova.example" }), "website"},
		{"entry category unknown", open(func(c *domain.OpenProposal) { c.NewEntry.Category = "cafe" }), "category"},
		{"proposal id with upper case", open(func(c *domain.OpenProposal) { c.ID = "P2" }), "id"},

		{"score 0", scoreTo(0, "r"), ""},
		{"score 10", scoreTo(10, "r"), ""},
		{"score 11", scoreTo(11, "r"), "to"},
		{"score -1", scoreTo(-1, "r"), "to"},
		{"rationale missing", scoreTo(5, ""), "rationale"},
		{"rationale of 5001", scoreTo(5, long5k1), "rationale.en"},
		{"criterion unknown", func(w *world) error {
			return errOnly(domain.DecideProposeScore(w.ranking, w.edition, w.prop("p1"), actor("alice"),
				domain.ProposeScore{Criterion: "speed", To: 5, Rationale: events.Text{En: "r"}, Evidence: []string{"e1"}}))
		}, "criterion"},
		{"evidence cited twice", func(w *world) error {
			return errOnly(domain.DecideProposeScore(w.ranking, w.edition, w.prop("p1"), actor("alice"),
				domain.ProposeScore{Criterion: "perf", To: 5, Rationale: events.Text{En: "r"}, Evidence: []string{"e1", "e1"}}))
		}, "evidence"},

		{"tags", tags("cn-east", "eu-west"), ""},
		{"no tags: the attribute is removed", tags(), ""},
		{"tag upper case", tags("EU"), "to"},
		{"tag with a space", tags("eu west"), "to"},
		{"tag repeated", tags("eu", "eu"), "to"},
		{"tags over the limit", tags(many...), "to"},
		{"unknown tag of a closed list", func(w *world) error {
			return errOnly(domain.DecideProposeAttribute(w.ranking, w.edition, w.prop("p1"), actor("alice"),
				domain.ProposeAttribute{Attribute: "root", To: []string{"maybe"}, Rationale: events.Text{En: "r"}, Evidence: []string{"e1"}}))
		}, "to"},
	})
}

func TestValidateReviewCommands(t *testing.T) {
	vetoed := cat(p1InReview(), []given{voted("p1", "rosa", 1, reject)})
	runValid(t, vetoed, []validCase{
		{"approve with a comment of 5001", func(w *world) error {
			return errOnly(domain.DecideCastVote(w.ranking, w.edition, w.prop("p1"), actor("rita"),
				domain.CastVote{Revision: 1, Verdict: approve, Comment: long5k1}))
		}, "comment"},
		{"approve with a comment not UTF-8", func(w *world) error {
			return errOnly(domain.DecideCastVote(w.ranking, w.edition, w.prop("p1"), actor("rita"),
				domain.CastVote{Revision: 1, Verdict: approve, Comment: badUTF8}))
		}, "comment"},
		{"reject without a reason", func(w *world) error {
			return errOnly(domain.DecideCastVote(w.ranking, w.edition, w.prop("p1"), actor("rita"),
				domain.CastVote{Revision: 1, Verdict: reject}))
		}, "comment"},
		{"verdict in capitals", func(w *world) error {
			return errOnly(domain.DecideCastVote(w.ranking, w.edition, w.prop("p1"), actor("rita"),
				domain.CastVote{Revision: 1, Verdict: "APPROVE"}))
		}, "verdict"},
		{"dismissal without a reason", func(w *world) error {
			return errOnly(domain.DecideDismissVeto(w.ranking, w.edition, w.prop("p1"), actor("pat"),
				domain.DismissVeto{Proposal: "p1", Voter: "rosa", Reason: ""}))
		}, "reason"},
		{"dismissal reason with a control character", func(w *world) error {
			return errOnly(domain.DecideDismissVeto(w.ranking, w.edition, w.prop("p1"), actor("pat"),
				domain.DismissVeto{Proposal: "p1", Voter: "rosa", Reason: "a\x00"}))
		}, "reason"},
		{"rejection without a reason", func(w *world) error {
			return errOnly(domain.DecideReject(w.prop("p1"), actor("pat"), " "))
		}, "reason"},
		{"withdrawal reason of 5001", func(w *world) error {
			return errOnly(domain.DecideWithdraw(w.prop("p1"), actor("alice"), long5k1))
		}, "reason"},
		{"revision note of 5001", func(w *world) error {
			return errOnly(domain.DecideRevise(w.edition, w.prop("p1"), actor("alice"), long5k1))
		}, "note"},
		{"revision note not UTF-8", func(w *world) error {
			return errOnly(domain.DecideRevise(w.edition, w.prop("p1"), actor("alice"), badUTF8))
		}, "note"},
	})
	publish := func(f func(c *domain.PublishEdition)) func(w *world) error {
		return func(w *world) error {
			chosen := []*domain.Proposal{w.prop("p1")}
			pv, err := domain.Preview(w.ranking, w.edition, chosen, nil)
			if err != nil {
				return err
			}
			c := domain.PublishEdition{Ranking: rk, Proposals: []string{"p1"}, PreviewHash: pv.Hash, AuditHead: sha, AuditSeq: 9}
			f(&c)
			return errOnly(domain.DecidePublish(w.ranking, w.edition, chosen, nil, nil, actor("pat"), c))
		}
	}
	runValid(t, p1Validated(), []validCase{
		{"publish", publish(func(c *domain.PublishEdition) {}), ""},
		{"publish note of 5001", publish(func(c *domain.PublishEdition) { c.Note = long5k1 }), "note"},
		{"audit head not hex", publish(func(c *domain.PublishEdition) { c.AuditHead = strings.Repeat("z", 64) }), "audit_head"},
		{"audit head upper-case hex", publish(func(c *domain.PublishEdition) { c.AuditHead = strings.ToUpper(sha) }), "audit_head"},
		{"audit head too short", publish(func(c *domain.PublishEdition) { c.AuditHead = sha[:63] }), "audit_head"},
	})
}

func TestValidateRanking(t *testing.T) {
	define := func(f func(d *events.Methodology)) func(w *world) error {
		return func(w *world) error {
			d := methodologyOf(rankingDefinition(), events.ScenariosSet{})
			f(&d)
			return domain.ValidateMethodology(d)
		}
	}
	runValid(t, nil, []validCase{
		{"valid", define(func(d *events.Methodology) {}), ""},
		{"title missing", define(func(d *events.Methodology) { d.Title = events.Text{} }), "title"},
		{"title of 201", define(func(d *events.Methodology) { d.Title.Zh = cjk201 }), "title.zh"},
		{"description not UTF-8", define(func(d *events.Methodology) { d.Description.En = badUTF8 }), "description.en"},
		{"no categories", define(func(d *events.Methodology) { d.Categories = nil }), "categories"},
		{"no criteria", define(func(d *events.Methodology) { d.Criteria = nil }), "criteria"},
		{"category slug repeated", define(func(d *events.Methodology) { d.Categories[1].Slug = "cloud" }), "categories[1].slug"},
		{"category without a name", define(func(d *events.Methodology) { d.Categories[0].Name = events.Text{} }), "categories[0].name"},
		{"category description of 5001", define(func(d *events.Methodology) { d.Categories[0].Description.En = long5k1 }),
			"categories[0].description.en"},
		{"category description with a control character", define(func(d *events.Methodology) { d.Categories[0].Description.Zh = "\x1b" }),
			"categories[0].description.zh"},
		{"criterion slug repeated", define(func(d *events.Methodology) { d.Criteria[1].Slug = "price" }), "criteria[1].slug"},
		{"criterion slug bad", define(func(d *events.Methodology) { d.Criteria[1].Slug = "per f" }), "criteria[1].slug"},
		{"criterion description not UTF-8", define(func(d *events.Methodology) { d.Criteria[0].Description.En = badUTF8 }),
			"criteria[0].description.en"},
		{"weights sum to 99", define(func(d *events.Methodology) { d.Criteria[0].Weight = 39 }), "criteria"},
		{"weights sum to 101", define(func(d *events.Methodology) { d.Criteria[0].Weight = 41 }), "criteria"},
		{"negative weight", define(func(d *events.Methodology) { d.Criteria[0].Weight, d.Criteria[1].Weight = -10, 85 }), "criteria[0].weight"},
		{"a weight of 0", define(func(d *events.Methodology) { d.Criteria[0].Weight, d.Criteria[1].Weight = 0, 75 }), ""},
		{"one criterion of 100", define(func(d *events.Methodology) {
			d.Criteria = []events.Criterion{{Slug: "all", Name: events.Text{En: "All"}, Weight: 100}}
		}), ""},
		{"attribute key bad", define(func(d *events.Methodology) { d.Attributes[0].Key = "Root" }), "attributes[0].key"},
		{"attribute value bad", define(func(d *events.Methodology) { d.Attributes[0].Values[0].Value = "Yes!" }), "attributes[0].values[0].value"},
		{"attribute value repeated", define(func(d *events.Methodology) { d.Attributes[0].Values[1].Value = "yes" }), "attributes[0].values[1].value"},
		{"attribute value label of 201", define(func(d *events.Methodology) { d.Attributes[0].Values[0].Label.En = cjk201 }),
			"attributes[0].values[0].label.en"},
		{"quorum of 0", define(func(d *events.Methodology) { d.Quorum.MinApprovals = 0 }), "quorum.min_approvals"},
		{"quorum of 11", define(func(d *events.Methodology) { d.Quorum.MinApprovals = 11 }), "quorum.min_approvals"},
		{"quorum below the floor", define(func(d *events.Methodology) { d.Quorum.MinApprovals = 1 }), "quorum.min_approvals"},
		{"evidence verification off", define(func(d *events.Methodology) { d.Quorum.RequireEvidenceVerified = false }), "quorum.require_evidence_verified"},
	})
}

func scenarios() events.ScenariosSet {
	return events.ScenariosSet{
		Scenarios: []events.Scenario{{Slug: "training", Name: events.Text{En: "Training"},
			Weights: map[string]int{"price": 20, "perf": 70, "support": 10}}},
		Filters: []events.Filter{{Key: "root-access", Question: events.Text{En: "Do you need root?"},
			Options: []events.FilterOption{
				{Value: "yes", Label: events.Text{En: "Yes"},
					Requires: []events.Requirement{{Attribute: "root", AnyOf: []string{"yes"}, Reason: events.Text{En: "no root access"}}}},
				{Value: "no", Label: events.Text{En: "No"}},
			}}},
	}
}

func TestValidateScenarios(t *testing.T) {
	set := func(f func(s *events.ScenariosSet)) func(w *world) error {
		return func(w *world) error {
			s := scenarios()
			f(&s)
			return domain.ValidateMethodology(methodologyOf(rankingDefinition(), s))
		}
	}
	runValid(t, nil, []validCase{
		{"valid", set(func(s *events.ScenariosSet) {}), ""},
		{"none", set(func(s *events.ScenariosSet) { *s = events.ScenariosSet{} }), ""},
		{"scenario slug bad", set(func(s *events.ScenariosSet) { s.Scenarios[0].Slug = "Training" }), "scenarios[0].slug"},
		{"scenario slug repeated", set(func(s *events.ScenariosSet) { s.Scenarios = append(s.Scenarios, s.Scenarios[0]) }), "scenarios[1].slug"},
		{"scenario without a name", set(func(s *events.ScenariosSet) { s.Scenarios[0].Name = events.Text{} }), "scenarios[0].name"},
		{"scenario description of 5001", set(func(s *events.ScenariosSet) { s.Scenarios[0].Description.Zh = long5k1 }),
			"scenarios[0].description.zh"},
		{"scenario weights summing to 99", set(func(s *events.ScenariosSet) { s.Scenarios[0].Weights["perf"] = 69 }), "scenarios[0].weights"},
		{"scenario weights of an unknown criterion", set(func(s *events.ScenariosSet) { s.Scenarios[0].Weights["speed"] = 0 }),
			"scenarios[0].weights"},
		{"filter key bad", set(func(s *events.ScenariosSet) { s.Filters[0].Key = "root access" }), "filters[0].key"},
		{"filter without a question", set(func(s *events.ScenariosSet) { s.Filters[0].Question = events.Text{} }), "filters[0].question"},
		{"option value bad", set(func(s *events.ScenariosSet) { s.Filters[0].Options[0].Value = "Yes" }), "filters[0].options[0].value"},
		{"option value repeated", set(func(s *events.ScenariosSet) { s.Filters[0].Options[1].Value = "yes" }), "filters[0].options[1].value"},
		{"option label not UTF-8", set(func(s *events.ScenariosSet) { s.Filters[0].Options[0].Label.En = badUTF8 }),
			"filters[0].options[0].label.en"},
		{"requirement on an unknown attribute", set(func(s *events.ScenariosSet) { s.Filters[0].Options[0].Requires[0].Attribute = "gpu" }),
			"filters[0].options[0].requires[0].attribute"},
		{"requirement value bad", set(func(s *events.ScenariosSet) { s.Filters[0].Options[0].Requires[0].AnyOf = []string{"Y E S"} }),
			"filters[0].options[0].requires[0].any_of"},
		{"requirement reason with a control character", set(func(s *events.ScenariosSet) {
			s.Filters[0].Options[0].Requires[0].Reason.En = "no\x00root"
		}), "filters[0].options[0].requires[0].reason.en"},
	})
}

// methodologyOf joins a definition and scenarios into one methodology.
func methodologyOf(d events.RankingDefined, s events.ScenariosSet) events.Methodology {
	return events.Methodology{Title: d.Title, Description: d.Description, Categories: d.Categories,
		Criteria: d.Criteria, Attributes: d.Attributes, Scenarios: s.Scenarios, Filters: s.Filters, Quorum: d.Quorum}
}

func TestValidateUsers(t *testing.T) {
	register := func(f func(c *domain.RegisterUser)) func(w *world) error {
		return func(w *world) error {
			c := domain.RegisterUser{Username: "zed", DisplayName: "Zed", PasswordHash: "$argon2id$v=19$m=65536,t=3,p=4$x$y",
				Roles: []string{domain.RoleEditor}}
			f(&c)
			return errOnly(domain.DecideRegisterUser(&domain.User{}, domain.System(), c))
		}
	}
	token := func(f func(c *domain.IssueToken)) func(w *world) error {
		return func(w *world) error {
			c := domain.IssueToken{TokenID: "t1", Name: "laptop", Hash: sha}
			f(&c)
			return errOnly(domain.DecideIssueToken(userState(w.t, "zed", nil), domain.Actor{Name: "zed"}, c))
		}
	}
	runValid(t, nil, []validCase{
		{"valid", register(func(c *domain.RegisterUser) {}), ""},
		{"display name of 201", register(func(c *domain.RegisterUser) { c.DisplayName = cjk201 }), "display_name"},
		{"display name not UTF-8", register(func(c *domain.RegisterUser) { c.DisplayName = badUTF8 }), "display_name"},
		{"password in clear", register(func(c *domain.RegisterUser) { c.PasswordHash = "hunter2" }), "password"},
		{"bcrypt password", register(func(c *domain.RegisterUser) { c.PasswordHash = "$2a$10$abc" }), "password"},
		{"unknown role", register(func(c *domain.RegisterUser) { c.Roles = []string{"owner"} }), "roles"},
		{"username reserved", register(func(c *domain.RegisterUser) { c.Username = domain.SystemActor }), "username"},
		{"password change in clear", func(w *world) error {
			return errOnly(domain.DecideChangePassword(userState(w.t, "zed", nil), domain.System(), "hunter2"))
		}, "password"},
		{"grant an unknown role", func(w *world) error {
			return errOnly(domain.DecideGrantRole(userState(w.t, "zed", nil), actor("ada"), "owner"))
		}, "role"},
		{"token", token(func(c *domain.IssueToken) {}), ""},
		{"token id bad", token(func(c *domain.IssueToken) { c.TokenID = "T 1" }), "token"},
		{"token without a name", token(func(c *domain.IssueToken) { c.Name = "" }), "name"},
		{"token hash not SHA-256", token(func(c *domain.IssueToken) { c.Hash = "secret" }), "hash"},
	})
}

func TestCheckUsername(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"ab", true}, {"alice", true}, {"a1_b-c", true}, {"a" + strings.Repeat("b", 31), true},
		{"", false}, {"a", false}, {"a" + strings.Repeat("b", 32), false}, {"1alice", false}, {"_alice", false},
		{"Alice", false}, {"al ice", false}, {"al.ice", false}, {"alice@x", false}, {"ålice", false},
		{"system", false}, {"alice\n", false},
	}
	for _, tt := range tests {
		err := domain.CheckUsername(tt.name)
		if got := err == nil; got != tt.ok {
			t.Errorf("CheckUsername(%q) = %v, want ok %v", tt.name, err, tt.ok)
		}
		var fe *domain.FieldError
		if err != nil && (!errors.Is(err, domain.ErrInvalid) || !errors.As(err, &fe) || fe.Field != "username") {
			t.Errorf("CheckUsername(%q) = %v, want a username FieldError", tt.name, err)
		}
	}
}

func TestCheckSlug(t *testing.T) {
	tests := []struct {
		slug string
		ok   bool
	}{
		{"a", true}, {"0", true}, {"gpu-cloud", true}, {"autodl", true}, {"a-", true}, {strings.Repeat("a", 60), true},
		{"", false}, {"-a", false}, {"A", false}, {"a_b", false}, {"a b", false}, {"a.b", false}, {"é", false},
		{strings.Repeat("a", 61), false}, {"a\x00", false},
	}
	for _, tt := range tests {
		err := domain.CheckSlug("slug", tt.slug)
		if got := err == nil; got != tt.ok {
			t.Errorf("CheckSlug(%q) = %v, want ok %v", tt.slug, err, tt.ok)
		}
		if err != nil && !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("CheckSlug(%q) = %v, want ErrInvalid", tt.slug, err)
		}
	}
}
