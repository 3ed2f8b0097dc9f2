package handler

import (
	"sync"

	"github.com/crossrank/crossrank/domain"
)

// previewedKeep is how many previews' pins the handler remembers: the few
// a newsroom's publishers look at before publishing. A 10,000-proposal
// preview's pins are a quarter of a megabyte.
const previewedKeep = 16

// previewed remembers what the latest previews pinned, by hash, so that a
// publish refused because its preview no longer holds can name what
// changed (domain.PublishEdition.Previewed). Forgetting one costs only the
// name: the refusal is the same.
type previewed struct {
	mu    sync.Mutex
	pins  map[string]*domain.PreviewPins
	order []string // oldest first
}

// remember keeps pins under hash, forgetting the oldest beyond previewedKeep.
func (p *previewed) remember(hash string, pins domain.PreviewPins) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.pins[hash]; ok {
		return
	}
	if p.pins == nil {
		p.pins = map[string]*domain.PreviewPins{}
	}
	p.pins[hash] = &pins
	p.order = append(p.order, hash)
	if len(p.order) > previewedKeep {
		delete(p.pins, p.order[0])
		p.order = p.order[1:]
	}
}

// of returns the pins remembered under hash, or nil.
func (p *previewed) of(hash string) *domain.PreviewPins {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pins[hash]
}
