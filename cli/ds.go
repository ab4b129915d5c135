package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nameport/nameport/sdk"
)

// NewCmdDNSDS returns `dns ds` and its subcommands: the DS records of a
// delegated domain (its NS records point to other name servers).
func NewCmdDNSDS(opts *Options) *cobra.Command {
	cmd := groupCmd(&cobra.Command{
		Use:   "ds",
		Short: "Manage the DS records of a delegated domain (DNSSEC)",
		Example: `  nameportctl dns ds list example.inf.nz
  nameportctl dns ds add example.inf.nz 2371 13 2 1F987CC6583E92DF0890718C42C8E1C8E1C8E1C8E1C8E1C8E1C8E1C8E1C8E1C8
  nameportctl dns ds delete example.inf.nz 12`,
	})
	cmd.AddCommand(NewCmdDNSDSList(opts, nil), NewCmdDNSDSAdd(opts, nil), NewCmdDNSDSDelete(opts, nil))
	return cmd
}

// DNSDSOptions are the inputs of `dns ds list|add|delete`.
type DNSDSOptions struct {
	*Options
	Domain string
	Input  sdk.DSInput // add
	ID     int64       // delete
}

// NewCmdDNSDSList returns `dns ds list DOMAIN`.
func NewCmdDNSDSList(opts *Options, runF func(context.Context, *DNSDSOptions) error) *cobra.Command {
	o := &DNSDSOptions{Options: opts}
	return &cobra.Command{
		Use:     "list DOMAIN",
		Aliases: []string{"ls"},
		Short:   "List the DS records of a domain",
		Args:    exactArgs(1, "DOMAIN"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain = args[0]
			return run(cmd, o, runF, func(ctx context.Context, o *DNSDSOptions) error {
				client, err := o.client()
				if err != nil {
					return err
				}
				list, err := client.DNS.ListDS(ctx, o.Domain)
				if err != nil {
					return err
				}
				return display(o.Options, dsDisplay{list})
			})
		},
	}
}

// NewCmdDNSDSAdd returns `dns ds add DOMAIN KEYTAG ALGORITHM DIGESTTYPE
// DIGEST`: the four fields in the order a DS record (and every DNS
// operator's panel) shows them, so that one can be pasted.
func NewCmdDNSDSAdd(opts *Options, runF func(context.Context, *DNSDSOptions) error) *cobra.Command {
	o := &DNSDSOptions{Options: opts}
	return &cobra.Command{
		Use:   "add DOMAIN KEYTAG ALGORITHM DIGESTTYPE DIGEST",
		Short: "Add a DS record to a delegated domain",
		Args:  cobra.MinimumNArgs(5),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain = args[0]
			nums := make([]int, 3)
			for i, name := range []string{"KEYTAG", "ALGORITHM", "DIGESTTYPE"} {
				n, err := strconv.Atoi(args[1+i])
				if err != nil {
					return usageErrorf("%s must be a number, not %q", name, args[1+i])
				}
				nums[i] = n
			}
			o.Input = sdk.DSInput{KeyTag: nums[0], Algorithm: nums[1], DigestType: nums[2], Digest: strings.Join(args[4:], "")}
			return run(cmd, o, runF, func(ctx context.Context, o *DNSDSOptions) error {
				client, err := o.client()
				if err != nil {
					return err
				}
				ds, err := client.DNS.AddDS(ctx, o.Domain, o.Input)
				if err != nil {
					return err
				}
				return display(o.Options, dsDisplay{[]sdk.DS{*ds}})
			})
		},
	}
}

// NewCmdDNSDSDelete returns `dns ds delete DOMAIN ID`.
func NewCmdDNSDSDelete(opts *Options, runF func(context.Context, *DNSDSOptions) error) *cobra.Command {
	o := &DNSDSOptions{Options: opts}
	return &cobra.Command{
		Use:     "delete DOMAIN ID",
		Aliases: []string{"rm"},
		Short:   "Delete a DS record (its ID from dns ds list)",
		Args:    exactArgs(2, "DOMAIN ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain = args[0]
			id, err := strconv.ParseInt(args[1], 10, 64)
			if err != nil {
				return usageErrorf("ID must be a number, not %q", args[1])
			}
			o.ID = id
			return run(cmd, o, runF, func(ctx context.Context, o *DNSDSOptions) error {
				client, err := o.client()
				if err != nil {
					return err
				}
				if err := client.DNS.DeleteDS(ctx, o.Domain, o.ID); err != nil {
					return err
				}
				if o.Output == "table" {
					fmt.Fprintf(o.Out, "Deleted DS record %d of %s.\n", o.ID, o.Domain)
				}
				return nil
			})
		},
	}
}

// dsDisplay shows DS records.
type dsDisplay struct{ list []sdk.DS }

func (d dsDisplay) JSON() any {
	if d.list == nil {
		return []sdk.DS{}
	}
	return d.list
}

func (d dsDisplay) Table(w io.Writer) {
	row(w, "ID", "KEY TAG", "ALGORITHM", "DIGEST TYPE", "DIGEST")
	for _, ds := range d.list {
		row(w, strconv.FormatInt(ds.ID, 10), strconv.Itoa(ds.KeyTag), strconv.Itoa(ds.Algorithm), strconv.Itoa(ds.DigestType), ds.Digest)
	}
}
