package cli

import (
	"context"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
)

// NewCmdEmailForward returns `email-forward` and its subcommands.
func NewCmdEmailForward(opts *Options) *cobra.Command {
	cmd := groupCmd(&cobra.Command{
		Use:   "email-forward",
		Short: "Forward the mail of your domains' addresses to inboxes you already use",
		Long: `Forward the mail of alias@DOMAIN (or of every address of DOMAIN, "*") to
inboxes you already use. Turning forwarding on adds the domain's MX record,
naming Nameport's mail server, and its SPF record. Each address you forward
to gets a confirmation link by mail and receives nothing until its reader
follows it.`,
		Example: `  nameportctl email-forward on example.inf.nz
  nameportctl email-forward add example.inf.nz info you@example.com
  nameportctl email-forward list example.inf.nz`,
	})
	cmd.AddCommand(
		NewCmdEmailForwardList(opts, nil),
		NewCmdEmailForwardAdd(opts, nil),
		NewCmdEmailForwardDelete(opts, nil),
		NewCmdEmailForwardOn(opts, nil),
		NewCmdEmailForwardOff(opts, nil),
		NewCmdEmailForwardLog(opts, nil),
	)
	return cmd
}

// EmailForwardListOptions are the inputs of `email-forward list`.
type EmailForwardListOptions struct {
	*Options
	Domain string
}

// NewCmdEmailForwardList returns `email-forward list DOMAIN`.
func NewCmdEmailForwardList(opts *Options, runF func(context.Context, *EmailForwardListOptions) error) *cobra.Command {
	o := &EmailForwardListOptions{Options: opts}
	return &cobra.Command{
		Use:     "list DOMAIN",
		Aliases: []string{"ls"},
		Short:   "Show whether forwarding is on, and the rules with their addresses",
		Long: `Show whether forwarding is on for DOMAIN, and its rules: each address mail
goes to, and whether its reader has confirmed it (until then it receives
nothing).`,
		Example: `  nameportctl email-forward list example.inf.nz
  nameportctl email-forward list example.inf.nz --output json`,
		Args: exactArgs(1, "DOMAIN"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain = args[0]
			return run(cmd, o, runF, emailForwardListRun)
		},
	}
}

func emailForwardListRun(ctx context.Context, o *EmailForwardListOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	f, err := client.Domains.EmailForwarding(ctx, o.Domain)
	if err != nil {
		return err
	}
	return display(o.Options, forwardingDisplay{o.Domain, f})
}

// EmailForwardAddOptions are the inputs of `email-forward add`.
type EmailForwardAddOptions struct {
	*Options
	Domain       string
	Alias        string
	Destinations []string
}

// NewCmdEmailForwardAdd returns `email-forward add DOMAIN ALIAS DEST [DEST...]`.
func NewCmdEmailForwardAdd(opts *Options, runF func(context.Context, *EmailForwardAddOptions) error) *cobra.Command {
	o := &EmailForwardAddOptions{Options: opts}
	return &cobra.Command{
		Use:   "add DOMAIN ALIAS DEST [DEST]...",
		Short: "Forward the mail of ALIAS@DOMAIN to one or more addresses",
		Long: `Forward the mail of ALIAS@DOMAIN to the addresses DEST (at most 10). ALIAS is
the part before the @; "*" takes the mail of every address of DOMAIN that no
other rule names (quote it for the shell).

An address you have not confirmed yet gets a confirmation link by mail and
receives nothing until its reader follows it. Rules work while forwarding
is on ("nameportctl email-forward on").`,
		Example: `  nameportctl email-forward add example.inf.nz info you@example.com
  nameportctl email-forward add example.inf.nz sales you@example.com colleague@example.org
  nameportctl email-forward add example.inf.nz '*' you@example.com`,
		Args: minArgs(3, "DOMAIN ALIAS DEST"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain, o.Alias, o.Destinations = args[0], args[1], args[2:]
			return run(cmd, o, runF, emailForwardAddRun)
		},
	}
}

func emailForwardAddRun(ctx context.Context, o *EmailForwardAddOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	r, err := client.Domains.AddForwardingRule(ctx, o.Domain, o.Alias, o.Destinations)
	if err != nil {
		return err
	}
	return display(o.Options, forwardingRuleDisplay{r})
}

// EmailForwardDeleteOptions are the inputs of `email-forward delete`.
type EmailForwardDeleteOptions struct {
	*Options
	Domain string
	RuleID int64
}

// NewCmdEmailForwardDelete returns `email-forward delete DOMAIN RULE_ID`.
func NewCmdEmailForwardDelete(opts *Options, runF func(context.Context, *EmailForwardDeleteOptions) error) *cobra.Command {
	o := &EmailForwardDeleteOptions{Options: opts}
	return &cobra.Command{
		Use:     "delete DOMAIN RULE_ID",
		Aliases: []string{"rm"},
		Short:   "Delete a forwarding rule",
		Long:    `Delete rule RULE_ID (the ID column of "nameportctl email-forward list") of DOMAIN.`,
		Example: `  nameportctl email-forward delete example.inf.nz 12`,
		Args:    exactArgs(2, "DOMAIN RULE_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain = args[0]
			id, err := strconv.ParseInt(args[1], 10, 64)
			if err != nil {
				return usageErrorf("RULE_ID must be a rule's number (the ID column of nameportctl email-forward list), not %q", args[1])
			}
			o.RuleID = id
			return run(cmd, o, runF, emailForwardDeleteRun)
		},
	}
}

func emailForwardDeleteRun(ctx context.Context, o *EmailForwardDeleteOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	if err := client.Domains.DeleteForwardingRule(ctx, o.Domain, o.RuleID); err != nil {
		return err
	}
	if o.Output == "table" {
		fmt.Fprintf(o.Out, "Deleted forwarding rule %d of %s.\n", o.RuleID, o.Domain)
	}
	return nil
}

// EmailForwardSetOptions are the inputs of `email-forward on` and `off`.
type EmailForwardSetOptions struct {
	*Options
	Domain             string
	Enabled            bool
	ReplaceMailRecords bool
}

// NewCmdEmailForwardOn returns `email-forward on DOMAIN [--replace-mail-records]`.
func NewCmdEmailForwardOn(opts *Options, runF func(context.Context, *EmailForwardSetOptions) error) *cobra.Command {
	o := &EmailForwardSetOptions{Options: opts, Enabled: true}
	cmd := &cobra.Command{
		Use:   "on DOMAIN [--replace-mail-records]",
		Short: "Turn forwarding on: DOMAIN's mail comes to Nameport's mail server",
		Long: `Turn forwarding on for DOMAIN: its MX record then names Nameport's mail
server, and its SPF record is "v=spf1 mx ~all". An MX or SPF record of
another mail service makes this fail, naming them, unless
--replace-mail-records is given: then they are removed in the same change.`,
		Example: `  nameportctl email-forward on example.inf.nz
  nameportctl email-forward on example.inf.nz --replace-mail-records`,
		Args: exactArgs(1, "DOMAIN"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain = args[0]
			return run(cmd, o, runF, emailForwardSetRun)
		},
	}
	cmd.Flags().BoolVar(&o.ReplaceMailRecords, "replace-mail-records", false,
		"remove the domain's MX and SPF records of another mail service")
	return cmd
}

// NewCmdEmailForwardOff returns `email-forward off DOMAIN`.
func NewCmdEmailForwardOff(opts *Options, runF func(context.Context, *EmailForwardSetOptions) error) *cobra.Command {
	o := &EmailForwardSetOptions{Options: opts}
	return &cobra.Command{
		Use:   "off DOMAIN",
		Short: "Turn forwarding off: remove DOMAIN's forwarding MX and SPF records",
		Long: `Turn forwarding off for DOMAIN: the MX and SPF records that forwarding added
are removed, and mail for DOMAIN is refused. The rules stay, for when it is
turned on again.`,
		Example: `  nameportctl email-forward off example.inf.nz`,
		Args:    exactArgs(1, "DOMAIN"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain = args[0]
			return run(cmd, o, runF, emailForwardSetRun)
		},
	}
}

func emailForwardSetRun(ctx context.Context, o *EmailForwardSetOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	f, err := client.Domains.SetEmailForwarding(ctx, o.Domain, o.Enabled, o.ReplaceMailRecords)
	if err != nil {
		return err
	}
	return display(o.Options, forwardingDisplay{o.Domain, f})
}

// EmailForwardLogOptions are the inputs of `email-forward log`.
type EmailForwardLogOptions struct {
	*Options
	Domain string
}

// NewCmdEmailForwardLog returns `email-forward log DOMAIN`.
func NewCmdEmailForwardLog(opts *Options, runF func(context.Context, *EmailForwardLogOptions) error) *cobra.Command {
	o := &EmailForwardLogOptions{Options: opts}
	return &cobra.Command{
		Use:   "log DOMAIN",
		Short: "List the last 100 forwarded, failed and refused messages",
		Example: `  nameportctl email-forward log example.inf.nz
  nameportctl email-forward log example.inf.nz --output json`,
		Args: exactArgs(1, "DOMAIN"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain = args[0]
			return run(cmd, o, runF, emailForwardLogRun)
		},
	}
}

func emailForwardLogRun(ctx context.Context, o *EmailForwardLogOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	entries, err := client.Domains.ForwardingLog(ctx, o.Domain)
	if err != nil {
		return err
	}
	return display(o.Options, forwardingLogDisplay{entries})
}
