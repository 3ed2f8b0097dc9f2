package domain_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// acmeco is the vendor of acme: its account sees acme only.
var acmeco = domain.Actor{Name: "acmeco", Roles: []string{domain.RoleVendor}, Entries: []string{rk + "/acme"}}

func TestVendorAccountRules(t *testing.T) {
	hash := strings.Repeat("a", 64)
	invite := func(roles, entries []string) ([]domain.Change, error) {
		return domain.DecideInviteUser(&domain.User{}, actor("ada"), domain.InviteUser{Username: "acmeco",
			Roles: roles, Entries: entries, LinkHash: hash}, time.Now())
	}
	got, err := invite([]string{domain.RoleVendor}, []string{"gpu/acme", "gpu/acme", "a/b"})
	if err != nil || len(got) != 2 {
		t.Fatalf("invite a vendor: %v, %v; want the invitation and its scope", show(got), err)
	}
	if set, ok := got[1].Data.(*events.VendorEntriesSet); !ok || strings.Join(set.Entries, ",") != "a/b,gpu/acme" {
		t.Fatalf("scope %#v, want a/b,gpu/acme sorted without repeats", got[1].Data)
	}
	for _, tc := range []struct {
		name           string
		roles, entries []string
		code           string
	}{
		{"no entries", []string{domain.RoleVendor}, nil, "vendor.entries_required"},
		{"with another role", []string{domain.RoleVendor, domain.RoleEditor}, []string{"gpu/acme"}, "vendor.alone"},
		{"entries for an editor", []string{domain.RoleEditor}, []string{"gpu/acme"}, "vendor.entries_not_vendor"},
		{"bad entry", []string{domain.RoleVendor}, []string{"gpu"}, "vendor.bad_entry"},
		{"bad slug", []string{domain.RoleVendor}, []string{"gpu/Acme"}, "vendor.bad_entry"},
	} {
		if _, err := invite(tc.roles, tc.entries); codeOf(err) != tc.code {
			t.Errorf("%s: got %v, want %s", tc.name, err, tc.code)
		}
	}
	ed := &domain.User{Username: "ed", Roles: []string{domain.RoleEditor}}
	if _, err := domain.DecideGrantRole(ed, actor("ada"), domain.RoleVendor); codeOf(err) != "vendor.alone" {
		t.Errorf("grant vendor to an editor: %v", err)
	}
	v := &domain.User{Username: "acmeco", Roles: []string{domain.RoleVendor}}
	if _, err := domain.DecideGrantRole(v, actor("ada"), domain.RoleReviewer); codeOf(err) != "vendor.alone" {
		t.Errorf("grant reviewer to a vendor: %v", err)
	}
	if s := domain.System(); s.Vendor() {
		t.Error("the command line is fenced as a vendor")
	}
}

func TestVendorProposals(t *testing.T) {
	open := func(w *world, entry string, mod func(*domain.OpenProposal)) ([]domain.Change, error) {
		c := domain.OpenProposal{ID: "pv", Ranking: rk, Entry: entry, Title: "Our new prices"}
		if mod != nil {
			mod(&c)
		}
		return domain.DecideOpenProposal(w.ranking, w.entry(entry), w.edition, w.prop("pv"), acmeco, c)
	}
	w := newWorld(t, defined())
	if _, err := open(w, "bolt", nil); !errors.Is(err, domain.ErrVendorScope) {
		t.Errorf("open on another entry: %v, want %v", err, domain.ErrVendorScope)
	}
	if _, err := open(w, "newco", func(c *domain.OpenProposal) {
		c.Entry, c.NewEntry = "acme", &domain.NewEntry{Name: events.Text{En: "X"}, Category: "cloud"}
	}); !errors.Is(err, domain.ErrVendorScope) {
		t.Errorf("open a new entry: %v", err)
	}
	if _, err := open(w, "", func(c *domain.OpenProposal) { c.Methodology = true }); !errors.Is(err, domain.ErrVendorScope) {
		t.Errorf("open a methodology proposal: %v", err)
	}
	got, err := open(w, "acme", nil)
	if err != nil {
		t.Fatalf("open on its own entry: %v", err)
	}
	w.applyChanges("acmeco", got)

	add := func(tier domain.Tier) ([]domain.Change, error) {
		return domain.DecideAddEvidence(w.prop("pv"), acmeco, domain.AddEvidence{Proposal: "pv", Claim: events.Text{En: "price list"},
			SourceURL: "https://acme.example/prices", Excerpt: "A100 ¥20/h", ObservedOn: "2026-11-30", Tier: tier})
	}
	if _, err := add(domain.TierOwn); codeOf(err) != "vendor.tier" {
		t.Errorf("vendor evidence as tier own: %v", err)
	}
	for _, tier := range []domain.Tier{"", domain.TierVendor} {
		got, err := add(tier)
		if err != nil {
			t.Fatal(err)
		}
		if ev := got[0].Data.(*events.EvidenceAdded); ev.Tier != string(domain.TierVendor) {
			t.Errorf("tier %q stored as %q, want vendor", tier, ev.Tier)
		}
	}

	// An editor's proposal on acme: the vendor may not revise or edit it.
	w = newWorld(t, p1InReview())
	if _, err := domain.DecideRevise(w.edition, w.prop("p1"), acmeco, ""); !errors.Is(err, domain.ErrNotAuthor) {
		t.Errorf("vendor revises an editor's proposal: %v", err)
	}
	if _, err := domain.DecideCastVote(w.ranking, w.edition, w.prop("p1"), acmeco,
		domain.CastVote{Proposal: "p1", Revision: 1, Verdict: events.Approve}); !errors.Is(err, domain.ErrRoleRequired) {
		t.Errorf("vendor votes: %v", err)
	}
	if acts := w.prop("p1").Allowed(acmeco, w.edition); acts != (domain.Actions{}) {
		t.Errorf("vendor may %+v on an editor's proposal", acts)
	}
}

func TestVendorReplies(t *testing.T) {
	w := newWorld(t, defined())
	write := func(a domain.Actor, c domain.WriteReply) ([]domain.Change, error) {
		return domain.DecideWriteReply(&domain.Reply{}, w.ranking, w.edition, a, c)
	}
	good := domain.WriteReply{Ranking: rk, Entry: "acme", Criterion: "price", TextEn: "Prices fell.", TextZh: "已降价。"}
	got, err := write(acmeco, good)
	if err != nil || len(got) != 1 {
		t.Fatalf("write: %v, %v", show(got), err)
	}
	if id := got[0].Aggregate.ID; id != domain.ReplyID("acmeco", rk, "acme", "price") {
		t.Errorf("statement id %s, want one per vendor, entry and criterion", id)
	}
	with := func(f func(*domain.WriteReply)) domain.WriteReply { c := good; f(&c); return c }
	for _, tc := range []struct {
		name string
		a    domain.Actor
		c    domain.WriteReply
		code string
	}{
		{"another entry", acmeco, with(func(c *domain.WriteReply) { c.Entry = "bolt" }), "vendor.scope"},
		{"an editor", actor("alice"), good, "user.role_required"},
		{"empty", acmeco, with(func(c *domain.WriteReply) { c.TextEn, c.TextZh = " ", "" }), "reply.text_required"},
		{"one language", acmeco, with(func(c *domain.WriteReply) { c.TextEn = "" }), ""},
		{"too long", acmeco, with(func(c *domain.WriteReply) { c.TextZh = strings.Repeat("价", domain.MaxReplyText+1) }), "field.too_long"},
		{"not UTF-8", acmeco, with(func(c *domain.WriteReply) { c.TextEn = "\xff" }), "field.not_utf8"},
		{"unknown criterion", acmeco, with(func(c *domain.WriteReply) { c.Criterion = "speed" }), "ranking.not_criterion"},
	} {
		if _, err := write(tc.a, tc.c); codeOf(err) != tc.code {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.code)
		}
	}
	if _, err := write(acmeco, with(func(c *domain.WriteReply) { c.TextEn = "" })); err != nil {
		t.Fatal(err)
	}
	var fe *domain.FieldError
	if _, err := write(acmeco, with(func(c *domain.WriteReply) { c.TextEn, c.TextZh = "", "" })); !errors.As(err, &fe) || fe.Field != "text_en" {
		t.Errorf("empty statement names field %v, want text_en", err)
	}

	rep := &domain.Reply{}
	rep.Evolve(events.Event{Subject: "rl-1", Actor: "acmeco", Time: time.Now(), Data: got[0].Data})
	if _, err := domain.DecideHideReply(rep, acmeco, domain.HideReply{Reply: "rl-1", Reason: "x"}); !errors.Is(err, domain.ErrRoleRequired) {
		t.Errorf("vendor hides: %v", err)
	}
	if _, err := domain.DecideHideReply(rep, actor("alice"), domain.HideReply{Reply: "rl-1"}); codeOf(err) != "field.required" {
		t.Errorf("hide without a reason: %v", err)
	}
	hid, err := domain.DecideHideReply(rep, actor("alice"), domain.HideReply{Reply: "rl-1", Reason: "names a person"})
	if err != nil {
		t.Fatal(err)
	}
	rep.Evolve(events.Event{Subject: "rl-1", Actor: "alice", Data: hid[0].Data})
	if !rep.Hidden || rep.Reason != "names a person" || rep.Vendor != "acmeco" {
		t.Errorf("hidden statement %+v", rep)
	}
	if _, err := domain.DecideHideReply(rep, actor("alice"), domain.HideReply{Reply: "rl-1", Reason: "again"}); !errors.Is(err, domain.ErrReplyHidden) {
		t.Errorf("hide twice: %v", err)
	}
}
