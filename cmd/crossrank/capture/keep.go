package capture

import "context"

// Kept is what became of a fetched page: the key its record is stored
// under, whether this call stored it, and the quote check's answer.
type Kept struct {
	Key                 string
	Stored              bool
	Found, QuoteChecked bool
}

// Keep archives resp's record in a and checks excerpt against its body,
// as QuoteFound does. The check runs while the Object Store writes: it
// is the CPU's work, the store's mostly waiting for the disk, and each
// only reads the body. The worker keeps each page it fetches this way.
func Keep(ctx context.Context, a *Archive, resp *Response, excerpt string) (Kept, error) {
	type check struct{ found, checked bool }
	done := make(chan check, 1)
	go func() {
		found, checked := QuoteFound(resp.Body, resp.ContentType(), excerpt)
		done <- check{found, checked}
	}()
	rec := NewRecord(resp)
	key, stored, err := a.Put(ctx, &rec)
	c := <-done
	if err != nil {
		return Kept{}, err
	}
	return Kept{Key: key, Stored: stored, Found: c.found, QuoteChecked: c.checked}, nil
}
