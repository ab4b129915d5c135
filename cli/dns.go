package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nameport/nameport/sdk"
)

// NewCmdDNS returns `dns` and its subcommands.
func NewCmdDNS(opts *Options) *cobra.Command {
	cmd := groupCmd(&cobra.Command{
		Use:   "dns",
		Short: "Manage the DNS records of your domains",
		Example: `  nameportctl dns list example.inf.nz
  nameportctl dns upsert example.inf.nz --type A --name www --content 192.0.2.10
  nameportctl dns upsert example.inf.nz --type MX --name @ --content "10 mx1.example.net" --content "20 mx2.example.net"
  nameportctl dns template apply 4 example.inf.nz example.biz.ee`,
	})
	cmd.AddCommand(
		NewCmdDNSList(opts, nil),
		NewCmdDNSUpsert(opts, nil),
		NewCmdDNSDelete(opts, nil),
		NewCmdDNSTemplate(opts),
		NewCmdDNSDS(opts),
		NewCmdDNSKeys(opts),
	)
	return cmd
}

// DNSListOptions are the inputs of `dns list`.
type DNSListOptions struct {
	*Options
	Domain string
}

// NewCmdDNSList returns `dns list DOMAIN`.
func NewCmdDNSList(opts *Options, runF func(context.Context, *DNSListOptions) error) *cobra.Command {
	o := &DNSListOptions{Options: opts}
	return &cobra.Command{
		Use:     "list DOMAIN",
		Aliases: []string{"ls"},
		Short:   "List the DNS records of a domain",
		Example: `  nameportctl dns list example.inf.nz
  nameportctl dns list example.inf.nz --output json`,
		Args: exactArgs(1, "DOMAIN"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain = args[0]
			return run(cmd, o, runF, dnsListRun)
		},
	}
}

func dnsListRun(ctx context.Context, o *DNSListOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	records, err := client.DNS.List(ctx, o.Domain)
	if err != nil {
		return err
	}
	return display(o.Options, recordDisplay{records})
}

// DNSUpsertOptions are the inputs of `dns upsert`.
type DNSUpsertOptions struct {
	*Options
	Domain   string
	Type     string
	Name     string
	Contents []string
	// TTL is nil unless --ttl was given (the server's default, 3600).
	TTL *int
	// Priority is nil unless --priority was given: it is for the MX or
	// SRV contents that carry no priority of their own.
	Priority *int
}

// NewCmdDNSUpsert returns `dns upsert DOMAIN --type T --name N --content C…`.
func NewCmdDNSUpsert(opts *Options, runF func(context.Context, *DNSUpsertOptions) error) *cobra.Command {
	o := &DNSUpsertOptions{Options: opts}
	var priority, ttl int
	cmd := &cobra.Command{
		Use:   "upsert DOMAIN --type T --name N --content C [--content C2]...",
		Short: "Set every record of one name and type",
		Long: `Set the records of one name and type: afterwards exactly the given contents
exist for that name and type; records of that name and type not given are
removed. Prints the records of that name and type after the change (the
domain's other records are untouched and not shown; "nameportctl dns list"
shows them all).

--name is relative to the domain: @ is the domain itself, * the wildcard.

Each MX or SRV --content may carry its own priority, as in a zone file:
"10 mx1.example.net" (MX: priority host) or "10 5 5060 sip.example.net"
(SRV: priority weight port target); records that differ only in priority
are different records. --priority is for the contents that carry none.

Every record of a name and type has the same TTL (--ttl, default 3600).`,
		Example: `  nameportctl dns upsert example.inf.nz --type A --name www --content 192.0.2.10 --content 192.0.2.11
  nameportctl dns upsert example.inf.nz --type MX --name @ --content "10 mx1.example.net" --content "20 mx2.example.net"
  nameportctl dns upsert example.inf.nz --type MX --name @ --content mail.example.net --priority 10
  nameportctl dns upsert example.inf.nz --type SRV --name _sip._tcp --content "10 5 5060 sip1.example.net" --content "20 5 5060 sip2.example.net"
  nameportctl dns upsert example.inf.nz --type TXT --name @ --content "v=spf1 mx -all" --ttl 300`,
		Args: exactArgs(1, "DOMAIN"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain = args[0]
			o.Type = strings.ToUpper(o.Type)
			if cmd.Flags().Changed("priority") {
				o.Priority = &priority
			}
			if cmd.Flags().Changed("ttl") {
				o.TTL = &ttl
			}
			return run(cmd, o, runF, dnsUpsertRun)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Type, "type", "", "record type: A, AAAA, CNAME, MX, TXT, NS, SRV or CAA")
	f.StringVar(&o.Name, "name", "", "record name relative to the domain: @, www, *, a.b")
	f.StringArrayVar(&o.Contents, "content", nil, "record content (repeat for several records)")
	f.IntVar(&ttl, "ttl", 3600, "time to live in seconds, 300 to 604800, for every record of the set")
	f.IntVar(&priority, "priority", 0, "MX and SRV priority, 0 to 65535, for the contents that carry none of their own")
	for _, name := range []string{"type", "name", "content"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return cmd
}

func dnsUpsertRun(ctx context.Context, o *DNSUpsertOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	records, err := client.DNS.Upsert(ctx, o.Domain, sdk.RecordSet{
		Name: o.Name, Type: o.Type, Values: o.Contents, TTL: o.TTL, Priority: o.Priority,
	})
	if err != nil {
		return err
	}
	return display(o.Options, recordDisplay{records})
}

// DNSDeleteOptions are the inputs of `dns delete`.
type DNSDeleteOptions struct {
	*Options
	Domain string
	Type   string
	Name   string
}

// NewCmdDNSDelete returns `dns delete DOMAIN --type T --name N`.
func NewCmdDNSDelete(opts *Options, runF func(context.Context, *DNSDeleteOptions) error) *cobra.Command {
	o := &DNSDeleteOptions{Options: opts}
	cmd := &cobra.Command{
		Use:     "delete DOMAIN --type T --name N",
		Aliases: []string{"rm"},
		Short:   "Delete every record of one name and type",
		Example: `  nameportctl dns delete example.inf.nz --type A --name www
  nameportctl dns delete example.inf.nz --type TXT --name @`,
		Args: exactArgs(1, "DOMAIN"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain = args[0]
			o.Type = strings.ToUpper(o.Type)
			return run(cmd, o, runF, dnsDeleteRun)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Type, "type", "", "record type: A, AAAA, CNAME, MX, TXT, NS, SRV or CAA")
	f.StringVar(&o.Name, "name", "", "record name relative to the domain: @, www, *, a.b")
	_ = cmd.MarkFlagRequired("type")
	_ = cmd.MarkFlagRequired("name")
	return cmd
}

func dnsDeleteRun(ctx context.Context, o *DNSDeleteOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	if err := client.DNS.Delete(ctx, o.Domain, o.Type, o.Name); err != nil {
		return err
	}
	if o.Output == "table" {
		fmt.Fprintf(o.Out, "Deleted the %s records of %s in %s.\n", o.Type, o.Name, o.Domain)
	}
	return nil
}
