package sdk

import "time"

// These are the wire types of the /v1 API. The server encodes its answers
// with these same types, so the SDK and the server cannot drift apart.
// Money is in US dollars as JSON numbers (8 means $8.00); the server keeps
// cents internally and never sends more than two decimals.

// CheckRequest asks whether a domain can be registered.
type CheckRequest struct {
	Domain string `json:"domain" doc:"The full name: label and extension" example:"example.inf.nz"`
}

// Availability is the answer to a domain check.
type Availability struct {
	Domain    string `json:"domain" example:"example.inf.nz"`
	Name      string `json:"name" doc:"The label, lower case" example:"example"`
	Extension string `json:"extension" doc:"The extension with its leading dot" example:".inf.nz"`
	Available bool   `json:"available"`
	// Reason says why a name is not available: registered, reserved or
	// premium_reserved. Empty when it is available.
	Reason    string  `json:"reason,omitempty" enum:"registered,reserved,premium_reserved" doc:"Why the name is not available"`
	IsPremium bool    `json:"isPremium"`
	Price     float64 `json:"price" doc:"Yearly price in US dollars for your account (wholesale for registrars)" example:"6"`
	Currency  string  `json:"currency" example:"USD"`
}

// RegisterRequest asks to register a domain and pay for it from the wallet.
type RegisterRequest struct {
	Domain string `json:"domain" example:"example.inf.nz"`
	// Years is 1 to 10; nil means 1 and is not sent. The server answers
	// any other number, 0 included, with a CodeInvalid error. Set it
	// with Int: Years: sdk.Int(2).
	Years *int `json:"years,omitempty" doc:"1 to 10; absent means 1 (0 is invalid, not the default)"`
	// Nameservers, when given, become the domain's NS records: the domain
	// is then delegated to them.
	Nameservers []string `json:"nameservers,omitempty" maxItems:"13" doc:"Host names; they become the domain's NS records"`
	// AutoRenew renews the domain from the wallet before it expires; nil
	// means on.
	AutoRenew *bool `json:"autoRenew,omitempty" doc:"Renew automatically from the wallet (default true)"`
}

// Domain is a registered domain.
type Domain struct {
	ID           int64     `json:"id"`
	Domain       string    `json:"domain" example:"example.inf.nz"`
	Name         string    `json:"name" example:"example"`
	Extension    string    `json:"extension" example:".inf.nz"`
	IsPremium    bool      `json:"isPremium"`
	Price        float64   `json:"price" doc:"Yearly price paid, in US dollars" example:"6"`
	AutoRenew    bool      `json:"autoRenew"`
	Nameservers  []string  `json:"nameservers" doc:"The NS records at the domain's apex; empty when Nameport's DNS serves it"`
	RegisteredAt time.Time `json:"registeredAt"`
	ExpiresAt    time.Time `json:"expiresAt"`
	// Status is active, expiring_soon (within 30 days) or expired (no
	// longer resolves; renewable until GraceEndsAt, then released).
	Status      string    `json:"status" enum:"active,expiring_soon,expired"`
	GraceEndsAt time.Time `json:"graceEndsAt" doc:"An expired domain is released after this"`
}

// Registration is the outcome of registering a domain: the domain, its
// charge, and the wallet after it.
type Registration struct {
	Domain      Domain      `json:"domain"`
	Transaction Transaction `json:"transaction"`
	Wallet      Wallet      `json:"wallet"`
}

// DomainPage is one page of domains, oldest first.
type DomainPage struct {
	Domains []Domain `json:"domains"`
	// NextCursor fetches the next page; empty on the last page.
	NextCursor string `json:"nextCursor,omitempty"`
}

// Record is one DNS record of a domain.
type Record struct {
	ID       int64  `json:"id"`
	Name     string `json:"name" doc:"Relative to the domain: @, www, *, a.b" example:"www"`
	Type     string `json:"type" enum:"A,AAAA,CNAME,MX,TXT,NS,SRV,CAA" example:"A"`
	Content  string `json:"content" example:"192.0.2.10"`
	TTL      int    `json:"ttl" example:"3600"`
	Priority *int   `json:"priority,omitempty" doc:"MX and SRV only"`
}

// RecordList is records of a domain, the apex first, then by name and
// type: all of them (List), or the one set an Upsert wrote.
type RecordList struct {
	Records []Record `json:"records"`
}

// RecordSet is every record of one name and type. Upserting a set replaces
// all records of that name and type with its values.
//
// Each MX or SRV value may carry its own priority, as in a zone file:
// "10 mx1.example.com" (MX: priority host), "10 5 5060 sip.example.com"
// (SRV: priority weight port target). Records that differ only in priority
// are different records.
type RecordSet struct {
	Name string `json:"name" doc:"Relative to the domain: @, www, *, a.b" example:"www"`
	Type string `json:"type" enum:"A,AAAA,CNAME,MX,TXT,NS,SRV,CAA" example:"A"`
	// Values are the records' contents: for MX "10 mx1.example.com" or a
	// host alone (with Priority), for SRV "10 5 5060 sip.example.com" or
	// "5 5060 sip.example.com" (with Priority).
	Values []string `json:"values" minItems:"1" maxItems:"100" doc:"The content of each record. An MX value may carry its own priority (\"10 mx1.example.com\") and an SRV value its priority, weight and port (\"10 5 5060 sip.example.com\"); a value without a priority takes the set's" example:"[\"192.0.2.10\",\"192.0.2.11\"]"`
	// TTL is in seconds, 300 to 604800, one for every record of the set
	// (RFC 2181 section 5.2); nil means 3600 and is not sent. Set it with
	// Int: TTL: sdk.Int(300).
	TTL *int `json:"ttl,omitempty" doc:"Seconds, 300 to 604800, for every record of the set (the records of one name and type share one TTL); absent means 3600 (0 is invalid, not the default)"`
	// Priority is for the MX or SRV values that carry none. A value that
	// carries a different one is refused (CodeInvalid).
	Priority *int `json:"priority,omitempty" doc:"MX and SRV: 0 to 65535, for the values that carry no priority of their own; a value carrying a different one is refused"`
}

// EmailForwarding is a domain's email forwarding: whether mail for it is
// taken and forwarded, and the rules that say where it goes.
type EmailForwarding struct {
	Enabled bool `json:"enabled" doc:"The domain's MX record names Nameport's mail server, which forwards its mail by the rules"`
	// MailHost is the mail server the domain's MX record names while
	// forwarding is on.
	MailHost string `json:"mailHost" doc:"The mail server the domain's MX record names while forwarding is on" example:"mx.inf.nz"`
	// Replaces are the domain's mail records of another service (an MX, an
	// SPF record) that turning forwarding on would replace: SetEmailForwarding
	// refuses (CodeConflict) unless told to replace them.
	Replaces []string         `json:"replaces" nullable:"false" doc:"Mail records of another service (MX, SPF) that turning forwarding on replaces; it is refused (409) unless replaceMailRecords is set" example:"[\"MX 10 mail.example.net\"]"`
	Rules    []ForwardingRule `json:"rules" nullable:"false" doc:"The catch-all (*) last"`
	MaxRules int              `json:"maxRules" doc:"How many rules the domain may have" example:"100"`
}

// EmailForwardingSettings turn a domain's email forwarding on or off.
type EmailForwardingSettings struct {
	Enabled bool `json:"enabled" doc:"On: add the MX record naming Nameport's mail server and the SPF record v=spf1 mx ~all. Off: remove those two; the rules stay for next time"`
	// ReplaceMailRecords lets turning forwarding on remove the domain's
	// mail records of another service (EmailForwarding.Replaces).
	ReplaceMailRecords bool `json:"replaceMailRecords,omitempty" doc:"Turning on: remove the domain's MX and SPF records of another mail service (without it they make a 409 naming them)"`
}

// ForwardingRule sends the mail of one address of a domain (or of every
// address no other rule names, "*") to other addresses.
type ForwardingRule struct {
	ID           int64                   `json:"id"`
	Alias        string                  `json:"alias" doc:"The local part (before the @), lower case, or * for every address no other rule names" example:"info"`
	Destinations []ForwardingDestination `json:"destinations" nullable:"false"`
	CreatedAt    time.Time               `json:"createdAt"`
}

// ForwardingDestination is an address a rule forwards to. It receives
// nothing until its reader follows the confirmation link mailed to it.
type ForwardingDestination struct {
	Address  string `json:"address" example:"you@example.com"`
	Verified bool   `json:"verified" doc:"Its reader followed the confirmation link mailed to it; until then it receives nothing"`
}

// ForwardingRuleRequest adds a rule. The server judges the alias and the
// addresses (CodeInvalid with a message saying what is wrong).
type ForwardingRuleRequest struct {
	// The limits of the schema are loose on purpose: the server's own
	// checks say what is wrong in words (at most 64 characters, 10
	// addresses).
	Alias        string   `json:"alias" maxLength:"200" doc:"Letters, digits, dots, hyphens, underscores or plus signs, at most 64 characters; * for every address no other rule names" example:"info"`
	Destinations []string `json:"destinations" maxItems:"1000" doc:"1 to 10 addresses, ASCII (an internationalized domain in its xn-- form), none at the domain itself. A new address gets a confirmation link and receives nothing until its reader follows it" example:"[\"you@example.com\"]"`
}

// ForwardingLog is a domain's last 100 forwarded, failed and refused
// messages, newest first.
type ForwardingLog struct {
	Entries []ForwardingLogEntry `json:"entries" nullable:"false"`
}

// ForwardingLogEntry is one message of a domain's forwarding log.
type ForwardingLogEntry struct {
	Time time.Time `json:"time"`
	From string    `json:"from" doc:"The envelope sender; empty for a bounce"`
	To   string    `json:"to" doc:"The address at the domain it was sent to"`
	// ForwardTo is the destination it was forwarded to (empty for a
	// refusal).
	ForwardTo string `json:"forwardTo,omitempty" doc:"The destination it was forwarded to; absent for a refusal"`
	Size      int64  `json:"size" doc:"Bytes"`
	Outcome   string `json:"outcome" enum:"forwarded,failed,refused"`
	Detail    string `json:"detail,omitempty" doc:"Why it failed or was refused"`
}

// DomainForwarding is a domain's web forwarding: the host names of the
// domain that redirect to another website, over HTTP and HTTPS.
type DomainForwarding struct {
	Forwards []DomainForward `json:"forwards" nullable:"false" doc:"The domain itself (@) first, then by host"`
	MaxRules int             `json:"maxRules" doc:"How many host names of the domain may forward" example:"20"`
	// Addresses are the forwarding servers' addresses: a forwarded host's
	// A and AAAA records point there.
	Addresses []string `json:"addresses" nullable:"false" doc:"The forwarding servers' addresses: a forwarded host's A/AAAA records point there" example:"[\"192.0.2.80\"]"`
}

// DomainForward is one host name of a domain that redirects elsewhere.
type DomainForward struct {
	ID        int64  `json:"id"`
	Host      string `json:"host" doc:"Relative to the domain: @ for the domain itself, www, shop" example:"www"`
	Name      string `json:"name" doc:"The full host name" example:"www.example.inf.nz"`
	Target    string `json:"target" doc:"Where requests go" example:"https://example.com/"`
	Status    int    `json:"status" enum:"301,302,307,308" doc:"The redirect's status code" example:"301"`
	KeepPath  bool   `json:"keepPath" doc:"The request's path is added to the target's"`
	KeepQuery bool   `json:"keepQuery" doc:"The request's query string is added to the target's"`
	// Certificate is the state of the host's HTTPS certificate.
	Certificate ForwardCertificate `json:"certificate"`
	CreatedAt   time.Time          `json:"createdAt"`
	UpdatedAt   time.Time          `json:"updatedAt"`
}

// ForwardCertificate is the state of a forwarded host's HTTPS certificate,
// which the forwarding servers obtain from an ACME CA (Let's Encrypt).
type ForwardCertificate struct {
	State string `json:"state" enum:"pending,issued,failed" doc:"pending: not issued yet; issued: valid until notAfter; failed: the CA refused, error says why"`
	// NotAfter is when the certificate expires (it is renewed well before).
	NotAfter *time.Time `json:"notAfter,omitempty" doc:"When the certificate expires; it is renewed well before"`
	Error    string     `json:"error,omitempty" doc:"The CA's message about the last failed attempt"`
}

// DomainForwardRequest sets where a host name of a domain forwards to. The
// server judges the target (CodeInvalid with a message saying what is
// wrong).
type DomainForwardRequest struct {
	// The target's limit in the schema is loose on purpose: the server's
	// own check says what is wrong in words.
	Target string `json:"target" maxLength:"20000" doc:"An absolute http or https URL to a public host name, at most 2,000 characters" example:"https://example.com/"`
	// Status is 301, 302, 307 or 308; 0 means 302.
	Status    int  `json:"status,omitempty" doc:"301, 302, 307 or 308; absent: 302 (temporary, so that browsers do not remember it)" example:"301"`
	KeepPath  bool `json:"keepPath,omitempty" doc:"Add the request's path to the target's"`
	KeepQuery bool `json:"keepQuery,omitempty" doc:"Add the request's query string to the target's"`
	// ReplaceRecords lets the forward replace the host's records
	// (DomainForwardPreview.Replaces); without it they make a CodeConflict.
	ReplaceRecords bool `json:"replaceRecords,omitempty" doc:"Replace the host's A, AAAA or CNAME records (see the preview); without it they make a 409 naming them"`
}

// DomainForwardPreview says what forwarding a host changes in its DNS
// records, before asking.
type DomainForwardPreview struct {
	Host     string   `json:"host" example:"www"`
	Name     string   `json:"name" example:"www.example.inf.nz"`
	Adds     []string `json:"adds" nullable:"false" doc:"Records forwarding adds" example:"[\"A 192.0.2.80\"]"`
	Replaces []string `json:"replaces" nullable:"false" doc:"Records of the host that forwarding replaces: setting it without replaceRecords is refused (409) while there are any" example:"[\"A 203.0.113.7\"]"`
}

// Wallet is the prepaid balance that pays for registrations and renewals.
type Wallet struct {
	Balance  float64 `json:"balance" doc:"US dollars" example:"50"`
	Currency string  `json:"currency" example:"USD"`
}

// Allowance is your new registrations this calendar month (UTC) against
// your registrar tier's monthly allowance (basic 100, premium 500,
// enterprise unlimited). Renewals do not count; a domain released later
// still counts in the month it was registered. A registration beyond the
// allowance is refused with CodeAllowanceExhausted.
type Allowance struct {
	Tier string `json:"tier" enum:"basic,premium,enterprise" doc:"Your registrar tier"`
	// Limit is nil when the tier has no limit.
	Limit *int `json:"limit" doc:"New registrations your tier allows a calendar month (UTC); null means unlimited" example:"100"`
	Used  int  `json:"used" doc:"New registrations this month; renewals do not count" example:"37"`
	// Remaining is nil when the tier has no limit.
	Remaining   *int      `json:"remaining" doc:"New registrations left this month; null means unlimited" example:"63"`
	PeriodStart time.Time `json:"periodStart" doc:"The start of this month (UTC)" example:"2026-11-01T00:00:00Z"`
	ResetsAt    time.Time `json:"resetsAt" doc:"When used starts again from 0: the start of next month (UTC)" example:"2026-12-01T00:00:00Z"`
}

// DepositRequest adds funds to the wallet.
type DepositRequest struct {
	Amount float64 `json:"amount" doc:"US dollars, at least 1, at most 2 decimals" example:"50"`
	// PaymentMethod is credit_card (default) or bank_transfer; paypal and
	// upi are refused until the platform has a provider for them.
	PaymentMethod string `json:"paymentMethod,omitempty" doc:"credit_card (default) or bank_transfer where the site takes bank transfers; paypal and upi are refused until they have a provider"`
}

// Deposit is the outcome of a deposit: its transaction (completed, or
// pending until the payment provider confirms it) and the wallet after it.
type Deposit struct {
	Transaction Transaction `json:"transaction"`
	Wallet      Wallet      `json:"wallet"`
	// ClientSecret and PaymentIntentID are set for a credit_card deposit on
	// a server that takes cards through Stripe: the deposit stays pending
	// until the PaymentIntent is paid, e.g. with Stripe.js and this secret.
	ClientSecret    string `json:"clientSecret,omitempty"`
	PaymentIntentID string `json:"paymentIntentId,omitempty"`
}

// Transaction is one entry of the wallet's ledger.
type Transaction struct {
	ID            int64     `json:"id"`
	Type          string    `json:"type" enum:"deposit,withdrawal,domain_purchase,domain_renewal"`
	Amount        float64   `json:"amount" doc:"US dollars; negative for debits" example:"-6"`
	Status        string    `json:"status" enum:"pending,completed,failed"`
	PaymentMethod string    `json:"paymentMethod" doc:"A deposit method, or wallet for debits"`
	Description   string    `json:"description"`
	DomainID      *int64    `json:"domainId,omitempty" doc:"The domain it paid for"`
	CreatedAt     time.Time `json:"createdAt"`
}

// TransactionPage is one page of transactions, newest first.
type TransactionPage struct {
	Transactions []Transaction `json:"transactions"`
	// NextCursor fetches the next page; empty on the last page.
	NextCursor string `json:"nextCursor,omitempty"`
}

// Scopes of API keys: what a key may do on /v1. Every read (GET) needs
// ScopeRead; record, email forwarding and domain forwarding changes
// ScopeDNS; domain checks and registrations ScopeRegister; deposits
// ScopeWallet. Managing keys (KeysService) needs every scope.
const (
	ScopeRead     = "read"
	ScopeDNS      = "dns"
	ScopeRegister = "register"
	ScopeWallet   = "wallet"
)

// APIKey is one of your API keys: what it may do, from where and until
// when. The key itself is not in it: it is shown once, in NewAPIKey, when
// the key is made or rotated (the first key, named Default, is also shown
// in the registrar dashboard's API Access tab).
type APIKey struct {
	ID     int64    `json:"id"`
	Name   string   `json:"name" example:"CI deploys"`
	Scopes []string `json:"scopes" nullable:"false" enum:"read,dns,register,wallet" doc:"What the key may do: read (every GET), dns (record and forwarding changes), register (domain checks and registrations), wallet (deposits)" example:"[\"read\",\"dns\"]"`
	// AllowedAddresses are the client addresses and prefixes the key works
	// from; empty: from anywhere.
	AllowedAddresses []string   `json:"allowedAddresses" nullable:"false" doc:"Client addresses and prefixes (CIDR) the key works from; empty: anywhere" example:"[\"203.0.113.0/24\",\"2001:db8::1\"]"`
	ExpiresAt        *time.Time `json:"expiresAt,omitempty" doc:"When the key stops working; absent: never"`
	CreatedAt        time.Time  `json:"createdAt"`
	// LastUsedAt is written at most once a minute: it may be up to a
	// minute behind.
	LastUsedAt *time.Time `json:"lastUsedAt,omitempty" doc:"When the key was last used, to the minute; absent: never"`
	// Primary marks the key made with the account: it has every scope, the
	// dashboard's API Access tab shows it, and it can be rotated but not
	// revoked.
	Primary bool `json:"primary" doc:"The key made with the account (Default): every scope, shown in the API Access tab; rotated, never revoked"`
}

// APIKeyList is your API keys, oldest first; revoked keys are not in it.
type APIKeyList struct {
	Keys []APIKey `json:"keys" nullable:"false"`
}

// APIKeyRequest makes an API key.
type APIKeyRequest struct {
	Name   string   `json:"name" maxLength:"64" doc:"A name to tell the key by, 1 to 64 characters" example:"CI deploys"`
	Scopes []string `json:"scopes" nullable:"false" minItems:"1" maxItems:"4" enum:"read,dns,register,wallet" doc:"What the key may do (at least one): read, dns, register, wallet" example:"[\"read\",\"dns\"]"`
	// AllowedAddresses limit the key to clients at these addresses or in
	// these prefixes, IPv4 or IPv6 ("203.0.113.7", "203.0.113.0/24",
	// "2001:db8::/32"); none: anywhere.
	AllowedAddresses []string `json:"allowedAddresses,omitempty" maxItems:"20" doc:"Client addresses or prefixes the key works from (IPv4 or IPv6, like 203.0.113.7, 203.0.113.0/24 or 2001:db8::/32); absent or empty: anywhere" example:"[\"203.0.113.0/24\"]"`
	// ExpiresAt, when set, is when the key stops working; it must be in
	// the future.
	ExpiresAt *time.Time `json:"expiresAt,omitempty" doc:"When the key stops working (in the future); absent: never"`
}

// NewAPIKey is a key just made or rotated, with its secret: the only time
// the secret is shown. Keep it safe; it cannot be read again.
type NewAPIKey struct {
	Key    APIKey `json:"key"`
	Secret string `json:"secret" doc:"The API key itself, shown this once: send it as X-API-Key or Authorization: Bearer" example:"np_0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0123"`
}

// Problem is an error answer of the API (RFC 9457 problem details).
type Problem struct {
	Type      string          `json:"type,omitempty" doc:"about:blank: the status and code say it all"`
	Title     string          `json:"title" doc:"The HTTP status text" example:"Payment Required"`
	Status    int             `json:"status" example:"402"`
	Detail    string          `json:"detail" doc:"What went wrong, fit to show a person"`
	Code      string          `json:"code" doc:"Stable machine-readable code" example:"insufficient_funds"`
	RequestID string          `json:"requestId,omitempty" doc:"Quote it when asking for support"`
	Errors    []ProblemDetail `json:"errors,omitempty" doc:"Which input fields are wrong, for validation errors"`
	// Needed and Balance come with insufficient_funds (402): the US
	// dollars missing (to add to the wallet) and the wallet's balance.
	Needed  *float64 `json:"needed,omitempty" doc:"insufficient_funds (402) only: US dollars missing, to add to the wallet" example:"6"`
	Balance *float64 `json:"balance,omitempty" doc:"insufficient_funds (402) only: the wallet's balance in US dollars" example:"10"`
}

// ProblemDetail names one invalid input.
type ProblemDetail struct {
	Location string `json:"location,omitempty" example:"body.domain"`
	Message  string `json:"message"`
}

// Error codes of Problem.Code.
const (
	CodeInvalid               = "invalid"
	CodeUnauthenticated       = "unauthenticated"
	CodeForbidden             = "forbidden"
	CodeNotFound              = "not_found"
	CodeConflict              = "conflict"
	CodeInsufficientFunds     = "insufficient_funds"
	CodeTooManyRequests       = "too_many_requests"
	CodeIdempotencyKeyReused  = "idempotency_key_reused"
	CodeIdempotencyInProgress = "idempotency_in_progress"
	CodeRequestTooLarge       = "request_too_large"
	CodeUnavailable           = "unavailable"
	CodeInternal              = "internal"
	// CodeAllowanceExhausted (403): your tier's new registrations for
	// this month are used up; see DomainsService.Allowance for when they
	// reset.
	CodeAllowanceExhausted = "allowance_exhausted"
)

// Int returns a pointer to v, for the optional numbers of requests
// (RegisterRequest.Years, RecordSet.TTL), where nil means the server's
// default and any number is sent as it is.
func Int(v int) *int { return &v }
