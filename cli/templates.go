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

// NewCmdDNSTemplate returns `dns template` and its subcommands: saved sets
// of DNS records applied to many domains by a background job.
func NewCmdDNSTemplate(opts *Options) *cobra.Command {
	cmd := groupCmd(&cobra.Command{
		Use:     "template",
		Aliases: []string{"templates"},
		Short:   "Save sets of DNS records and apply them to many domains",
		Long: `A DNS template is a saved set of records, written like the web's
"name type value" lines. Applying it to domains replaces, on each domain,
the records of every name and type it has, all at once: a domain that cannot
take one of its sets (a CNAME beside other records) keeps its records, and
its row says why.`,
		Example: `  nameportctl dns template create "Web hosting" --record "@ A 192.0.2.10" --record "www CNAME example.inf.nz."
  nameportctl dns template list
  nameportctl dns template apply 4 example.inf.nz example.biz.ee
  nameportctl dns template apply 4 --file domains.csv
  nameportctl dns template delete 4`,
	})
	cmd.AddCommand(
		NewCmdDNSTemplateList(opts, nil),
		NewCmdDNSTemplateCreate(opts, nil),
		NewCmdDNSTemplateDelete(opts, nil),
		NewCmdDNSTemplateApply(opts, nil),
	)
	return cmd
}

// NewCmdDNSTemplateList returns `dns template list`.
func NewCmdDNSTemplateList(opts *Options, runF func(context.Context, *Options) error) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List your DNS templates",
		Example: `  nameportctl dns template list --output json`,
		Args:    exactArgs(0, ""),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return run(cmd, opts, runF, func(ctx context.Context, o *Options) error {
				client, err := o.client()
				if err != nil {
					return err
				}
				list, err := client.Bulk.Templates(ctx)
				if err != nil {
					return err
				}
				return display(o, templateDisplay{list})
			})
		},
	}
}

// DNSTemplateCreateOptions are the inputs of `dns template create`.
type DNSTemplateCreateOptions struct {
	*Options
	Name    string
	Records []string
	TTL     *int
}

// NewCmdDNSTemplateCreate returns `dns template create NAME --record LINE...`.
func NewCmdDNSTemplateCreate(opts *Options, runF func(context.Context, *DNSTemplateCreateOptions) error) *cobra.Command {
	o := &DNSTemplateCreateOptions{Options: opts}
	var ttl int
	cmd := &cobra.Command{
		Use:   "create NAME --record \"NAME TYPE VALUE\"...",
		Short: "Save a DNS template",
		Long: `Save a template named NAME. Each --record is "name type value", the name
relative to each domain (@, www, *): "@ MX 10 mail.example.net" keeps its
priority; records of the same name and type make one set. --ttl is for every
set (default 3600).`,
		Example: `  nameportctl dns template create "Mail" --record "@ MX 10 mx1.example.net" --record "@ MX 20 mx2.example.net" --record "@ TXT v=spf1 mx -all"`,
		Args:    exactArgs(1, "NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Name = args[0]
			if cmd.Flags().Changed("ttl") {
				o.TTL = &ttl
			}
			return run(cmd, o, runF, dnsTemplateCreateRun)
		},
	}
	cmd.Flags().StringArrayVar(&o.Records, "record", nil, `a record as "name type value" (repeat for several)`)
	cmd.Flags().IntVar(&ttl, "ttl", 3600, "time to live in seconds, 300 to 604800, for every set")
	_ = cmd.MarkFlagRequired("record")
	return cmd
}

// recordSets groups lines of "name type value" into record sets, in the
// order their name and type first appear.
func recordSets(lines []string, ttl *int) ([]sdk.RecordSet, error) {
	var sets []sdk.RecordSet
	index := map[string]int{}
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) < 3 {
			return nil, usageErrorf(`--record %q: write it as "name type value", like "www A 192.0.2.10"`, line)
		}
		typ := strings.ToUpper(f[1])
		value := strings.Join(f[2:], " ")
		k := f[0] + " " + typ
		if i, ok := index[k]; ok {
			sets[i].Values = append(sets[i].Values, value)
			continue
		}
		index[k] = len(sets)
		sets = append(sets, sdk.RecordSet{Name: f[0], Type: typ, Values: []string{value}, TTL: ttl})
	}
	return sets, nil
}

func dnsTemplateCreateRun(ctx context.Context, o *DNSTemplateCreateOptions) error {
	sets, err := recordSets(o.Records, o.TTL)
	if err != nil {
		return err
	}
	client, err := o.client()
	if err != nil {
		return err
	}
	t, err := client.Bulk.CreateTemplate(ctx, sdk.DNSTemplateRequest{Name: o.Name, Records: sets})
	if err != nil {
		return err
	}
	return display(o.Options, templateDisplay{[]sdk.DNSTemplate{*t}})
}

// DNSTemplateIDOptions are the inputs of `dns template delete`.
type DNSTemplateIDOptions struct {
	*Options
	ID int64
}

// templateID reads a template's number, as `dns template list` shows it.
func templateID(arg string) (int64, error) {
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || id <= 0 {
		return 0, usageErrorf("ID must be a template's number, as dns template list shows it, not %q", arg)
	}
	return id, nil
}

// NewCmdDNSTemplateDelete returns `dns template delete ID`.
func NewCmdDNSTemplateDelete(opts *Options, runF func(context.Context, *DNSTemplateIDOptions) error) *cobra.Command {
	o := &DNSTemplateIDOptions{Options: opts}
	return &cobra.Command{
		Use:     "delete ID",
		Aliases: []string{"rm"},
		Short:   "Delete a DNS template (domains keep the records it gave them)",
		Example: `  nameportctl dns template delete 4`,
		Args:    exactArgs(1, "ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := templateID(args[0])
			if err != nil {
				return err
			}
			o.ID = id
			return run(cmd, o, runF, func(ctx context.Context, o *DNSTemplateIDOptions) error {
				client, err := o.client()
				if err != nil {
					return err
				}
				if err := client.Bulk.DeleteTemplate(ctx, o.ID); err != nil {
					return err
				}
				if o.Output == "table" {
					fmt.Fprintf(o.Out, "Deleted DNS template %d.\n", o.ID)
				}
				return nil
			})
		},
	}
}

// DNSTemplateApplyOptions are the inputs of `dns template apply`.
type DNSTemplateApplyOptions struct {
	*Options
	ID             int64
	Domains        []string
	File           string
	IdempotencyKey string
}

// NewCmdDNSTemplateApply returns `dns template apply ID DOMAIN... | --file F`.
func NewCmdDNSTemplateApply(opts *Options, runF func(context.Context, *DNSTemplateApplyOptions) error) *cobra.Command {
	o := &DNSTemplateApplyOptions{Options: opts}
	cmd := &cobra.Command{
		Use:   "apply ID (DOMAIN... | --file FILE)",
		Short: "Apply a DNS template to your domains and wait for the result",
		Long: `Apply template ID to the domains given, or to those of --file (one a line,
or a CSV with a name or domain column; "-" reads standard input), as one
background job: progress goes to standard error, each domain's result to
standard output. Exits 1 when a domain was refused.`,
		Example: `  nameportctl dns template apply 4 example.inf.nz example.biz.ee
  nameportctl dns template apply 4 --file domains.csv --output json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("missing ID (usage: %s)", cmd.UseLine())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := templateID(args[0])
			if err != nil {
				return err
			}
			o.ID, o.Domains = id, args[1:]
			switch {
			case o.File != "" && len(o.Domains) > 0:
				return usageErrorf("give DOMAIN... or --file, not both")
			case o.File == "" && len(o.Domains) == 0:
				return usageErrorf("give the domains to apply the template to, or --file")
			}
			return run(cmd, o, runF, dnsTemplateApplyRun)
		},
	}
	cmd.Flags().StringVar(&o.File, "file", "", `a file of domain names (one a line, or CSV); "-" for standard input`)
	cmd.Flags().StringVar(&o.IdempotencyKey, "idempotency-key", "", "start at most one job per key, however often the command runs")
	return cmd
}

func dnsTemplateApplyRun(ctx context.Context, o *DNSTemplateApplyOptions) error {
	names := o.Domains
	if o.File != "" {
		var err error
		if names, err = readNamesFile(o.File); err != nil {
			return err
		}
	}
	client, err := o.client()
	if err != nil {
		return err
	}
	if o.IdempotencyKey != "" {
		ctx = sdk.WithIdempotencyKey(ctx, o.IdempotencyKey)
	}
	job, err := client.Bulk.ApplyTemplate(ctx, sdk.BulkDNSTemplateRequest{Names: names, TemplateID: o.ID})
	if err != nil {
		return err
	}
	fmt.Fprintf(o.ErrOut, "Job %d: applying template %d to %d domains\n", job.ID, o.ID, job.Count)
	return followJob(ctx, o.Options, client, job)
}

// templateDisplay shows DNS templates, one line a record set.
type templateDisplay struct{ list []sdk.DNSTemplate }

func (d templateDisplay) JSON() any { return d.list }

func (d templateDisplay) Table(w io.Writer) {
	row(w, "ID", "NAME", "RECORDS")
	for _, t := range d.list {
		for i, s := range t.Records {
			id, name := "", ""
			if i == 0 {
				id, name = strconv.FormatInt(t.ID, 10), t.Name
			}
			set := s.Name + " " + s.Type + " " + strings.Join(s.Values, ", ")
			if s.Priority != nil {
				set += fmt.Sprintf(" (priority %d)", *s.Priority)
			}
			row(w, id, name, set)
		}
	}
}
