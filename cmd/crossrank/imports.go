package main

import (
	"context"
	"fmt"
	"time"

	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/web/imports"
)

// ImportLifetime is how long an import job's record and its checked upload
// are kept after their last write: a finished job's page stays answerable
// for some days, then goes.
const ImportLifetime = 3 * 24 * time.Hour

// openImports opens the import jobs' bucket and their uploads' object
// store.
func openImports(ctx context.Context, e *env, replicas int) (imports.Shared, error) {
	kv, err := jetstream.OpenKV(ctx, e.nc, jetstream.ImportJobsBucket, ImportLifetime, replicas)
	if err != nil {
		return imports.Shared{}, fmt.Errorf("import jobs: %w", err)
	}
	files, err := jetstream.OpenFiles(ctx, e.nc, jetstream.ImportFilesBucket, ImportLifetime, replicas)
	if err != nil {
		return imports.Shared{}, fmt.Errorf("import uploads: %w", err)
	}
	return imports.Shared{Jobs: kv, Files: files}, nil
}
