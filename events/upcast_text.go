package events

import (
	"encoding/json"
	"strings"
	"unicode"
)

// TextFrom reads a claim or rationale written as one string, before they
// became Text, as the language it is written in. A string "A / B" whose one
// side holds Han characters and whose other side holds none but has a Latin
// letter is the two languages side by side (the demo wrote its claims so):
// the Han side is Zh, the other En. Otherwise a string with a Han character
// is Zh and any other is En.
//
// Only a " / " that leaves every Han character on one side and some Latin
// letter on the other, with no Latin letter or digit right beside it on the
// Han side, can split: in "支持 TCP / UDP" the slash joins two Latin words
// within the Chinese. When more than one could ("中文 / — /
// English"), the string is ambiguous and stays whole in Zh rather than
// being cut at a guess. "TCP / UDP" has no Han side and never splits.
//
// TextFrom is pure: upcasters call it, and replay must read the same stored
// bytes the same way every time.
func TextFrom(s string) Text {
	if t, ok := splitLanguages(s); ok {
		return t
	}
	if hasHan(s) {
		return Text{Zh: s}
	}
	return Text{En: s}
}

// splitLanguages returns the two sides of s when exactly one " / " in it
// separates a Han side from a Latin one.
func splitLanguages(s string) (Text, bool) {
	const sep = " / "
	var found Text
	n := 0
	for i := strings.Index(s, sep); i >= 0; {
		left, right := strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+len(sep):])
		switch {
		case hasHan(left) && !hasHan(right) && hasLatin(right) && !latinOrDigit(lastRune(left)):
			found, n = Text{Zh: left, En: right}, n+1
		case hasHan(right) && !hasHan(left) && hasLatin(left) && !latinOrDigit([]rune(right)[0]):
			found, n = Text{Zh: right, En: left}, n+1
		}
		next := strings.Index(s[i+1:], sep)
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return found, n == 1
}

func hasHan(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0
}

func latinOrDigit(r rune) bool { return unicode.Is(unicode.Latin, r) || unicode.IsDigit(r) }

func lastRune(s string) rune { r := []rune(s); return r[len(r)-1] }

func hasLatin(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Latin, r) }) >= 0
}

// upcastTextField returns the upcaster of a version whose field key is a
// string into the next version, where it is Text (TextFrom). Every other
// field is kept as stored; an absent or null field is left for the decoder.
func upcastTextField(key string) Upcaster {
	return func(old json.RawMessage) (json.RawMessage, error) {
		var body map[string]json.RawMessage
		if err := json.Unmarshal(old, &body); err != nil {
			return nil, err
		}
		if err := textField(body, key); err != nil {
			return nil, err
		}
		return json.Marshal(body)
	}
}

// textField rewrites body[key] from a string to Text, if it is a string.
func textField(body map[string]json.RawMessage, key string) error {
	raw, ok := body[key]
	if !ok || string(raw) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return err
	}
	t, err := json.Marshal(TextFrom(s))
	if err != nil {
		return err
	}
	body[key] = t
	return nil
}

// upcastOpenedV2 is the upcaster of a proposal.opened.v2, whose carried
// methodology (Proposed) had a string rationale. An opened event without
// one keeps its body as stored, so that a history generator may still
// write it as the older version (Event.WrittenAs).
func upcastOpenedV2(old json.RawMessage) (json.RawMessage, error) {
	var body map[string]json.RawMessage
	if err := json.Unmarshal(old, &body); err != nil {
		return nil, err
	}
	raw, ok := body["proposed"]
	if !ok || string(raw) == "null" {
		return old, nil
	}
	proposed, err := upcastTextField("rationale")(raw)
	if err != nil {
		return nil, err
	}
	body["proposed"] = proposed
	return json.Marshal(body)
}
