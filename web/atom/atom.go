// Package atom writes Atom feeds (RFC 4287): the public site's edition
// feeds and each user's private inbox feed.
package atom

import (
	"encoding/xml"
	"time"

	"github.com/crossrank/crossrank/web/i18n"
)

// Feed is an Atom feed document.
type Feed struct {
	XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
	Lang    string   `xml:"xml:lang,attr"`
	ID      string   `xml:"id"`
	Title   string   `xml:"title"`
	Updated string   `xml:"updated"`
	Links   []Link   `xml:"link"`
	Author  Person   `xml:"author"`
	Entries []Entry  `xml:"entry"`
}

// Link is an atom:link.
type Link struct {
	Rel  string `xml:"rel,attr"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

// Person is an atom:author.
type Person struct {
	Name string `xml:"name"`
}

// Text is a text construct (Type "text" or "html").
type Text struct {
	Type string `xml:"type,attr"`
	Body string `xml:",chardata"`
}

// Entry is an atom:entry.
type Entry struct {
	ID        string `xml:"id"`
	Title     string `xml:"title"`
	Updated   string `xml:"updated"`
	Published string `xml:"published"`
	Links     []Link `xml:"link"`
	Author    Person `xml:"author"`
	Summary   Text   `xml:"summary"`
}

// Marshal returns the feed as an XML document.
func (f Feed) Marshal() ([]byte, error) {
	b, err := xml.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(b, '\n')...), nil
}

// Time writes a stored RFC 3339 time as Atom wants it (seconds, UTC).
func Time(ts string) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return ts
	}
	return t.UTC().Format(time.RFC3339)
}

// Lang is the xml:lang of a catalog language.
func Lang(lang string) string {
	if lang == i18n.Zh {
		return "zh-Hans"
	}
	return "en"
}
