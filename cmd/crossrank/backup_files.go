package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The files of backup and restore: every one private, and their progress
// shown while they are copied.

// refuseNonEmpty refuses a folder that exists and holds anything.
func refuseNonEmpty(dir, what string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		names := make([]string, 0, 3)
		for _, e := range entries[:min(3, len(entries))] {
			names = append(names, e.Name())
		}
		return exitError{1, fmt.Errorf("will not %s %s: it is not empty (it holds %s); name a new or empty folder. Nothing was changed",
			what, dir, strings.Join(names, ", "))}
	}
	return nil
}

// writePrivate writes a file only its owner can read.
func writePrivate(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// makePrivate makes dir and everything in it the owner's alone: folders
// 0700, files 0600.
func makePrivate(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o600)
		if d.IsDir() {
			mode = 0o700
		}
		return os.Chmod(path, mode)
	})
}

// folderSize adds up the sizes of the files under dir.
func folderSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			n += info.Size()
		}
		return err
	})
	return n, err
}

// progressLine reports one stream's copy: on a terminal a line rewritten in
// place, elsewhere (a log, a pipe, a server's client) a line every few
// seconds of a long copy, and always a last line with what was copied.
type progressLine struct {
	w        io.Writer
	name     string
	terminal bool
	mu       sync.Mutex
	last     time.Time
	start    time.Time
	shown    bool
}

func newProgress(w io.Writer, name string) *progressLine {
	now := time.Now()
	return &progressLine{w: w, name: name, terminal: isTerminal(w), start: now, last: now}
}

func (p *progressLine) update(done, total uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	every := 5 * time.Second
	if p.terminal {
		every = 200 * time.Millisecond
	}
	if time.Since(p.last) < every {
		return
	}
	p.last = time.Now()
	s := fmt.Sprintf("%s: %s", p.name, formatBytes(int64(done)))
	if total > 0 {
		s += fmt.Sprintf(" of about %s (%.0f%%)", formatBytes(int64(total)), 100*min(1, float64(done)/float64(total)))
	}
	if p.terminal {
		fmt.Fprintf(p.w, "\r\033[K%s", s)
		p.shown = true
	} else {
		fmt.Fprintln(p.w, s)
	}
}

func (p *progressLine) finish(what string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.last = time.Now().Add(time.Hour) // late notifications print nothing
	prefix := ""
	if p.shown {
		prefix = "\r\033[K"
	}
	fmt.Fprintf(p.w, "%s%s: %s in %.2fs\n", prefix, p.name, what, time.Since(p.start).Seconds())
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// formatBytes writes a size for people: 1.2 MiB.
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for v := n / unit; v >= unit; v /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
