// Package web serves Crossrank over HTTP: the editorial desk, the public
// site, the JSON API, sign-in and sessions, and the embedded static assets.
//
// Handlers are thin. A write decodes its input (a form or JSON), runs one
// domain command, waits for the read model to catch up and answers; a read
// queries a read model, builds a view model and renders a templ component.
//
// Every response passes through one middleware chain (see New): a request id
// and a CSP nonce, request logging, panic recovery, security headers, the
// cross-origin check for unsafe methods, a body limit and authentication.
// Errors become a status code in one place, statusOf, for HTML pages and for
// RFC 9457 problem+json alike.
package web
