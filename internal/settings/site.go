package settings

import (
	"context"
	"fmt"
	"maps"
	"math"
	"net/mail"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/nameport/nameport/internal/apperr"
)

// The site settings the app reads: Quick Setup writes the branding four;
// admins add the others in their tabs. Each has a default (Site), so a
// fresh server looks complete and a setting removed falls back.
const (
	KeySiteName       = "site_name"
	KeyLogoURL        = "logo_url"
	KeyFaviconURL     = "favicon_url"
	KeyPrimaryColor   = "primary_color"
	KeyTagline        = "tagline"
	KeyContactEmail   = "contact_email"
	KeyContactPhone   = "contact_phone"
	KeyContactAddress = "contact_address"
	KeySEOTitle       = "seo_title"
	KeySEODescription = "seo_description"
)

// SocialKeys are the settings holding the footer's social links, in the
// order the footer shows them, with the platform each names.
var SocialKeys = []struct{ Key, Platform string }{
	{"social_x", "x"},
	{"social_github", "github"},
	{"social_linkedin", "linkedin"},
	{"social_facebook", "facebook"},
}

// Defaults of the public site: what a server shows before an admin sets
// anything. /logo.svg and /favicon.ico are files of the web app.
const (
	DefaultSiteName       = "Nameport"
	DefaultLogoURL        = "/logo.svg"
	DefaultFaviconURL     = "/favicon.ico"
	DefaultPrimaryColor   = "#4f46e5" // the app's indigo-600
	DefaultTagline        = "Your trusted partner for domain registration and management."
	DefaultSEOTitle       = "Nameport · Domain registration and management"
	DefaultSEODescription = "Nameport: register and manage .inf.nz, .biz.ee and .orgn.uk domains, " +
		"with DNS, premium names and a registrar API."
)

// Site is the public site as the web app and the served HTML show it: the
// public settings with their defaults, values that would not work (a colour
// that is not one, a link that is not http(s)) replaced by the default.
type Site struct {
	Name           string
	LogoURL        string
	FaviconURL     string
	PrimaryColor   string // #rrggbb
	Palette        Palette
	Tagline        string
	ContactEmail   string
	ContactPhone   string
	ContactAddress string
	Social         []SocialLink
	SEOTitle       string
	SEODescription string
}

// SocialLink is a footer link to the site's page on a platform.
type SocialLink struct {
	Platform string // x, github, linkedin or facebook
	URL      string
}

// Site returns the public site: the public settings over their defaults.
// A setting an admin made private is not shown (its default is).
func (s *Service) Site(ctx context.Context) (Site, error) {
	var rows []Setting
	if err := s.db.Bun.NewSelect().Model(&rows).Column("key", "value").Where("is_public = ?", true).
		Where("key <> ?", GatewaysKey).Scan(ctx); err != nil {
		return Site{}, fmt.Errorf("settings: site: %w", err)
	}
	values := make(map[string]string, len(rows))
	for _, r := range rows {
		if checkKnown(r.Key, r.Value) == nil {
			values[r.Key] = strings.TrimSpace(r.Value)
		}
	}
	or := func(key, def string) string {
		if v := values[key]; v != "" {
			return v
		}
		return def
	}
	site := Site{
		Name: or(KeySiteName, DefaultSiteName), LogoURL: or(KeyLogoURL, DefaultLogoURL),
		FaviconURL: or(KeyFaviconURL, DefaultFaviconURL), Tagline: or(KeyTagline, DefaultTagline),
		ContactEmail: values[KeyContactEmail], ContactPhone: values[KeyContactPhone],
		ContactAddress: values[KeyContactAddress], Social: []SocialLink{},
		SEODescription: or(KeySEODescription, DefaultSEODescription),
	}
	site.PrimaryColor = normalColor(or(KeyPrimaryColor, DefaultPrimaryColor))
	site.Palette = PaletteOf(site.PrimaryColor)
	// A renamed site keeps the default title's shape under its own name.
	site.SEOTitle = or(KeySEOTitle, strings.Replace(DefaultSEOTitle, DefaultSiteName, site.Name, 1))
	for _, k := range SocialKeys {
		if v := values[k.Key]; v != "" {
			site.Social = append(site.Social, SocialLink{Platform: k.Platform, URL: v})
		}
	}
	return site, nil
}

var hexColor = regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)

// checkKnown checks the value of a setting the app reads, so that what an
// admin saves works where it is shown: the page would otherwise carry a
// colour that is no colour or a link to javascript:. Other keys take any value.
func checkKnown(key, value string) error {
	v := strings.TrimSpace(value)
	switch key {
	case KeyPrimaryColor:
		if !hexColor.MatchString(v) {
			return apperr.New(apperr.Invalid, "Primary colour must be a hex colour such as #2563eb")
		}
	case KeyLogoURL, KeyFaviconURL:
		if !sitePathOrHTTPS(v) {
			return apperr.New(apperr.Invalid, "%s must be a path on this site (such as /logo.svg) or an https:// address", key)
		}
	case KeyContactEmail:
		if a, err := mail.ParseAddress(v); err != nil || a.Address != v {
			return apperr.New(apperr.Invalid, "Contact email must be an email address")
		}
	case KeySiteName:
		if len(v) > 60 {
			return apperr.New(apperr.Invalid, "Site name must be at most 60 characters")
		}
	}
	for _, k := range SocialKeys {
		if key == k.Key && !webURL(v) {
			return apperr.New(apperr.Invalid, "%s must be an http:// or https:// address", key)
		}
	}
	return nil
}

// sitePathOrHTTPS: a path on this site, or an https address (the app's
// Content-Security-Policy loads images from those only).
func sitePathOrHTTPS(v string) bool {
	if strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//") && !strings.ContainsAny(v, "\\ \"'<>") {
		return true
	}
	u, err := url.Parse(v)
	return err == nil && u.Scheme == "https" && u.Host != ""
}

func webURL(v string) bool {
	u, err := url.Parse(v)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}

// normalColor spells a valid hex colour as lower-case #rrggbb.
func normalColor(c string) string {
	c = strings.ToLower(c)
	if len(c) == 4 {
		c = string([]byte{'#', c[1], c[1], c[2], c[2], c[3], c[3]})
	}
	return c
}

// Palette is the shades of the primary colour the app's brand classes use,
// by Tailwind's step (50 … 950), each as "r g b" for CSS rgb(var(--…)).
type Palette map[string]string

// paletteMix is how much white (negative) or black (positive) each step
// mixes into the primary colour, which is step 600: close to how Tailwind's
// own scales lighten and darken.
var paletteMix = []struct {
	Step string
	Mix  float64
}{
	{"50", -0.95}, {"100", -0.9}, {"200", -0.8}, {"300", -0.64}, {"400", -0.4}, {"500", -0.18},
	{"600", 0}, {"700", 0.16}, {"800", 0.32}, {"900", 0.46}, {"950", 0.64},
}

// PaletteSteps are the steps of a Palette, lightest first.
func PaletteSteps() []string {
	out := make([]string, len(paletteMix))
	for i, p := range paletteMix {
		out[i] = p.Step
	}
	return out
}

// defaultPalette is Tailwind's indigo, whose 600 is DefaultPrimaryColor:
// a server nobody has branded looks as the app was designed (web/src/index.css
// holds the same values).
var defaultPalette = Palette{"50": "238 242 255", "100": "224 231 255", "200": "199 210 254",
	"300": "165 180 252", "400": "129 140 248", "500": "99 102 241", "600": "79 70 229", "700": "67 56 202",
	"800": "55 48 163", "900": "49 46 129", "950": "30 27 75"}

// PaletteOf returns the shades of the #rrggbb colour c.
func PaletteOf(c string) Palette {
	if c == DefaultPrimaryColor {
		return maps.Clone(defaultPalette)
	}
	rgb := [3]float64{}
	for i := range rgb {
		n, _ := strconv.ParseUint(c[1+2*i:3+2*i], 16, 8)
		rgb[i] = float64(n)
	}
	p := make(Palette, len(paletteMix))
	for _, step := range paletteMix {
		var out [3]string
		for i, v := range rgb {
			if step.Mix < 0 {
				v += (255 - v) * -step.Mix
			} else {
				v -= v * step.Mix
			}
			out[i] = strconv.Itoa(int(math.Round(v)))
		}
		p[step.Step] = strings.Join(out[:], " ")
	}
	return p
}
