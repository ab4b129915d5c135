// Package web holds the built single-page app (web/dist, made by `npm run
// build`), embedded into the nameport binary.
package web

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist returns the built app; it holds only .gitkeep until the app is built.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // dist is embedded, so the sub-tree always exists
	}
	return sub
}
