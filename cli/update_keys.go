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

// NewCmdDNSKeys returns `dns keys` and its subcommands: the TSIG keys with
// which tools (certbot, lego, cert-manager, external-dns, nsupdate) change
// a domain's records by RFC 2136 dynamic update.
func NewCmdDNSKeys(opts *Options) *cobra.Command {
	cmd := groupCmd(&cobra.Command{
		Use:   "keys",
		Short: "Manage a domain's dynamic update (RFC 2136, TSIG) keys",
		Example: `  nameportctl dns keys add example.inf.nz certbot --name _acme-challenge --type TXT
  nameportctl dns keys list example.inf.nz
  nameportctl dns keys revoke example.inf.nz 3`,
	})
	cmd.AddCommand(NewCmdDNSKeysList(opts, nil), NewCmdDNSKeysAdd(opts, nil), NewCmdDNSKeysRevoke(opts, nil))
	return cmd
}

// DNSKeysOptions are the inputs of `dns keys list|add|revoke`.
type DNSKeysOptions struct {
	*Options
	Domain string
	Input  sdk.UpdateKeyInput // add
	ID     int64              // revoke
}

// NewCmdDNSKeysList returns `dns keys list DOMAIN`.
func NewCmdDNSKeysList(opts *Options, runF func(context.Context, *DNSKeysOptions) error) *cobra.Command {
	o := &DNSKeysOptions{Options: opts}
	return &cobra.Command{
		Use:     "list DOMAIN",
		Aliases: []string{"ls"},
		Short:   "List a domain's update keys",
		Args:    exactArgs(1, "DOMAIN"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain = args[0]
			return run(cmd, o, runF, func(ctx context.Context, o *DNSKeysOptions) error {
				client, err := o.client()
				if err != nil {
					return err
				}
				list, err := client.DNS.ListUpdateKeys(ctx, o.Domain)
				if err != nil {
					return err
				}
				return display(o.Options, updateKeysDisplay{list})
			})
		},
	}
}

// NewCmdDNSKeysAdd returns `dns keys add DOMAIN NAME`: the secret is
// printed once.
func NewCmdDNSKeysAdd(opts *Options, runF func(context.Context, *DNSKeysOptions) error) *cobra.Command {
	o := &DNSKeysOptions{Options: opts}
	cmd := &cobra.Command{
		Use:   "add DOMAIN NAME",
		Short: "Make an update key (its secret is shown this once)",
		Long: "Makes a TSIG key named NAME under DOMAIN (certbot.example.inf.nz.) that signs RFC 2136 updates of " +
			"DOMAIN's records, limited to the names (--name, relative: _acme-challenge, @) and types (--type) given; " +
			"without them it may change the whole domain.",
		Args: exactArgs(2, "DOMAIN NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain, o.Input.Name = args[0], args[1]
			return run(cmd, o, runF, func(ctx context.Context, o *DNSKeysOptions) error {
				client, err := o.client()
				if err != nil {
					return err
				}
				k, err := client.DNS.CreateUpdateKey(ctx, o.Domain, o.Input)
				if err != nil {
					return err
				}
				return display(o.Options, newUpdateKeyDisplay{k})
			})
		},
	}
	cmd.Flags().StringVar(&o.Input.Algorithm, "algorithm", "", "hmac-sha256 (default) or hmac-sha512")
	cmd.Flags().StringSliceVar(&o.Input.Names, "name", nil, "a name the key may change, relative to the domain (repeat; default: every name)")
	cmd.Flags().StringSliceVar(&o.Input.Types, "type", nil, "a record type the key may change (repeat; default: every type)")
	return cmd
}

// NewCmdDNSKeysRevoke returns `dns keys revoke DOMAIN ID`.
func NewCmdDNSKeysRevoke(opts *Options, runF func(context.Context, *DNSKeysOptions) error) *cobra.Command {
	o := &DNSKeysOptions{Options: opts}
	return &cobra.Command{
		Use:     "revoke DOMAIN ID",
		Aliases: []string{"rm", "delete"},
		Short:   "Revoke an update key (its ID from dns keys list)",
		Args:    exactArgs(2, "DOMAIN ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain = args[0]
			id, err := strconv.ParseInt(args[1], 10, 64)
			if err != nil {
				return usageErrorf("ID must be a number, not %q", args[1])
			}
			o.ID = id
			return run(cmd, o, runF, func(ctx context.Context, o *DNSKeysOptions) error {
				client, err := o.client()
				if err != nil {
					return err
				}
				if err := client.DNS.RevokeUpdateKey(ctx, o.Domain, o.ID); err != nil {
					return err
				}
				if o.Output == "table" {
					fmt.Fprintf(o.Out, "Revoked update key %d of %s.\n", o.ID, o.Domain)
				}
				return nil
			})
		},
	}
}

// updateKeysDisplay shows update keys.
type updateKeysDisplay struct{ list []sdk.UpdateKey }

func (d updateKeysDisplay) JSON() any {
	if d.list == nil {
		return []sdk.UpdateKey{}
	}
	return d.list
}

func (d updateKeysDisplay) Table(w io.Writer) {
	row(w, "ID", "KEY NAME", "ALGORITHM", "NAMES", "TYPES", "LAST USED")
	for _, k := range d.list {
		row(w, strconv.FormatInt(k.ID, 10), k.KeyName, k.Algorithm, orAll(k.Names), orAll(k.Types), lastUsed(k.LastUsedAt))
	}
}

func orAll(list []string) string {
	if len(list) == 0 {
		return "(all)"
	}
	return strings.Join(list, ",")
}

func lastUsed(t *time.Time) string {
	if t == nil {
		return "never"
	}
	return t.UTC().Format(time.RFC3339)
}

// newUpdateKeyDisplay shows a key just made, with its secret.
type newUpdateKeyDisplay struct{ k *sdk.NewUpdateKey }

func (d newUpdateKeyDisplay) JSON() any { return d.k }

func (d newUpdateKeyDisplay) Table(w io.Writer) {
	updateKeysDisplay{[]sdk.UpdateKey{d.k.Key}}.Table(w)
	fmt.Fprintf(w, "\nSecret (shown this once): %s\n", d.k.Secret)
	fmt.Fprintf(w, "nsupdate: nsupdate -y %s:%s:%s\n", d.k.Key.Algorithm, d.k.Key.KeyName, d.k.Secret)
}
