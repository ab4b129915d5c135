package sdk

import (
	"context"
	"net/http"
	"strconv"
	"time"
)

// UpdateKey is a TSIG key with which tools change a domain's records by
// RFC 2136 dynamic update (certbot --dns-rfc2136, lego --dns rfc2136,
// cert-manager, external-dns, nsupdate), limited to names and types.
type UpdateKey struct {
	ID         int64      `json:"id"`
	Name       string     `json:"name" example:"certbot" doc:"The name given to the key"`
	KeyName    string     `json:"keyName" example:"certbot.example.inf.nz." doc:"The TSIG key name tools sign with: the name under the domain"`
	Algorithm  string     `json:"algorithm" enum:"hmac-sha256,hmac-sha512"`
	Names      []string   `json:"names" nullable:"false" doc:"Names the key may change, relative to the domain (@ for the apex); empty: every name" example:"[\"_acme-challenge\"]"`
	Types      []string   `json:"types" nullable:"false" doc:"Record types the key may change; empty: every type" example:"[\"TXT\"]"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt,omitempty" doc:"When an update signed with the key last changed the domain; absent: never"`
}

// UpdateKeyInput is a key to make.
type UpdateKeyInput struct {
	Name      string   `json:"name" maxLength:"63" example:"certbot" doc:"1 to 63 letters, digits or hyphens; the key's TSIG name is this name under the domain"`
	Algorithm string   `json:"algorithm,omitempty" enum:"hmac-sha256,hmac-sha512" doc:"Default hmac-sha256"`
	Names     []string `json:"names,omitempty" maxItems:"20" doc:"Names the key may change, relative to the domain (\"_acme-challenge\", \"@\"); absent: every name"`
	Types     []string `json:"types,omitempty" maxItems:"8" doc:"Record types the key may change (A, AAAA, CNAME, MX, TXT, NS, SRV, CAA); absent: every type"`
}

// NewUpdateKey is a key just made, with its secret.
type NewUpdateKey struct {
	Key    UpdateKey `json:"key"`
	Secret string    `json:"secret" doc:"The key's secret (base64), shown this once"`
}

// UpdateKeyList is the update keys of a domain.
type UpdateKeyList struct {
	Keys []UpdateKey `json:"keys" nullable:"false"`
}

// ListUpdateKeys returns the update keys of domain, oldest first.
//
// Errors: CodeNotFound when you have no such domain.
func (s *DNSService) ListUpdateKeys(ctx context.Context, domain string) ([]UpdateKey, error) {
	if domain == "" {
		return nil, errEmpty("domain")
	}
	var out UpdateKeyList
	if err := s.c.do(ctx, http.MethodGet, updateKeysPath(domain), nil, nil, &out); err != nil {
		return nil, err
	}
	return out.Keys, nil
}

// CreateUpdateKey makes an update key for domain and returns it with its
// secret, shown this once (so the call is never retried: after a network
// error, list the keys to see whether it was made).
//
// Errors: CodeInvalid for a bad name, algorithm, scope name or type;
// CodeConflict when the domain has a key of that name; CodeNotFound when
// you have no such domain.
func (s *DNSService) CreateUpdateKey(ctx context.Context, domain string, in UpdateKeyInput) (*NewUpdateKey, error) {
	if domain == "" {
		return nil, errEmpty("domain")
	}
	var out NewUpdateKey
	if err := s.c.once(ctx, http.MethodPost, updateKeysPath(domain), in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// RevokeUpdateKey ends update key id of domain: updates signed with it are
// refused at once.
//
// Errors: CodeNotFound when you have no such domain or key.
func (s *DNSService) RevokeUpdateKey(ctx context.Context, domain string, id int64) error {
	if domain == "" {
		return errEmpty("domain")
	}
	return s.c.do(ctx, http.MethodDelete, updateKeysPath(domain)+"/"+strconv.FormatInt(id, 10), nil, nil, nil)
}

func updateKeysPath(domain string) string { return "/v1/domains/" + escape(domain) + "/update-keys" }
