package db

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"riverqueue.com/riverui"
	"riverqueue.com/riverui/uiendpoints"
)

// RiverUI returns River's own web UI over this process's River client,
// serving under prefix (which the caller guards). It runs until ctx ends.
// The UI ships built inside its Go module: nothing is fetched at run time.
func (d *DB) RiverUI(ctx context.Context, logger *slog.Logger, prefix string) (http.Handler, error) {
	q, ok := d.jobs.(interface{ uiEndpoints() uiendpoints.Bundle })
	if !ok {
		return nil, errors.New("db: jobs not set up")
	}
	h, err := riverui.NewHandler(&riverui.HandlerOpts{Endpoints: q.uiEndpoints(), Logger: logger, Prefix: prefix})
	if err != nil {
		return nil, fmt.Errorf("db: river ui: %w", err)
	}
	if err := h.Start(ctx); err != nil {
		return nil, fmt.Errorf("db: start river ui: %w", err)
	}
	return h, nil
}

func (q riverQueue[TTx]) uiEndpoints() uiendpoints.Bundle { return riverui.NewEndpoints(q.client, nil) }
