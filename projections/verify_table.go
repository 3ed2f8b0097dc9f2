package projections

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// compareTable compares one table of the replayed model with the live one.
// Both are read in primary-key order side by side, so memory does not grow
// with the table; columns are matched by name, so a column a migration adds
// is compared like the others without a change here.
func compareTable(ctx context.Context, table string, replayed *sql.DB, live queryer, seq uint64) (uint64, error) {
	key, err := primaryKey(ctx, replayed, table)
	if err != nil {
		return 0, err
	}
	order := make([]string, len(key))
	for i, k := range key {
		order[i] = quoteName(k)
	}
	q := "SELECT * FROM " + tableRows(table) + " ORDER BY " + strings.Join(order, ", ")
	r, err := newCursor(ctx, replayed, q)
	if err != nil {
		return 0, err
	}
	defer r.rows.Close()
	l, err := newCursor(ctx, live, q)
	if err != nil {
		return 0, err
	}
	defer l.rows.Close()
	t, err := matchColumns(table, key, r.names, l.names, seq)
	if err != nil {
		return 0, err
	}
	var n uint64
	rrow, err := r.next()
	if err != nil {
		return n, err
	}
	lrow, err := l.next()
	if err != nil {
		return n, err
	}
	for rrow != nil || lrow != nil {
		switch order := t.order(rrow, lrow); {
		case order < 0:
			return n, t.mismatch(rrow, nil, -1, "is missing from the read model")
		case order > 0:
			return n, t.mismatch(nil, lrow, -1, "is in the read model but not in the replay")
		}
		for i := range t.names {
			if !sameValue(rrow[i], lrow[t.live[i]]) {
				return n, t.mismatch(rrow, lrow, i, "")
			}
		}
		n++
		if rrow, err = r.next(); err != nil {
			return n, err
		}
		if lrow, err = l.next(); err != nil {
			return n, err
		}
	}
	return n, nil
}

// primaryKey returns the columns of table's primary key, in key order; all
// of its columns for a table without one.
func primaryKey(ctx context.Context, db *sql.DB, table string) ([]string, error) {
	rows, err := db.QueryContext(ctx, "SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var all, key []string
	var pos []int
	for rows.Next() {
		var name string
		var pk int
		if err := rows.Scan(&name, &pk); err != nil {
			return nil, err
		}
		all = append(all, name)
		if pk > 0 {
			key, pos = append(key, name), append(pos, pk)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(key) == 0 {
		return all, nil
	}
	idx := make([]int, len(key))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(pos[a], pos[b]) })
	sorted := make([]string, len(key))
	for i, j := range idx {
		sorted[i] = key[j]
	}
	return sorted, nil
}

func quoteName(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// cursor reads a query's rows one at a time into the same buffer.
type cursor struct {
	rows  *sql.Rows
	names []string
	vals  []any
	ptrs  []any
}

func newCursor(ctx context.Context, db queryer, q string) (*cursor, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	names, err := rows.Columns()
	if err != nil {
		rows.Close()
		return nil, err
	}
	c := &cursor{rows: rows, names: names, vals: make([]any, len(names)), ptrs: make([]any, len(names))}
	for i := range c.vals {
		c.ptrs[i] = &c.vals[i]
	}
	return c, nil
}

// next returns the next row's values (valid until the next call), or nil
// after the last row.
func (c *cursor) next() ([]any, error) {
	if !c.rows.Next() {
		return nil, c.rows.Err()
	}
	if err := c.rows.Scan(c.ptrs...); err != nil {
		return nil, err
	}
	return c.vals, nil
}

// tableColumns is a table's columns as the replayed model has them, with
// where the live model has each.
type tableColumns struct {
	table string
	names []string // the replayed model's columns
	live  []int    // the live model's index of each
	key   []int    // the primary key's columns (indexes into names)
	seq   int      // the index of a "seq" column, or -1
	at    uint64   // the checkpoint compared
}

func matchColumns(table string, key, replayed, live []string, seq uint64) (*tableColumns, error) {
	t := &tableColumns{table: table, names: replayed, live: make([]int, len(replayed)),
		seq: slices.Index(replayed, "seq"), at: seq}
	for i, name := range replayed {
		if t.live[i] = slices.Index(live, name); t.live[i] < 0 {
			return nil, &Mismatch{Seq: seq, Table: table, Column: name,
				What: fmt.Sprintf("table %s: column %s is missing from the read model", table, name)}
		}
	}
	for _, name := range live {
		if !slices.Contains(replayed, name) {
			return nil, &Mismatch{Seq: seq, Table: table, Column: name,
				What: fmt.Sprintf("table %s: the read model has a column %s, which the replay has not", table, name)}
		}
	}
	for _, k := range key {
		t.key = append(t.key, slices.Index(replayed, k))
	}
	return t, nil
}

// order compares the primary keys of a replayed and a live row as SQLite
// orders them; a missing row (nil) comes after every other.
func (t *tableColumns) order(replayed, live []any) int {
	switch {
	case live == nil:
		return -1
	case replayed == nil:
		return 1
	}
	for _, k := range t.key {
		if c := compareValues(replayed[k], live[t.live[k]]); c != 0 {
			return c
		}
	}
	return 0
}

// mismatch describes the row (the replayed one, or the live one when nil)
// and, with column >= 0, how the two differ in that column.
func (t *tableColumns) mismatch(replayed, live []any, column int, what string) *Mismatch {
	row, at := replayed, func(i int) int { return i }
	if row == nil {
		row, at = live, func(i int) int { return t.live[i] }
	}
	keys := make([]string, len(t.key))
	for i, k := range t.key {
		keys[i] = t.names[k] + " " + showValue(row[at(k)])
	}
	m := &Mismatch{Seq: t.at, Table: t.table, Key: strings.Join(keys, ", ")}
	if t.seq >= 0 {
		if s, ok := row[at(t.seq)].(int64); ok && s > 0 {
			m.Seq = uint64(s)
		}
	}
	if column >= 0 {
		m.Column = t.names[column]
		got, want := showDiff(live[t.live[column]], replayed[column])
		what = fmt.Sprintf("%s is %s in the read model, %s replayed", m.Column, got, want)
		m.What = fmt.Sprintf("%s row (%s): %s", t.table, m.Key, what)
	} else {
		m.What = fmt.Sprintf("%s row (%s) %s", t.table, m.Key, what)
	}
	return m
}
