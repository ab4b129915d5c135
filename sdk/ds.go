package sdk

import (
	"context"
	"net/http"
	"strconv"
)

// DS is a Delegation Signer record of a delegated domain (one whose NS
// records point to other name servers): the digest of the key those name
// servers sign the domain with, which the registry's zone serves so that
// validating resolvers trust the domain's DNSSEC.
type DS struct {
	ID         int64  `json:"id"`
	KeyTag     int    `json:"keyTag" minimum:"0" maximum:"65535"`
	Algorithm  int    `json:"algorithm" doc:"DNSSEC algorithm: 8, 10, 13, 14, 15 or 16"`
	DigestType int    `json:"digestType" doc:"2 (SHA-256) or 4 (SHA-384)"`
	Digest     string `json:"digest" doc:"Upper-case hexadecimal"`
	TTL        int    `json:"ttl"`
}

// DSInput is a DS record to add, as the domain's DNS operator gives it
// (e.g. "2371 13 2 1F987CC6...": key tag, algorithm, digest type, digest).
type DSInput struct {
	KeyTag     int    `json:"keyTag" minimum:"0" maximum:"65535"`
	Algorithm  int    `json:"algorithm" doc:"DNSSEC algorithm: 8 (RSASHA256), 10 (RSASHA512), 13 (ECDSAP256SHA256), 14 (ECDSAP384SHA384), 15 (ED25519) or 16 (ED448); deprecated ones are refused"`
	DigestType int    `json:"digestType" doc:"2 (SHA-256, 64 hex characters) or 4 (SHA-384, 96); 1 (SHA-1) is refused as deprecated"`
	Digest     string `json:"digest" maxLength:"200" doc:"Hexadecimal; spaces are ignored"`
}

// DSList is the DS records of a domain.
type DSList struct {
	DS []DS `json:"ds" nullable:"false"`
}

// ListDS returns the DS records of domain (e.g. "example.inf.nz").
//
// Errors: CodeNotFound when you have no such domain.
func (s *DNSService) ListDS(ctx context.Context, domain string) ([]DS, error) {
	if domain == "" {
		return nil, errEmpty("domain")
	}
	var out DSList
	if err := s.c.do(ctx, http.MethodGet, dsPath(domain), nil, nil, &out); err != nil {
		return nil, err
	}
	return out.DS, nil
}

// AddDS adds a DS record to domain, which must be delegated.
//
// Errors: CodeInvalid for a bad key tag, algorithm, digest type or digest
// (a digest of the wrong length), and when the domain is not delegated;
// CodeConflict when the domain has this DS already; CodeNotFound when you
// have no such domain.
func (s *DNSService) AddDS(ctx context.Context, domain string, in DSInput) (*DS, error) {
	if domain == "" {
		return nil, errEmpty("domain")
	}
	var out DS
	if err := s.c.effect(ctx, http.MethodPost, dsPath(domain), in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteDS removes DS record id of domain.
//
// Errors: CodeNotFound when you have no such domain or DS record.
func (s *DNSService) DeleteDS(ctx context.Context, domain string, id int64) error {
	if domain == "" {
		return errEmpty("domain")
	}
	return s.c.do(ctx, http.MethodDelete, dsPath(domain)+"/"+strconv.FormatInt(id, 10), nil, nil, nil)
}

func dsPath(domain string) string { return "/v1/domains/" + escape(domain) + "/ds" }
