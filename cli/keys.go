package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nameport/nameport/sdk"
)

// NewCmdKeys returns `keys` and its subcommands.
func NewCmdKeys(opts *Options) *cobra.Command {
	cmd := groupCmd(&cobra.Command{
		Use:   "keys",
		Short: "Manage your API keys: scopes, allowed addresses, expiry",
		Long: `Manage your API keys. A key has scopes, which say what it may do:
  read      every read (lists, balances, records)
  dns       DNS record, email forwarding and domain forwarding changes
  register  domain checks and registrations
  wallet    deposits
It may be limited to client addresses and prefixes (--allow) and to a time
(--expires). A key's secret is shown once, when it is made or rotated; the
first key (Default) is also shown in the registrar dashboard's API Access tab.

Managing keys takes a key with every scope (the Default key has them).`,
		Example: `  nameportctl keys list
  nameportctl keys create ci-deploys --scope read --scope dns --allow 203.0.113.0/24 --expires 90d
  nameportctl keys rotate 12
  nameportctl keys revoke 12`,
	})
	cmd.AddCommand(
		NewCmdKeysList(opts, nil),
		NewCmdKeysCreate(opts, nil),
		NewCmdKeysRotate(opts, nil),
		NewCmdKeysRevoke(opts, nil),
	)
	return cmd
}

// NewCmdKeysList returns `keys list`.
func NewCmdKeysList(opts *Options, runF func(context.Context, *Options) error) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List your API keys",
		Long: `List your API keys that are not revoked, oldest first: each one's scopes, the
addresses it works from, its expiry and when it was last used (to the minute).
Secrets are never listed.`,
		Example: `  nameportctl keys list
  nameportctl keys list --output json`,
		Args: exactArgs(0, ""),
		RunE: func(cmd *cobra.Command, _ []string) error { return run(cmd, opts, runF, keysListRun) },
	}
}

func keysListRun(ctx context.Context, o *Options) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	keys, err := client.Keys.List(ctx)
	if err != nil {
		return err
	}
	return display(o, keyDisplay{keys: keys, now: time.Now()})
}

// KeysCreateOptions are the inputs of `keys create`.
type KeysCreateOptions struct {
	*Options
	Request sdk.APIKeyRequest
	// Expires is --expires as given; Now is the clock it counts from.
	Expires string
	Now     func() time.Time
}

// NewCmdKeysCreate returns `keys create NAME --scope S... [--allow A]... [--expires E]`.
func NewCmdKeysCreate(opts *Options, runF func(context.Context, *KeysCreateOptions) error) *cobra.Command {
	o := &KeysCreateOptions{Options: opts, Now: time.Now}
	cmd := &cobra.Command{
		Use:   "create NAME --scope read|dns|register|wallet... [--allow ADDRESS|PREFIX]... [--expires WHEN]",
		Short: "Make an API key and show its secret, once",
		Long: `Make an API key named NAME with the scopes given (at least one; repeat --scope
or separate them with commas). --allow limits it to client addresses or
prefixes, IPv4 or IPv6 (repeatable); --expires ends it at a date
(2026-12-31, midnight local time), a time (2026-12-31T18:00:00Z) or after a
while (90d, 12h).

The secret is printed this once: store it where your program reads it.`,
		Example: `  nameportctl keys create reports --scope read
  nameportctl keys create ci-deploys --scope read,dns --allow 203.0.113.0/24 --allow 2001:db8::/32 --expires 90d
  nameportctl keys create billing --scope wallet --expires 2026-12-31 --output json`,
		Args: exactArgs(1, "NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Request.Name = args[0]
			if len(o.Request.Scopes) == 0 {
				return usageErrorf("choose what the key may do with --scope: read, dns, register or wallet")
			}
			if o.Expires != "" {
				at, err := parseExpiry(o.Expires, o.Now())
				if err != nil {
					return err
				}
				o.Request.ExpiresAt = &at
			}
			return run(cmd, o, runF, keysCreateRun)
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&o.Request.Scopes, "scope", nil, "what the key may do: read, dns, register, wallet (repeatable, or comma-separated)")
	f.StringArrayVar(&o.Request.AllowedAddresses, "allow", nil, "a client address or prefix the key works from (repeatable); none: anywhere")
	f.StringVar(&o.Expires, "expires", "", "when the key stops working: a date, an RFC 3339 time, or a duration like 90d or 12h; none: never")
	return cmd
}

// parseExpiry reads --expires: a date (midnight, local time), an RFC 3339
// time, or a while from now (90d, 12h, 30m).
func parseExpiry(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n > 0 && n <= 36500 {
			return now.Add(time.Duration(n) * 24 * time.Hour), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return now.Add(d), nil
	}
	if t, err := time.ParseInLocation(time.DateOnly, s, time.Local); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, usageErrorf("--expires must be a date (2026-12-31), a time (2026-12-31T18:00:00Z) or a while (90d, 12h), not %q", s)
}

func keysCreateRun(ctx context.Context, o *KeysCreateOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	k, err := client.Keys.Create(ctx, o.Request)
	if err != nil {
		return err
	}
	return display(o.Options, newKeyDisplay{k: k, now: o.Now()})
}

// KeyIDOptions are the inputs of `keys rotate` and `keys revoke`.
type KeyIDOptions struct {
	*Options
	ID int64
}

// keyIDArg reads the ID argument of a key command.
func keyIDArg(o *KeyIDOptions) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := exactArgs(1, "ID")(cmd, args); err != nil {
			return err
		}
		id, err := strconv.ParseInt(args[0], 10, 64)
		if err != nil || id <= 0 {
			return usageErrorf("ID must be a key's number, as keys list shows it, not %q", args[0])
		}
		o.ID = id
		return nil
	}
}

// NewCmdKeysRotate returns `keys rotate ID`.
func NewCmdKeysRotate(opts *Options, runF func(context.Context, *KeyIDOptions) error) *cobra.Command {
	o := &KeyIDOptions{Options: opts}
	return &cobra.Command{
		Use:   "rotate ID",
		Short: "Give an API key a new secret and show it, once",
		Long: `Give key ID a new secret, printed this once; the old secret stops working at
once. Name, scopes, addresses and expiry stay. Rotating the key nameportctl
itself uses leaves it with a key that no longer works: use the new one.`,
		Example: `  nameportctl keys rotate 12
  nameportctl keys rotate 12 --output json`,
		Args: keyIDArg(o),
		RunE: func(cmd *cobra.Command, _ []string) error { return run(cmd, o, runF, keysRotateRun) },
	}
}

func keysRotateRun(ctx context.Context, o *KeyIDOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	k, err := client.Keys.Rotate(ctx, o.ID)
	if err != nil {
		return err
	}
	return display(o.Options, newKeyDisplay{k: k, now: time.Now()})
}

// NewCmdKeysRevoke returns `keys revoke ID`.
func NewCmdKeysRevoke(opts *Options, runF func(context.Context, *KeyIDOptions) error) *cobra.Command {
	o := &KeyIDOptions{Options: opts}
	return &cobra.Command{
		Use:     "revoke ID",
		Aliases: []string{"rm"},
		Short:   "Revoke an API key for good",
		Long: `Revoke key ID: it stops working at once and for good. The first key (Default)
can be rotated but not revoked.`,
		Example: `  nameportctl keys revoke 12`,
		Args:    keyIDArg(o),
		RunE:    func(cmd *cobra.Command, _ []string) error { return run(cmd, o, runF, keysRevokeRun) },
	}
}

func keysRevokeRun(ctx context.Context, o *KeyIDOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	if err := client.Keys.Revoke(ctx, o.ID); err != nil {
		return err
	}
	if o.Output == "table" {
		fmt.Fprintf(o.Out, "Revoked key %d.\n", o.ID)
	}
	return nil
}

// keyDisplay shows API keys.
type keyDisplay struct {
	keys []sdk.APIKey
	now  time.Time
}

func (d keyDisplay) JSON() any {
	if d.keys == nil {
		return []sdk.APIKey{}
	}
	return d.keys
}

func (d keyDisplay) Table(w io.Writer) {
	row(w, "ID", "NAME", "SCOPES", "ALLOWED FROM", "EXPIRES", "LAST USED")
	for _, k := range d.keys {
		name := k.Name
		if k.Primary {
			name += " (dashboard)"
		}
		lastUsed := "never"
		if k.LastUsedAt != nil {
			lastUsed = k.LastUsedAt.Local().Format("2006-01-02 15:04")
		}
		row(w, strconv.FormatInt(k.ID, 10), name, strings.Join(k.Scopes, ","), allowedFrom(k), expiry(k, d.now), lastUsed)
	}
}

// newKeyDisplay shows a key just made or rotated, with its secret.
type newKeyDisplay struct {
	k   *sdk.NewAPIKey
	now time.Time
}

func (d newKeyDisplay) JSON() any { return d.k }

func (d newKeyDisplay) Table(w io.Writer) {
	k := d.k.Key
	row(w, "ID", "NAME", "SCOPES", "ALLOWED FROM", "EXPIRES")
	row(w, strconv.FormatInt(k.ID, 10), k.Name, strings.Join(k.Scopes, ","), allowedFrom(k), expiry(k, d.now))
	fmt.Fprintf(w, "\nSecret: %s\nThis is the only time it is shown: store it now.\n", d.k.Secret)
}

func allowedFrom(k sdk.APIKey) string {
	if len(k.AllowedAddresses) == 0 {
		return "anywhere"
	}
	return strings.Join(k.AllowedAddresses, ",")
}

func expiry(k sdk.APIKey, now time.Time) string {
	switch {
	case k.ExpiresAt == nil:
		return "never"
	case !k.ExpiresAt.After(now):
		return "expired " + k.ExpiresAt.Local().Format("2006-01-02 15:04")
	}
	return k.ExpiresAt.Local().Format("2006-01-02 15:04")
}
