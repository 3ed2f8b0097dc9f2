// Package handler carries out the commands of package domain against an
// events.Store: it loads the aggregates a command writes and reads (from a
// bounded cache, and for rankings and editions from a follower of the
// stream), hands their states to the pure Decide function and appends what
// it returns, deciding again when another writer got there first.
//
// Each command method is one use case, in a file of its own named after
// it: it names the aggregates the command writes and reads and hands the
// loaded states to the decision. Every command carries its CommandID, the
// caller's idempotency key (the form or request carries it): running a
// command again with the same CommandID returns the first result and
// appends nothing.
package handler
