package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/nameport/nameport/sdk"
)

// NewCmdDomain returns `domain` and its subcommands.
func NewCmdDomain(opts *Options) *cobra.Command {
	cmd := groupCmd(&cobra.Command{
		Use:   "domain",
		Short: "Check, register and list domains",
		Example: `  nameportctl domain check example.inf.nz
  nameportctl domain register example.inf.nz --years 2`,
	})
	cmd.AddCommand(
		NewCmdDomainCheck(opts, nil),
		NewCmdDomainRegister(opts, nil),
		NewCmdDomainList(opts, nil),
		NewCmdDomainGet(opts, nil),
	)
	return cmd
}

// DomainCheckOptions are the inputs of `domain check`.
type DomainCheckOptions struct {
	*Options
	Domain string
	// File, when set, checks every name of the file at once instead.
	File string
}

// NewCmdDomainCheck returns `domain check NAME.EXT`. runF replaces the run
// function in tests; nil means domainCheckRun.
func NewCmdDomainCheck(opts *Options, runF func(context.Context, *DomainCheckOptions) error) *cobra.Command {
	o := &DomainCheckOptions{Options: opts}
	cmd := &cobra.Command{
		Use:   "check NAME.EXT | --file FILE",
		Short: "Tell whether a domain is available and what it costs you",
		Long: `Tell whether a domain can be registered, and its yearly price for your account (wholesale for registrars).

With --file, check up to 1,000 names at once: the file holds one name a
line, or is a CSV with a "name" or "domain" column ("-" reads standard
input). A name that is not valid gets its own note; the batch counts as one
availability check.`,
		Example: `  nameportctl domain check example.inf.nz
  nameportctl domain check example.inf.nz --output json
  nameportctl domain check --file names.csv`,
		Args: fileOrOneArg(&o.File),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.File != "" {
				return run(cmd, o, runF, domainCheckFileRun)
			}
			o.Domain = args[0]
			return run(cmd, o, runF, domainCheckRun)
		},
	}
	cmd.Flags().StringVar(&o.File, "file", "", "check every name of this file (one a line, or a CSV with a name column; - for standard input)")
	return cmd
}

// fileOrOneArg accepts NAME.EXT, or no argument when --file is given.
func fileOrOneArg(file *string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if *file != "" {
			if len(args) > 0 {
				return usageErrorf("give NAME.EXT or --file, not both")
			}
			return nil
		}
		return exactArgs(1, "NAME.EXT")(cmd, args)
	}
}

func domainCheckRun(ctx context.Context, o *DomainCheckOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	a, err := client.Domains.Check(ctx, o.Domain)
	if err != nil {
		return err
	}
	return display(o.Options, availabilityDisplay{a})
}

// DomainRegisterOptions are the inputs of `domain register`.
type DomainRegisterOptions struct {
	*Options
	Domain string
	// Years is nil unless --years was given: the server's default then
	// applies, and the server judges any number given.
	Years          *int
	Nameservers    []string
	NoAutoRenew    bool
	IdempotencyKey string
	// File, when set, registers the names of the file in one bulk job;
	// Yes skips the confirmation of its total.
	File string
	Yes  bool
}

// NewCmdDomainRegister returns `domain register NAME.EXT`.
func NewCmdDomainRegister(opts *Options, runF func(context.Context, *DomainRegisterOptions) error) *cobra.Command {
	o := &DomainRegisterOptions{Options: opts}
	var years int
	cmd := &cobra.Command{
		Use:   "register NAME.EXT | --file FILE",
		Short: "Register a domain, paid from your wallet",
		Long: `Register a domain and pay for it from your wallet.

Without --nameserver, Nameport's DNS serves the domain and you manage its
records with "nameportctl dns". With --nameserver, the domain is delegated to
those hosts. Use --idempotency-key when a script may run the same
registration twice: the second run registers and charges nothing and shows
the first run's result.

With --file, register up to 1,000 names at once (one a line, or a CSV with a
"name" or "domain" column): the names are checked, the total of the
available ones is shown and asked for (--yes skips the question), then one
background job registers them in order while a progress bar (plain lines
when not on a terminal) follows it, and each name's result is printed. A
name refused (insufficient funds, taken meanwhile, allowance used up) is
charged nothing; the exit status is 1 when any was refused.`,
		Example: `  nameportctl domain register example.inf.nz
  nameportctl domain register example.inf.nz --years 2 --no-auto-renew
  nameportctl domain register example.inf.nz --nameserver ns1.example.net --nameserver ns2.example.net
  nameportctl domain register example.inf.nz --idempotency-key order-4711
  nameportctl domain register --file names.csv`,
		Args: fileOrOneArg(&o.File),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("years") {
				o.Years = &years
			}
			if o.File != "" {
				return run(cmd, o, runF, domainRegisterFileRun)
			}
			o.Domain = args[0]
			return run(cmd, o, runF, domainRegisterRun)
		},
	}
	f := cmd.Flags()
	f.IntVar(&years, "years", 1, "registration period in years, 1 to 10")
	f.StringArrayVar(&o.Nameservers, "nameserver", nil, "delegate the domain to this name server (repeat for each)")
	f.BoolVar(&o.NoAutoRenew, "no-auto-renew", false, "do not renew automatically from the wallet")
	f.StringVar(&o.IdempotencyKey, "idempotency-key", "", "register at most once per key, however often the command runs")
	f.StringVar(&o.File, "file", "", "register every available name of this file in one job (one a line, or a CSV with a name column)")
	f.BoolVarP(&o.Yes, "yes", "y", false, "with --file: register without asking to confirm the total")
	return cmd
}

func domainRegisterRun(ctx context.Context, o *DomainRegisterOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	in := sdk.RegisterRequest{Domain: o.Domain, Years: o.Years, Nameservers: o.Nameservers}
	if o.NoAutoRenew {
		off := false
		in.AutoRenew = &off
	}
	if o.IdempotencyKey != "" {
		ctx = sdk.WithIdempotencyKey(ctx, o.IdempotencyKey)
	}
	reg, err := client.Domains.Register(ctx, in)
	if err != nil {
		return err
	}
	return display(o.Options, registrationDisplay{reg})
}

// DomainListOptions are the inputs of `domain list`.
type DomainListOptions struct {
	*Options
}

// NewCmdDomainList returns `domain list`.
func NewCmdDomainList(opts *Options, runF func(context.Context, *DomainListOptions) error) *cobra.Command {
	o := &DomainListOptions{Options: opts}
	return &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List your domains",
		Example: `  nameportctl domain list
  nameportctl domain list --output json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return run(cmd, o, runF, domainListRun) },
	}
}

func domainListRun(ctx context.Context, o *DomainListOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	var domains []sdk.Domain
	for d, err := range client.Domains.List(ctx, sdk.ListOptions{Limit: 100}) {
		if err != nil {
			return err
		}
		domains = append(domains, d)
	}
	return display(o.Options, domainDisplay{domains: domains})
}

// DomainGetOptions are the inputs of `domain get`.
type DomainGetOptions struct {
	*Options
	Domain string
}

// NewCmdDomainGet returns `domain get NAME.EXT`.
func NewCmdDomainGet(opts *Options, runF func(context.Context, *DomainGetOptions) error) *cobra.Command {
	o := &DomainGetOptions{Options: opts}
	return &cobra.Command{
		Use:     "get NAME.EXT",
		Short:   "Show one of your domains",
		Example: `  nameportctl domain get example.inf.nz`,
		Args:    exactArgs(1, "NAME.EXT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain = args[0]
			return run(cmd, o, runF, domainGetRun)
		},
	}
}

func domainGetRun(ctx context.Context, o *DomainGetOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	d, err := client.Domains.Get(ctx, o.Domain)
	if err != nil {
		return err
	}
	return display(o.Options, domainDisplay{domains: []sdk.Domain{*d}, single: true})
}
