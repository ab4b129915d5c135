package server

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"io"
	"io/fs"
	"log/slog"
	"regexp"
	"strings"
	"time"

	"github.com/nameport/nameport/internal/api"
	"github.com/nameport/nameport/internal/settings"
)

// sitePages serves dist with index.html rendered for the public site (its
// title, description, favicon and colours), so that crawlers and the first
// paint see the site's own, before any script runs.
type sitePages struct {
	dist fs.FS
	site func(context.Context) (settings.Site, error)
}

func (p sitePages) Open(name string) (fs.File, error) {
	f, err := p.dist.Open(name)
	if err != nil || name != "index.html" {
		return f, err
	}
	defer f.Close()
	page, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	// fs.FS has no request context; a page waits for its settings no
	// longer than a request would for a slow database.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	site, err := p.site(ctx)
	if err != nil {
		// The page as built carries the defaults: better than no page.
		slog.Warn("index.html without the site settings", "err", err)
	} else {
		page = renderSitePage(page, site)
	}
	return &pageFile{Reader: bytes.NewReader(page), info: info, size: int64(len(page))}, nil
}

var (
	titleTag       = regexp.MustCompile(`<title>[^<]*</title>`)
	descriptionTag = regexp.MustCompile(`<meta name="description" content="[^"]*"\s*/?>`)
	iconTag        = regexp.MustCompile(`<link rel="icon"[^>]*>`)
	themeColorTag  = regexp.MustCompile(`<meta name="theme-color" content="[^"]*"\s*/?>`)
	ogTitleTag     = regexp.MustCompile(`<meta property="og:title" content="[^"]*"\s*/?>`)
	ogDescTag      = regexp.MustCompile(`<meta property="og:description" content="[^"]*"\s*/?>`)
)

// renderSitePage writes site into the built index.html: the tags vite kept
// from web/index.html are replaced, and before </head> go Open Graph tags,
// the brand palette as CSS variables (which the Tailwind brand colours read)
// and the site as JSON, which the app takes as its first answer of GET
// /api/site. Every value is escaped for where it goes.
func renderSitePage(page []byte, site settings.Site) []byte {
	esc := html.EscapeString
	title, desc := esc(site.SEOTitle), esc(site.SEODescription)
	replace := func(re *regexp.Regexp, with string) {
		page = re.ReplaceAllLiteral(page, []byte(with))
	}
	replace(titleTag, "<title>"+title+"</title>")
	replace(descriptionTag, `<meta name="description" content="`+desc+`" />`)
	replace(iconTag, `<link rel="icon" href="`+esc(site.FaviconURL)+`" />`)
	replace(themeColorTag, `<meta name="theme-color" content="`+esc(site.PrimaryColor)+`" />`)

	var head strings.Builder
	head.WriteString(`<meta property="og:title" content="` + title + `" />`)
	head.WriteString(`<meta property="og:description" content="` + desc + `" />`)
	head.WriteString(`<meta property="og:site_name" content="` + esc(site.Name) + `" />`)
	head.WriteString(`<style id="site-palette">` + paletteCSS(site.Palette) + `</style>`)
	// json.Marshal escapes <, > and & as \u003c…, so the data cannot end
	// its script element; the browser runs no JSON script (and the CSP
	// forbids inline scripts anyway): the app reads its text.
	data, err := json.Marshal(api.PublicSite(site))
	if err == nil {
		head.WriteString(`<script type="application/json" id="site-data">` + string(data) + `</script>`)
	}
	return bytes.Replace(page, []byte("</head>"), []byte(head.String()+"</head>"), 1)
}

// withPageHead is page (index.html as renderSitePage made it) with head's
// title and, when it has one, description in place of the site's.
func withPageHead(page []byte, head pageHead) []byte {
	esc := html.EscapeString
	replace := func(re *regexp.Regexp, with string) {
		page = re.ReplaceAllLiteral(page, []byte(with))
	}
	title := esc(head.Title)
	replace(titleTag, "<title>"+title+"</title>")
	replace(ogTitleTag, `<meta property="og:title" content="`+title+`" />`)
	if head.Description != "" {
		desc := esc(head.Description)
		replace(descriptionTag, `<meta name="description" content="`+desc+`" />`)
		replace(ogDescTag, `<meta property="og:description" content="`+desc+`" />`)
	}
	return page
}

// paletteCSS is the palette as the CSS variables of the brand colours.
// Its values are digits and spaces (settings.PaletteOf), nothing to escape.
func paletteCSS(p settings.Palette) string {
	var b strings.Builder
	b.WriteString(":root{")
	for _, step := range settings.PaletteSteps() {
		b.WriteString("--brand-" + step + ":" + p[step] + ";")
	}
	b.WriteString("}")
	return b.String()
}

// pageFile is a rendered page as an fs.File that http.ServeContent can seek.
type pageFile struct {
	*bytes.Reader
	info fs.FileInfo
	size int64
}

func (f *pageFile) Stat() (fs.FileInfo, error) { return pageInfo{f.info, f.size}, nil }
func (f *pageFile) Close() error               { return nil }

// pageInfo is the built file's info with the rendered size.
type pageInfo struct {
	fs.FileInfo
	size int64
}

func (i pageInfo) Size() int64 { return i.size }
