package catalog_test

import (
	"io"
	"log/slog"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/registration"
)

var discard = slog.New(slog.NewTextHandler(io.Discard, nil))

func registrationsOf(d *db.DB) *registration.Names { return registration.NewNames(d, nil) }
