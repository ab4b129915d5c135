package server

import (
	"context"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/nameport/nameport/internal/apperr"
	pagesvc "github.com/nameport/nameport/internal/pages"
)

// spaHandler serves the built web app: its files as they are, and index.html
// for every other path (history fallback), so that deep links like
// /dashboard load the app, which routes on the client. exists, when not nil,
// is asked about a path the app's routes match only by a parameter
// (/pages/terms): whether what it names exists, so that a page the app
// will show as not found is answered 404 too.
func spaHandler(dist fs.FS, exists func(ctx context.Context, path string) bool) http.HandlerFunc {
	known := loadPages(dist)
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "Method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name != "" && name != "index.html" {
			if served := serveFile(w, r, dist, name); served {
				return
			}
			// A missing asset is a 404; a missing page is the app's to show.
			if path.Ext(name) != "" {
				http.NotFound(w, r)
				return
			}
		}
		if name != "index.html" && (!known.has("/"+name) || exists != nil && !exists(r.Context(), "/"+name)) {
			// The app shows its not-found page; crawlers and tools see 404.
			if index, err := fs.ReadFile(dist, "index.html"); err == nil {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Header().Set("Cache-Control", "no-cache")
				w.WriteHeader(http.StatusNotFound)
				if r.Method != http.MethodHead {
					_, _ = w.Write(index)
				}
				return
			}
		}
		if !serveFile(w, r, dist, "index.html") {
			http.Error(w, "The web app is not built into this binary: run `make build`.", http.StatusServiceUnavailable)
		}
	}
}

// serveFile serves dist/name if it is a file. Vite puts content-hashed files
// under assets/, which never change and are cached for a year; everything
// else is revalidated.
func serveFile(w http.ResponseWriter, r *http.Request, dist fs.FS, name string) bool {
	f, err := dist.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || info.IsDir() {
		return false
	}
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		return false
	}
	if strings.HasPrefix(name, "assets/") {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
	http.ServeContent(w, r, name, time.Time{}, rs)
	return true
}

// publishedPage tells spaHandler whether /pages/<slug> names a published
// page. Anything else, and a database that cannot answer now, counts as
// existing: the app decides what it shows.
func publishedPage(p *pagesvc.Service) func(ctx context.Context, path string) bool {
	return func(ctx context.Context, path string) bool {
		slug, ok := strings.CutPrefix(path, "/pages/")
		if !ok || slug == "" || strings.Contains(slug, "/") {
			return true
		}
		_, err := p.BySlug(ctx, slug, false)
		return apperr.Code(err) != apperr.NotFound
	}
}
