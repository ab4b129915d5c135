package settings

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/sealer"
)

// GatewaysKey is the setting whose value is the JSON list of payment
// gateways. It is always in category payment and never public.
const GatewaysKey = "payment_gateways"

// GatewayTypes are the kinds of payment gateway; a gateway's id is its type.
// Stripe is not one: its keys are server configuration (--stripe-secret-key
// and friends), which billing reads, so there is one place to set them.
var GatewayTypes = []string{"paypal", "bank_transfer", "credit_card", "mobile_payment", "cryptocurrency"}

// AvailableGateways are the gateway types whose payments work, the only
// ones an admin may enable: a bank transfer's deposit waits for an admin to
// confirm it (billing). The others have no provider yet; enabled, they
// would tell customers of a way to pay that does not exist. Cards are paid
// through Stripe, whose keys are the server's flags.
var AvailableGateways = []string{"bank_transfer"}

// gatewayNames are the types' names as the admin screen shows them.
var gatewayNames = map[string]string{"paypal": "PayPal", "bank_transfer": "Bank Transfer", "credit_card": "Credit Card",
	"mobile_payment": "Mobile Payment", "cryptocurrency": "Cryptocurrency"}

// stripeGateway is the gateway type that held Stripe keys before the flags
// owned them; lists that still carry it read without it.
const stripeGateway = "stripe"

// SecretFields are the gateway settings sealed at rest and masked when read.
var SecretFields = []string{"client_secret"}

// requiredFields are the settings a gateway needs before it may be enabled,
// with the labels the admin screen shows (the web app lists the same).
var requiredFields = map[string][]struct{ name, label string }{
	"paypal":         {{"client_id", "Client ID"}, {"client_secret", "Client Secret"}},
	"bank_transfer":  {{"account_name", "Account Name"}, {"account_number", "Account Number"}, {"bank_name", "Bank Name"}, {"routing_number", "Routing Number"}},
	"credit_card":    {{"processor", "Processing"}},
	"mobile_payment": {{"provider", "Provider"}, {"merchant_id", "Merchant ID"}},
	"cryptocurrency": {{"wallet_address", "Wallet Address"}},
}

// missingRequired lists the labels of the required settings g lacks.
func (g gateway) missingRequired() []string {
	var missing []string
	for _, f := range requiredFields[g.id()] {
		if v, _ := g.settings()[f.name].(string); strings.TrimSpace(v) == "" {
			missing = append(missing, f.label)
		}
	}
	return missing
}

// gateway is one entry of the list. Fields the service does not look at
// (name, description, fields, displayOrder…) are kept as they come.
type gateway map[string]any

func (g gateway) id() string {
	id, _ := g["id"].(string)
	return id
}

func (g gateway) settings() map[string]any {
	m, _ := g["settings"].(map[string]any)
	return m
}

func parseGateways(value string) ([]gateway, error) {
	var list []gateway
	if err := json.Unmarshal([]byte(value), &list); err != nil {
		return nil, err
	}
	return list, nil
}

// sealGateways validates a new gateway list and seals its secrets. A secret
// sent back as its mask keeps the secret stored in previous (the sealed value
// the setting has now, or "").
func (s *Service) sealGateways(value, previous string) (string, error) {
	list, err := parseGateways(value)
	if err != nil || list == nil {
		return "", apperr.New(apperr.Invalid, "Payment gateways must be a JSON list")
	}
	stored := map[string]map[string]any{}
	wasActive := map[string]bool{}
	if old, err := parseGateways(previous); err == nil {
		for _, g := range old {
			stored[g.id()] = g.settings()
			wasActive[g.id()], _ = g["active"].(bool)
		}
	}
	seen := map[string]bool{}
	for _, g := range list {
		id := g.id()
		if id == "" {
			return "", apperr.New(apperr.Invalid, "Please select a payment gateway type")
		}
		if id == stripeGateway {
			return "", apperr.New(apperr.Invalid, "Stripe is configured on the server (--stripe-secret-key, "+
				"--stripe-publishable-key, --stripe-webhook-secret), not as a payment gateway")
		}
		if !slices.Contains(GatewayTypes, id) {
			return "", apperr.New(apperr.Invalid, "Unknown payment gateway type %s", id)
		}
		if seen[id] {
			return "", apperr.New(apperr.Invalid, "Payment gateway %s is listed twice", id)
		}
		seen[id] = true
		if raw, ok := g["settings"]; ok && raw != nil {
			if _, ok := raw.(map[string]any); !ok {
				return "", apperr.New(apperr.Invalid, "Settings of payment gateway %s must be an object", id)
			}
		}
		if active, _ := g["active"].(bool); active {
			if missing := g.missingRequired(); len(missing) > 0 {
				return "", apperr.New(apperr.Invalid, "Please fill in the following required fields: %s",
					strings.Join(missing, ", "))
			}
			// One enabled before this rule stays as it is (nothing offers
			// it): refusing would block every other gateway change.
			if !slices.Contains(AvailableGateways, id) && !wasActive[id] {
				return "", apperr.New(apperr.Invalid, "%s cannot be enabled: payments by %s are not available yet. "+
					"Customers pay by card through Stripe (configured on the server) or by bank transfer.",
					gatewayNames[id], gatewayNames[id])
			}
		}
		settings := g.settings()
		for _, field := range SecretFields {
			raw, ok := settings[field]
			if !ok || raw == nil {
				continue
			}
			v, ok := raw.(string)
			if !ok {
				return "", apperr.New(apperr.Invalid, "Setting %s of payment gateway %s must be text", field, id)
			}
			if v == "" {
				continue
			}
			if old, _ := stored[id][field].(string); old != "" && strings.HasPrefix(v, sealer.MaskPrefix) {
				plain, err := s.secrets.Open(old)
				if (err == nil && sealer.Mask(plain) == v) || (err != nil && v == sealer.MaskPrefix) {
					settings[field] = old // the mask sent back: keep the stored secret, still sealed
					continue
				}
			}
			sealed, err := s.secrets.Seal(v)
			if err != nil {
				return "", err
			}
			settings[field] = sealed
		}
	}
	out, err := json.Marshal(list)
	if err != nil {
		return "", err
	}
	return string(out), nil
}

// maskGateways opens a stored gateway list and masks its secrets. A list
// that does not parse reads as empty; a stripe entry stored before the
// flags owned Stripe is left out (nothing reads it).
func (s *Service) maskGateways(stored string) (string, error) {
	all, err := parseGateways(stored)
	if err != nil || all == nil {
		return "[]", nil
	}
	list := slices.DeleteFunc(all, func(g gateway) bool { return g.id() == stripeGateway })
	for _, g := range list {
		settings := g.settings()
		for _, field := range SecretFields {
			sealed, _ := settings[field].(string)
			if sealed == "" {
				continue
			}
			plain, err := s.secrets.Open(sealed)
			if err != nil {
				// Sealed under another server secret: it cannot be shown
				// or used; an admin enters it again.
				settings[field] = sealer.MaskPrefix
				continue
			}
			settings[field] = sealer.Mask(plain)
		}
	}
	out, err := json.Marshal(list)
	if err != nil {
		return "", err
	}
	return string(out), nil
}

// BankTransfer is the enabled bank_transfer gateway: the account customers
// send a manual deposit to. None of its fields is secret.
type BankTransfer struct {
	AccountName   string
	AccountNumber string
	BankName      string
	RoutingNumber string
	Instructions  string
}

// BankTransfer returns the bank_transfer gateway when an admin has enabled
// it, nil otherwise (none configured, or a stored list that does not parse).
func (s *Service) BankTransfer(ctx context.Context) (*BankTransfer, error) {
	var value string
	err := s.db.Bun.NewSelect().Model((*Setting)(nil)).Column("value").Where("key = ?", GatewaysKey).Scan(ctx, &value)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("settings: bank transfer gateway: %w", err)
	}
	list, err := parseGateways(value)
	if err != nil {
		return nil, nil
	}
	for _, g := range list {
		if active, _ := g["active"].(bool); !active || g.id() != "bank_transfer" || len(g.missingRequired()) > 0 {
			continue
		}
		field := func(name string) string { v, _ := g.settings()[name].(string); return strings.TrimSpace(v) }
		return &BankTransfer{AccountName: field("account_name"), AccountNumber: field("account_number"),
			BankName: field("bank_name"), RoutingNumber: field("routing_number"), Instructions: field("instructions")}, nil
	}
	return nil, nil
}
