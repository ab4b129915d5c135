package api

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/miekg/dns"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/audit"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/db"
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
	Role          string       `json:"role" enum:"CSK,KSK,ZSK" doc:"CSK signs the key set and the zone; KSK the key set only, beside a ZSK that signs the zone"`
	State         string       `json:"state" enum:"published,active,retired,removed" doc:"published: in the DNSKEY set ahead of a rollover; active: signing; retired: still published, no longer signing the zone; removed: gone from the zone"`
	CreatedAt     time.Time    `json:"createdAt"`
	ActivatedAt   *time.Time   `json:"activatedAt,omitempty"`
	RetiredAt     *time.Time   `json:"retiredAt,omitempty"`
	RemovedAt     *time.Time   `json:"removedAt,omitempty"`
	PublicKey     string       `json:"publicKey" doc:"Base64, as in the DNSKEY record"`
	DNSKEY        string       `json:"dnskey" doc:"The DNSKEY record in zone-file form, for registries that take keys rather than DS"`
	DS            dnssecDSBody `json:"ds" doc:"The DS record (SHA-256 digest) to give to the parent registry"`
}

type dnssecRolloverBody struct {
	Kind  string `json:"kind" enum:"ZSK,KSK"`
	Phase string `json:"phase" enum:"publishing,awaiting-ds,retiring" doc:"publishing: the new key is published, waiting for caches to hold it; awaiting-ds: a new KSK waits for the admin to confirm that the parent publishes its DS; retiring: the old key is kept published until cached signatures expire"`
	// NextStepAt: see dnssec.Rollover.
	NextStepAt time.Time `json:"nextStepAt" doc:"When the next step may be taken: by the hourly job, or (awaiting-ds) by the admin's confirmation"`
}

type dnssecBody struct {
	ExtensionID int64  `json:"extensionId"`
	Extension   string `json:"extension" example:".inf.nz"`
	Zone        string `json:"zone" example:"inf.nz."`
	Enabled     bool   `json:"enabled" doc:"The extension's switch (dnssecEnabled)"`
	// ServerSigning is false when the server runs with --dnssec=false.
	ServerSigning bool                `json:"serverSigning" doc:"Whether this server signs zones at all (--dnssec)"`
	Signed        bool                `json:"signed" doc:"Whether the zone is served signed now: the switch on, the server signing and the extension active"`
	Keys          []dnssecKeyBody     `json:"keys" nullable:"false" doc:"Every key of the zone, oldest first; empty until the zone is first served signed"`
	Rollover      *dnssecRolloverBody `json:"rollover,omitempty" doc:"The key rollover under way; absent: none"`
	NextRollover  *time.Time          `json:"nextRollover,omitempty" doc:"When the next scheduled ZSK rollover starts (--dnssec-zsk-lifetime); absent: none scheduled"`
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
			"the DS record (SHA-256) and the DNSKEY to give to the parent registry; the key rollover under way and the next one.",
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound},
	}, h.show)
	register(a, accessAdmin, huma.Operation{
		OperationID: "extension-dnssec-ksk-rollover", Method: http.MethodPost, Path: "/api/domain-extensions/{id}/dnssec/ksk-rollover",
		Tags: []string{"Catalog admin"}, Summary: "Start a KSK rollover",
		Description: "Publishes a new key-signing key (or CSK) beside the current one, with its CDS and CDNSKEY for the parent. " +
			"Once the parent registry publishes its DS, confirm with extension-dnssec-ds-confirmed.",
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict},
	}, h.startKSK)
	register(a, accessAdmin, huma.Operation{
		OperationID: "extension-dnssec-ds-confirmed", Method: http.MethodPost, Path: "/api/domain-extensions/{id}/dnssec/ksk-rollover/ds-confirmed",
		Tags: []string{"Catalog admin"}, Summary: "Confirm the parent publishes the new DS",
		Description: "The new KSK becomes active and the old one retires (kept published a week, then removed). " +
			"Refused before the new key has been published for two hours.",
		Errors: []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict},
	}, h.confirmDS)
}

// extension returns the extension in.ID with its zone.
func (h dnssecHandlers) extension(ctx context.Context, id int64) (*catalog.Extension, string, error) {
	for _, x := range h.cat.Extensions(true) {
		if x.ID == id {
			return x, strings.TrimPrefix(x.Extension, ".") + ".", nil
		}
	}
	return nil, "", fail(ctx, apperr.New(apperr.NotFound, "Extension not found"))
}

func (h dnssecHandlers) show(ctx context.Context, in *IDInput) (*DNSSECOutput, error) {
	e, zone, err := h.extension(ctx, in.ID)
	if err != nil {
		return nil, err
	}
	b := dnssecBody{ExtensionID: e.ID, Extension: e.Extension, Zone: zone, Enabled: e.DNSSECEnabled,
		ServerSigning: h.keys != nil, Keys: []dnssecKeyBody{}}
	b.Signed = b.Enabled && b.ServerSigning && e.Active
	if h.keys == nil {
		return &DNSSECOutput{Body: ok(b)}, nil
	}
	st, err := h.keys.Status(ctx, zone)
	if err != nil {
		return nil, fail(ctx, err)
	}
	for _, k := range st.Keys {
		ds := k.DS()
		b.Keys = append(b.Keys, dnssecKeyBody{KeyTag: int(k.DNSKEY.KeyTag()), Algorithm: int(k.DNSKEY.Algorithm),
			AlgorithmName: dns.AlgorithmToString[k.DNSKEY.Algorithm], Flags: int(k.DNSKEY.Flags), Role: k.Role,
			State: k.State, CreatedAt: k.CreatedAt, ActivatedAt: k.ActivatedAt, RetiredAt: k.RetiredAt, RemovedAt: k.RemovedAt,
			PublicKey: k.DNSKEY.PublicKey, DNSKEY: zoneFileText(k.DNSKEY),
			DS: dnssecDSBody{KeyTag: int(ds.KeyTag), Algorithm: int(ds.Algorithm), DigestType: int(ds.DigestType),
				Digest: strings.ToUpper(ds.Digest), Record: zoneFileText(ds)}})
	}
	if r := st.Rollover; r != nil {
		b.Rollover = &dnssecRolloverBody{Kind: r.Kind, Phase: r.Phase, NextStepAt: r.NextStepAt}
	}
	if !st.NextRollover.IsZero() && b.Signed {
		b.NextRollover = &st.NextRollover
	}
	return &DNSSECOutput{Body: ok(b)}, nil
}

// step runs a rollover step of the extension's zone and returns the view
// after it.
func (h dnssecHandlers) step(ctx context.Context, id int64, step func(ctx context.Context, zone string) error) (*DNSSECOutput, error) {
	e, zone, err := h.extension(ctx, id)
	if err != nil {
		return nil, err
	}
	if h.keys == nil || !e.DNSSECEnabled || !e.Active {
		return nil, fail(ctx, apperr.New(apperr.Conflict, "The zone is not signed: turn DNSSEC on for the extension first"))
	}
	if err := step(ctx, zone); err != nil {
		return nil, fail(ctx, err)
	}
	return h.show(ctx, &IDInput{ID: id})
}

func (h dnssecHandlers) startKSK(ctx context.Context, in *IDInput) (*DNSSECOutput, error) {
	return h.step(ctx, in.ID, func(ctx context.Context, zone string) error {
		return h.keys.StartKeyRollover(ctx, zone, recordRollover(ctx, in.ID, zone, audit.ActionKSKRollover))
	})
}

func (h dnssecHandlers) confirmDS(ctx context.Context, in *IDInput) (*DNSSECOutput, error) {
	return h.step(ctx, in.ID, func(ctx context.Context, zone string) error {
		return h.keys.ConfirmDS(ctx, zone, recordRollover(ctx, in.ID, zone, audit.ActionKSKDSConfirmed))
	})
}

// recordRollover records the admin's rollover step of extension id's zone
// in the audit log: the zone and the new KSK's tag.
func recordRollover(ctx context.Context, id int64, zone, action string) dnssec.Record {
	admin := sessionUser(ctx)
	return func(ctx context.Context, tx *db.Tx, keyTag int) error {
		return audit.Record(ctx, tx, audit.Entry{ActorID: admin.ID, Action: action, TargetType: "extension", TargetID: audit.ID(id),
			After: map[string]any{"zone": zone, "keyTag": keyTag}})
	}
}

// zoneFileText is rr as one zone-file line, fields separated by spaces
// (miekg/dns separates them by tabs), as registries' forms show them.
func zoneFileText(rr dns.RR) string {
	return strings.Join(strings.Fields(rr.String()), " ")
}
