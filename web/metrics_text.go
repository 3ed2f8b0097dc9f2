package web

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/web/site"
)

// The Prometheus text exposition format, written by hand: a few families
// of counters, gauges and histograms need no client library.

// writeCommands writes the command histogram and outcome counters.
func (m *Registry) writeCommands(b *strings.Builder) {
	m.mu.Lock()
	defer m.mu.Unlock()
	names := make([]string, 0, len(m.commands))
	for n := range m.commands {
		names = append(names, n)
	}
	slices.Sort(names)
	p := promWriter{b}
	p.family("crossrank_command_duration_seconds", "histogram", "Time to load, decide and append a command, retries included; the wait for the read models is not counted.")
	for _, n := range names {
		c := m.commands[n]
		var cum uint64
		for i, le := range latencyBuckets {
			cum += c.buckets[i]
			p.sample("crossrank_command_duration_seconds_bucket", []string{"command", n, "le", formatFloat(le)}, float64(cum))
		}
		p.sample("crossrank_command_duration_seconds_bucket", []string{"command", n, "le", "+Inf"}, float64(c.count))
		p.sample("crossrank_command_duration_seconds_sum", []string{"command", n}, c.sum)
		p.sample("crossrank_command_duration_seconds_count", []string{"command", n}, float64(c.count))
	}
	p.family("crossrank_commands_total", "counter", "Commands run, by command and the HTTP status their outcome maps to (200: success).")
	for _, n := range names {
		c := m.commands[n]
		statuses := make([]int, 0, len(c.statuses))
		for st := range c.statuses {
			statuses = append(statuses, st)
		}
		slices.Sort(statuses)
		for _, st := range statuses {
			p.sample("crossrank_commands_total", []string{"command", n, "status", strconv.Itoa(st)}, float64(c.statuses[st]))
		}
	}
	p.family("crossrank_commands_replayed_total", "counter", "Commands that were retries of one already stored (same idempotency key): nothing new was appended.")
	for _, n := range names {
		p.sample("crossrank_commands_replayed_total", []string{"command", n}, float64(m.commands[n].replayed))
	}
}

// promWriter writes the Prometheus text exposition format.
type promWriter struct{ b *strings.Builder }

// family writes the HELP and TYPE lines of a metric.
func (p promWriter) family(name, typ, help string) {
	fmt.Fprintf(p.b, "# HELP %s %s\n# TYPE %s %s\n", name, escapeHelp(help), name, typ)
}

// sample writes one sample; labels alternate names and values.
func (p promWriter) sample(name string, labels []string, v float64) {
	p.b.WriteString(name)
	if len(labels) > 0 {
		p.b.WriteByte('{')
		for i := 0; i+1 < len(labels); i += 2 {
			if i > 0 {
				p.b.WriteByte(',')
			}
			p.b.WriteString(labels[i])
			p.b.WriteString(`="`)
			p.b.WriteString(escapeLabel(labels[i+1]))
			p.b.WriteByte('"')
		}
		p.b.WriteByte('}')
	}
	p.b.WriteByte(' ')
	p.b.WriteString(formatFloat(v))
	p.b.WriteByte('\n')
}

var (
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

func escapeHelp(s string) string  { return helpEscaper.Replace(s) }
func escapeLabel(s string) string { return labelEscaper.Replace(s) }

// formatFloat writes a sample value as Prometheus reads it.
func formatFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// writePageCache reports the public page cache.
func writePageCache(p promWriter, st site.CacheStats) {
	for _, m := range []struct {
		name, typ, help string
		v               float64
	}{
		{"crossrank_page_cache_bytes", "gauge", "Bytes held by cached public pages and API answers, compressed copies included.", float64(st.Bytes)},
		{"crossrank_page_cache_max_bytes", "gauge", "The bound of the public page cache (--page-cache-bytes).", float64(max(st.Max, 0))},
		{"crossrank_page_cache_entries", "gauge", "Public pages and API answers in the cache.", float64(st.Entries)},
		{"crossrank_page_cache_hits_total", "counter", "Public bodies served without building them.", float64(st.Hits)},
		{"crossrank_page_cache_misses_total", "counter", "Public bodies built because the cache did not hold them.", float64(st.Misses)},
		{"crossrank_page_cache_evictions_total", "counter", "Cached public bodies dropped, least recently used first, to stay within the bound.", float64(st.Evictions)},
	} {
		p.family(m.name, m.typ, m.help)
		p.sample(m.name, nil, m.v)
	}
}
