package server

import (
	"encoding/json"
	"io/fs"
	"strings"
)

// pages are the web app's routes, from the routes.json its build writes
// beside index.html (web/vite.config.ts), so that a path no page has is
// answered 404 rather than 200 (the app still shows its not-found page).
// A segment "$name" matches any one segment.
type pages [][]string

// loadPages reads dist/routes.json; nil, which knows every path, when the
// build wrote none (an app built before the manifest existed).
func loadPages(dist fs.FS) pages {
	b, err := fs.ReadFile(dist, "routes.json")
	if err != nil {
		return nil
	}
	var paths []string
	if json.Unmarshal(b, &paths) != nil {
		return nil
	}
	p := make(pages, 0, len(paths))
	for _, path := range paths {
		p = append(p, segments(path))
	}
	return p
}

func segments(path string) []string {
	path = strings.Trim(path, "/")
	if path == "" {
		return nil
	}
	return strings.Split(path, "/")
}

// has reports whether a page of the app answers path (cleaned, starting
// with /). A trailing slash is the same page.
func (p pages) has(path string) bool {
	if p == nil {
		return true
	}
	got := segments(path)
	for _, route := range p {
		if len(route) != len(got) {
			continue
		}
		match := true
		for i, seg := range route {
			if seg != got[i] && !(strings.HasPrefix(seg, "$") && got[i] != "") {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}
