package server

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/nameport/nameport/internal/apperr"
	pagesvc "github.com/nameport/nameport/internal/pages"
	"github.com/nameport/nameport/internal/settings"
)

// pageHead is what the served HTML's head says of one page of the app
// (an admin's page): its title and, when it has one, its description.
type pageHead struct {
	Title, Description string
}

// spaHandler serves the built web app: its files as they are, and index.html
// for every other path (history fallback), so that deep links like
// /dashboard load the app, which routes on the client. lookup, when not nil,
// is asked about a path the app's routes match only by a parameter
// (/pages/terms): whether what it names exists, so that a page the app
// will show as not found is answered 404 too, and the head of its HTML
// when it has its own (crawlers and link previews read it).
func spaHandler(dist fs.FS, lookup func(ctx context.Context, path string) (*pageHead, bool)) http.HandlerFunc {
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
		var head *pageHead
		exists := known.has("/" + name)
		if exists && lookup != nil && name != "index.html" {
			head, exists = lookup(r.Context(), "/"+name)
		}
		if name != "index.html" && !exists {
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
		if head != nil {
			if index, err := fs.ReadFile(dist, "index.html"); err == nil {
				serveHTML(w, r, withPageHead(index, *head))
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

// serveHTML serves a page rendered for this request: never cached.
func serveHTML(w http.ResponseWriter, r *http.Request, page []byte) {
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(page))
}

// publishedPage tells spaHandler whether /pages/<slug> names a published
// page, with the head of its HTML: its title (under the site's name) and
// meta description. Anything else, and a database that cannot answer now,
// counts as existing with the site's head: the app decides what it shows.
func publishedPage(p *pagesvc.Service, site func(context.Context) (settings.Site, error)) func(ctx context.Context, path string) (*pageHead, bool) {
	return func(ctx context.Context, path string) (*pageHead, bool) {
		slug, ok := strings.CutPrefix(path, "/pages/")
		if !ok || slug == "" || strings.Contains(slug, "/") {
			return nil, true
		}
		page, err := p.BySlug(ctx, slug, false)
		if err != nil {
			return nil, apperr.Code(err) != apperr.NotFound
		}
		s, err := site(ctx)
		if err != nil {
			return nil, true
		}
		return &pageHead{Title: page.HeadTitle() + " · " + s.Name, Description: page.MetaDescription}, true
	}
}
