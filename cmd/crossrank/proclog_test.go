package main

import (
	"bytes"
	"strings"
	"sync"
)

// procLog collects a child's output and spots the address it serves on.
type procLog struct {
	mu        sync.Mutex
	buf       bytes.Buffer
	url       chan string
	found     bool
	listening chan string // the address, as soon as the site listens
	heard     bool
}

func newProcLog() *procLog {
	return &procLog{url: make(chan string, 1), listening: make(chan string, 1)}
}

const (
	servingBanner = "Crossrank is running: "
	listenLine    = `msg="crossrank listening" url=`
)

func (l *procLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(b)
	if !l.heard {
		s := l.buf.String()
		if i := strings.Index(s, listenLine); i >= 0 {
			rest := s[i+len(listenLine):]
			if j := strings.IndexByte(rest, '\n'); j >= 0 {
				l.heard = true
				l.listening <- strings.TrimSpace(rest[:j])
			}
		}
	}
	if !l.found {
		s := l.buf.String()
		if i := strings.Index(s, servingBanner); i >= 0 {
			rest := s[i+len(servingBanner):]
			if j := strings.IndexByte(rest, '\n'); j >= 0 {
				l.found = true
				l.url <- strings.TrimSpace(rest[:j])
			}
		}
	}
	return len(b), nil
}

// tail returns the last n lines.
func (l *procLog) tail(n int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := strings.Split(strings.TrimRight(l.buf.String(), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// contains reports whether the log holds s.
func (l *procLog) contains(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Contains(l.buf.String(), s)
}
