package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/settings"
)

// SiteBody is the public site: the public settings the app shows, with
// their defaults (settings.Site). The server also writes it into the served
// index.html, so the app starts with it without asking.
type SiteBody struct {
	Name         string `json:"name" doc:"site_name: the header brand and page titles"`
	LogoURL      string `json:"logoUrl" doc:"logo_url: a path on this site or an https address"`
	FaviconURL   string `json:"faviconUrl" doc:"favicon_url"`
	PrimaryColor string `json:"primaryColor" doc:"primary_color as #rrggbb"`
	// Palette is what the app's brand colour classes use.
	Palette        map[string]string `json:"palette" doc:"Shades of the primary colour by Tailwind step (50 to 950), each as \"r g b\""`
	Tagline        string            `json:"tagline" doc:"tagline: shown in the footer"`
	ContactEmail   string            `json:"contactEmail" doc:"contact_email; empty when not set"`
	ContactPhone   string            `json:"contactPhone" doc:"contact_phone; empty when not set"`
	ContactAddress string            `json:"contactAddress" doc:"contact_address; empty when not set"`
	Social         []socialLinkBody  `json:"social" nullable:"false" doc:"The social links set (social_x, social_github, social_linkedin, social_facebook), in that order"`
	SEOTitle       string            `json:"seoTitle" doc:"seo_title: the title of the served page"`
	SEODescription string            `json:"seoDescription" doc:"seo_description: the description of the served page"`
}

type socialLinkBody struct {
	Platform string `json:"platform" enum:"x,github,linkedin,facebook"`
	URL      string `json:"url"`
}

// PublicSite is s as GET /api/site answers it.
func PublicSite(s settings.Site) SiteBody {
	social := make([]socialLinkBody, len(s.Social))
	for i, l := range s.Social {
		social[i] = socialLinkBody{Platform: l.Platform, URL: l.URL}
	}
	return SiteBody{Name: s.Name, LogoURL: s.LogoURL, FaviconURL: s.FaviconURL, PrimaryColor: s.PrimaryColor,
		Palette: s.Palette, Tagline: s.Tagline, ContactEmail: s.ContactEmail, ContactPhone: s.ContactPhone,
		ContactAddress: s.ContactAddress, Social: social, SEOTitle: s.SEOTitle, SEODescription: s.SEODescription}
}

type SiteOutput struct {
	Body envelope[SiteBody]
}

func addSiteRoute(a huma.API, svc *settings.Service) {
	register(a, accessPublic, huma.Operation{
		OperationID: "site-get", Method: http.MethodGet, Path: "/api/site", Tags: []string{"Site settings"},
		Summary: "The public site",
		Description: "The site's name, logo, favicon, colours, contact and social links and SEO texts, from the " +
			"public site settings with their defaults. Never a secret.",
	}, func(ctx context.Context, _ *struct{}) (*SiteOutput, error) {
		s, err := svc.Site(ctx)
		if err != nil {
			return nil, fail(ctx, err)
		}
		return &SiteOutput{Body: ok(PublicSite(s))}, nil
	})
}
