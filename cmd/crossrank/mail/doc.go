// Package mail turns inbox items into e-mail. The inbox (the read models'
// inbox table, made from the event stream) stays the source of truth: a
// mail is a copy of an item, sent at once or in a daily digest as its user
// chose, retried with backoff until it goes out, its state kept where the
// user sees it.
//
// Where addresses live. A desk user is not an outsider, but an e-mail
// address is personal data that must be erasable, and the event log is
// never changed. So addresses, their pending confirmations, the users'
// choices and the digest marks live in a JetStream key-value bucket,
// CROSSRANK_MAIL, keyed by user ("account.<user>"), shared by every replica
// and kept across restarts, as readers' report contacts are (see
// jetstream.ContactsBucket). Erasing a user's address purges its key.
// The states of single mails live in CROSSRANK_MAIL_DELIVERIES, whose
// entries expire after DeliveryLifetime: they are a view of the sending,
// not a record.
//
// Three durable consumers, shared by the replicas:
//
//   - instant reads every event of CROSSRANK (from the moment the
//     consumer was first made), waits for the read models to apply it,
//     and mails each inbox row it made whose user chose "at once" for its
//     kind; a failed send is retried with backoff (the message is held
//     back, NakWithDelay) and only the mails not yet sent go again.
//   - the digest feed watches the accounts and keeps a one-shot message
//     schedule (Nats-Schedule, in CROSSRANK_SCHEDULES) at each digest
//     user's next digest moment, as scheduled editions do.
//   - the digest fire reads the fired schedules: it mails one digest of
//     the items since the last, then schedules the next. A fired message
//     is delivered to one replica at a time and acknowledged after the
//     mail went out, so a digest goes once across replicas and restarts.
//
// Mails are built and sent by github.com/wneessen/go-mail: plain text and
// HTML alternatives, in the user's language, with a link to the item and a
// one-click unsubscribe (RFC 8058).
package mail
