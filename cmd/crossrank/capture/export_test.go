package capture

import "context"

// SetHooks sets the worker's test hooks: afterFetch runs once the page is
// fetched and archived, afterRecord once its result is stored; each runs
// before the message is acknowledged, and a worker whose context ended in
// one stops there as a crashed one would.
func SetHooks(c *WorkerConfig, afterFetch, afterRecord func(ctx context.Context)) {
	c.afterFetch, c.afterRecord = afterFetch, afterRecord
}
