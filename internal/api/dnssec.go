package api

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/miekg/dns"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/dnssec"
)

// The DNSSEC view of an extension (#21), in the admin Advanced Config DNS
// tab: whether its zone is signed, its keys and the DS record to give to
// the parent registry. The switch itself is the extension's dnssecEnabled
// (extensions-update).

type dnssecDSBody struct {
	KeyTag     int    `json:"keyTag"`
	Algorithm  int    `json:"algorithm"`
	DigestType int    `json:"digestType" doc:"2: SHA-256"`
	Digest     string `json:"digest" doc:"Hexadecimal, upper case"`
	Record     string `json:"record" example:"inf.nz. 3600 IN DS 2371 13 2 1F0C…" doc:"The DS record in zone-file form"`
}

type dnssecKeyBody struct {
	KeyTag        int          `json:"keyTag"`
	Algorithm     int          `json:"algorithm" doc:"13: ECDSA P-256 with SHA-256; 15: Ed25519"`
	AlgorithmName string       `json:"algorithmName" example:"ECDSAP256SHA256"`
	Flags         int          `json:"flags" doc:"257: secure entry point (KSK or CSK); 256: ZSK"`
	Role          string       `json:"role" enum:"CSK,ZSK" doc:"CSK signs the key set and the zone; ZSK the zone only"`
	State         string       `json:"state" example:"active"`
	CreatedAt     time.Time    `json:"createdAt"`
	ActivatedAt   *time.Time   `json:"activatedAt,omitempty"`
	PublicKey     string       `json:"publicKey" doc:"Base64, as in the DNSKEY record"`
	DNSKEY        string       `json:"dnskey" doc:"The DNSKEY record in zone-file form, for registries that take keys rather than DS"`
	DS            dnssecDSBody `json:"ds" doc:"The DS record (SHA-256 digest) to give to the parent registry"`
}

type dnssecBody struct {
	ExtensionID int64  `json:"extensionId"`
	Extension   string `json:"extension" example:".inf.nz"`
	Zone        string `json:"zone" example:"inf.nz."`
	Enabled     bool   `json:"enabled" doc:"The extension's switch (dnssecEnabled)"`
	// ServerSigning is false when the server runs with --dnssec=false.
	ServerSigning bool            `json:"serverSigning" doc:"Whether this server signs zones at all (--dnssec)"`
	Signed        bool            `json:"signed" doc:"Whether the zone is served signed now: the switch on, the server signing and the extension active"`
	Keys          []dnssecKeyBody `json:"keys" nullable:"false" doc:"Every key of the zone, oldest first; empty until the zone is first served signed"`
	NextRollover  *time.Time      `json:"nextRollover,omitempty" doc:"When the next key rollover is due; absent: none scheduled"`
}

type DNSSECOutput struct {
	Body envelope[dnssecBody]
}

type dnssecHandlers struct {
	cat  *catalog.Service
	keys *dnssec.Store // nil: --dnssec=false
}

func addDNSSECRoutes(a huma.API, cat *catalog.Service, keys *dnssec.Store) {
	h := dnssecHandlers{cat, keys}
	register(a, accessAdmin, huma.Operation{
		OperationID: "extension-dnssec", Method: http.MethodGet, Path: "/api/domain-extensions/{id}/dnssec",
		Tags: []string{"Catalog admin"}, Summary: "An extension's DNSSEC keys",
		Description: "Whether the extension's zone is signed, its keys (algorithm, tag, role, state) and, for each, " +
			"the DS record (SHA-256) and the DNSKEY to give to the parent registry.",
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound},
	}, h.show)
}

func (h dnssecHandlers) show(ctx context.Context, in *IDInput) (*DNSSECOutput, error) {
	var e *catalog.Extension
	for _, x := range h.cat.Extensions(true) {
		if x.ID == in.ID {
			e = x
		}
	}
	if e == nil {
		return nil, fail(ctx, apperr.New(apperr.NotFound, "Extension not found"))
	}
	zone := strings.TrimPrefix(e.Extension, ".") + "."
	b := dnssecBody{ExtensionID: e.ID, Extension: e.Extension, Zone: zone, Enabled: e.DNSSECEnabled,
		ServerSigning: h.keys != nil, Keys: []dnssecKeyBody{}}
	b.Signed = b.Enabled && b.ServerSigning && e.Active
	if h.keys != nil {
		keys, err := h.keys.ZoneKeys(ctx, zone)
		if err != nil {
			return nil, fail(ctx, err)
		}
		for _, k := range keys {
			ds := k.DS()
			b.Keys = append(b.Keys, dnssecKeyBody{KeyTag: int(k.DNSKEY.KeyTag()), Algorithm: int(k.DNSKEY.Algorithm),
				AlgorithmName: dns.AlgorithmToString[k.DNSKEY.Algorithm], Flags: int(k.DNSKEY.Flags), Role: k.Role,
				State: k.State, CreatedAt: k.CreatedAt, ActivatedAt: k.ActivatedAt, PublicKey: k.DNSKEY.PublicKey,
				DNSKEY: zoneFileText(k.DNSKEY),
				DS: dnssecDSBody{KeyTag: int(ds.KeyTag), Algorithm: int(ds.Algorithm), DigestType: int(ds.DigestType),
					Digest: strings.ToUpper(ds.Digest), Record: zoneFileText(ds)}})
		}
	}
	return &DNSSECOutput{Body: ok(b)}, nil
}

// zoneFileText is rr as one zone-file line, fields separated by spaces
// (miekg/dns separates them by tabs), as registries' forms show them.
func zoneFileText(rr dns.RR) string {
	return strings.Join(strings.Fields(rr.String()), " ")
}
