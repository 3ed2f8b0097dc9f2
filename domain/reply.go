package domain

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/crossrank/crossrank/events"
)

// A reply is a vendor's statement about one of its entries, optionally
// about one criterion's score: its right of reply. It is shown beside the
// entry as the vendor's own words and never moves a rank: no edition, no
// snapshot and no hash reads it. Each vendor holds one statement per entry
// and criterion; writing it again replaces the text. The editors may hide
// a statement, only with a public reason.

// MaxReplyText bounds each language's text of a statement, in runes.
const MaxReplyText = 4000

var (
	ErrReplyMissing = kindErr(ErrNotFound, "reply.missing")
	ErrReplyHidden  = kindErr(ErrState, "reply.hidden")
)

// Reply is a statement's state.
type Reply struct {
	ID        string
	Vendor    string // the vendor account that writes it
	Ranking   string
	Entry     string
	Criterion string // "": the whole entry
	TextEn    string
	TextZh    string
	Written   time.Time // the latest writing
	Hidden    bool
	Reason    string // hidden: the editors' public reason
	HiddenBy  string
	Seq       uint64
}

// Exists reports whether the statement has been written.
func (r *Reply) Exists() bool { return r != nil && r.ID != "" }

// Evolve applies one of the statement's events.
func (r *Reply) Evolve(e events.Event) {
	switch d := e.Data.(type) {
	case *events.ReplyWritten:
		if r.ID == "" {
			r.ID, r.Vendor = e.Subject, e.Actor
		}
		r.Ranking, r.Entry, r.Criterion, r.TextEn, r.TextZh, r.Written = d.Ranking, d.Entry, d.Criterion, d.TextEn, d.TextZh, e.Time
		r.Hidden, r.Reason, r.HiddenBy = false, "", "" // new words are shown until the editors hide them again
	case *events.ReplyHidden:
		r.Hidden, r.Reason, r.HiddenBy = true, d.Reason, e.Actor
	}
	r.Seq = e.Sequence
}

func (r *Reply) clone() *Reply {
	c := *r
	return &c
}

// ReplyAggregate returns the aggregate of a statement.
func ReplyAggregate(id string) events.Aggregate {
	return events.Aggregate{Kind: events.KindReply, ID: id}
}

// ReplyID names the statement of vendor about an entry (and criterion):
// the same vendor writing about the same thing again replaces its words.
func ReplyID(vendor, ranking, entry, criterion string) string {
	h := sha256.New()
	for _, s := range []string{vendor, ranking, entry, criterion} {
		h.Write([]byte(strconv.Itoa(len(s)) + ":" + s))
	}
	return "rl-" + hex.EncodeToString(h.Sum(nil))[:32]
}

// WriteReply is a vendor's statement, in either or both languages.
type WriteReply struct {
	CommandID string
	Ranking   string
	Entry     string
	Criterion string // optional
	TextEn    string
	TextZh    string
}

// CheckReplyText checks a statement's words: at least one language,
// each within MaxReplyText.
func CheckReplyText(c WriteReply) error {
	if err := checkText("text_en", c.TextEn, MaxReplyText, false); err != nil {
		return err
	}
	if err := checkText("text_zh", c.TextZh, MaxReplyText, false); err != nil {
		return err
	}
	if strings.TrimSpace(c.TextEn) == "" && strings.TrimSpace(c.TextZh) == "" {
		return invalid("text_en", "reply.text_required", nil)
	}
	return nil
}

// DecideWriteReply lets a vendor write (or rewrite) its statement about
// one of its own published entries. A vendor writing about another
// entry is refused before anything about that entry is told (403).
func DecideWriteReply(rep *Reply, r *Ranking, ed *Edition, a Actor, c WriteReply) ([]Change, error) {
	if err := a.require(RoleVendor); err != nil {
		return nil, err
	}
	if !a.Sees(c.Ranking, c.Entry) {
		return nil, ErrVendorScope
	}
	if !r.Exists() || ed == nil || ed.Number < 1 || ed.Entries[c.Entry] == nil {
		return nil, ErrNotPublic
	}
	if c.Criterion != "" && !r.HasCriterion(c.Criterion) {
		return nil, invalid("criterion", "ranking.not_criterion", nil)
	}
	if err := CheckReplyText(c); err != nil {
		return nil, err
	}
	id := ReplyID(a.Name, c.Ranking, c.Entry, c.Criterion)
	return one(ReplyAggregate(id), &events.ReplyWritten{Ranking: c.Ranking, Entry: c.Entry, Criterion: c.Criterion,
		TextEn: c.TextEn, TextZh: c.TextZh}), nil
}

// HideReply is the editors' hiding of a statement.
type HideReply struct {
	CommandID string
	Reply     string
	Reason    string
}

// DecideHideReply lets an editor hide a shown statement, only with a
// public reason: the page shows the reason where the words were.
func DecideHideReply(rep *Reply, a Actor, c HideReply) ([]Change, error) {
	if err := a.require(RoleEditor); err != nil {
		return nil, err
	}
	if !rep.Exists() {
		return nil, ErrReplyMissing
	}
	if rep.Hidden {
		return nil, ErrReplyHidden
	}
	if err := checkText("reason", c.Reason, MaxReasonText, true); err != nil {
		return nil, err
	}
	return one(ReplyAggregate(rep.ID), &events.ReplyHidden{Reason: c.Reason}), nil
}
