package handler_test

import (
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// The handler's tests act as the users, on the ranking, of the domain's
// decision tables (domain/helpers_test.go); these are copies of the few
// they share.

var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

const rk = "gpu" // the ranking every test works on

const (
	approve = events.Approve
	reject  = events.Reject
)

// actors holds every user the tables act as, by name.
var actors = map[string]domain.Actor{
	"alice":  {Name: "alice", Roles: []string{domain.RoleEditor}},                       // the usual author
	"bob":    {Name: "bob", Roles: []string{domain.RoleEditor}},                         // another editor
	"eve":    {Name: "eve", Roles: []string{domain.RoleEditor, domain.RoleReviewer}},    // author who also reviews
	"rex":    {Name: "rex", Roles: []string{domain.RoleEditor, domain.RoleReviewer}},    // reviewer who revises
	"rita":   {Name: "rita", Roles: []string{domain.RoleReviewer}},                      // reviewers
	"ravi":   {Name: "ravi", Roles: []string{domain.RoleReviewer}},                      //
	"rosa":   {Name: "rosa", Roles: []string{domain.RoleReviewer}},                      //
	"pat":    {Name: "pat", Roles: []string{domain.RolePublisher}},                      // the publisher
	"paula":  {Name: "paula", Roles: []string{domain.RoleEditor, domain.RolePublisher}}, // publisher who also writes
	"ada":    {Name: "ada", Roles: []string{domain.RoleAdmin}},                          // administers users, nothing else
	"nobody": {Name: "nobody"},
}

func actor(name string) domain.Actor {
	a, ok := actors[name]
	if !ok {
		panic("unknown test actor " + name)
	}
	return a
}

func rankingDefinition() events.RankingDefined {
	return events.RankingDefined{
		Slug:  rk,
		Title: events.Text{Zh: "GPU 云租用平台", En: "GPU cloud rental"},
		Categories: []events.Category{
			{Slug: "cloud", Name: events.Text{Zh: "公有云", En: "Public cloud"}},
			{Slug: "market", Name: events.Text{Zh: "算力市场", En: "Marketplace"}},
		},
		Criteria: []events.Criterion{
			{Slug: "price", Name: events.Text{En: "Price"}, Weight: 40},
			{Slug: "perf", Name: events.Text{En: "Performance"}, Weight: 35},
			{Slug: "support", Name: events.Text{En: "Support"}, Weight: 25},
		},
		Attributes: []events.AttributeDef{
			{Key: "root", Name: events.Text{En: "Root access"}, Values: []events.AttributeValue{
				{Value: "yes", Label: events.Text{En: "Yes"}}, {Value: "no", Label: events.Text{En: "No"}}}},
			{Key: "region", Name: events.Text{En: "Data location"}},
		},
		Quorum: domain.DefaultQuorum,
	}
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

// methodologyOf joins a definition and scenarios into one methodology.
func methodologyOf(d events.RankingDefined, s events.ScenariosSet) events.Methodology {
	return events.Methodology{Title: d.Title, Description: d.Description, Categories: d.Categories,
		Criteria: d.Criteria, Attributes: d.Attributes, Scenarios: s.Scenarios, Filters: s.Filters, Quorum: d.Quorum}
}

func newEntry() *domain.NewEntry {
	return &domain.NewEntry{Name: events.Text{Zh: "新云", En: "Nova"}, Category: "market", Website: "https://nova.example"}
}
