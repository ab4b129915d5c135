package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nameport/nameport/sdk"
)

// NewCmdForward returns `forward` and its subcommands.
func NewCmdForward(opts *Options) *cobra.Command {
	cmd := groupCmd(&cobra.Command{
		Use:   "forward",
		Short: "Forward your domains' host names to another website",
		Long: `Forward a host name of a domain (@ for the domain itself, www, shop, ...) to
another website, over HTTP and HTTPS: visitors get a redirect to the target
URL. A forward points the host's A/AAAA records at Nameport's forwarding
servers, which obtain its HTTPS certificate on their own within seconds.`,
		Example: `  nameportctl forward set example.inf.nz @ https://example.com
  nameportctl forward set example.inf.nz www https://example.com --status 301 --keep-path
  nameportctl forward list example.inf.nz`,
	})
	cmd.AddCommand(
		NewCmdForwardList(opts, nil),
		NewCmdForwardSet(opts, nil),
		NewCmdForwardDelete(opts, nil),
	)
	return cmd
}

// ForwardListOptions are the inputs of `forward list`.
type ForwardListOptions struct {
	*Options
	Domain string
}

// NewCmdForwardList returns `forward list DOMAIN`.
func NewCmdForwardList(opts *Options, runF func(context.Context, *ForwardListOptions) error) *cobra.Command {
	o := &ForwardListOptions{Options: opts}
	return &cobra.Command{
		Use:     "list DOMAIN",
		Aliases: []string{"ls"},
		Short:   "List a domain's forwards with the state of their certificates",
		Long: `List the host names of DOMAIN that forward: each one's target, redirect
status, options, and its HTTPS certificate (pending, issued until a date, or
failed with the certificate authority's message).`,
		Example: `  nameportctl forward list example.inf.nz
  nameportctl forward list example.inf.nz --output json`,
		Args: exactArgs(1, "DOMAIN"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain = args[0]
			return run(cmd, o, runF, forwardListRun)
		},
	}
}

func forwardListRun(ctx context.Context, o *ForwardListOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	f, err := client.Domains.DomainForwarding(ctx, o.Domain)
	if err != nil {
		return err
	}
	return display(o.Options, domainForwardingDisplay{o.Domain, f})
}

// ForwardSetOptions are the inputs of `forward set`.
type ForwardSetOptions struct {
	*Options
	Domain  string
	Host    string
	Request sdk.DomainForwardRequest
}

// NewCmdForwardSet returns `forward set DOMAIN HOST TARGET [flags]`.
func NewCmdForwardSet(opts *Options, runF func(context.Context, *ForwardSetOptions) error) *cobra.Command {
	o := &ForwardSetOptions{Options: opts}
	cmd := &cobra.Command{
		Use:   "set DOMAIN HOST TARGET [--status 301|302|307|308] [--keep-path] [--keep-query] [--replace-records]",
		Short: "Forward HOST of DOMAIN to the URL TARGET, or change its forward",
		Long: `Forward HOST of DOMAIN (@ for the domain itself, www, shop, ...) to TARGET, an
http:// or https:// URL of a public host name. Setting a host that forwards
already changes its forward: flags left out take their defaults again.

HOST's A/AAAA records then point at Nameport's forwarding servers. Records
HOST has of its own (an A, AAAA or CNAME record) make this fail, naming
them, unless --replace-records is given: then they are removed in the same
change.`,
		Example: `  nameportctl forward set example.inf.nz @ https://example.com
  nameportctl forward set example.inf.nz www https://example.com/shop --status 301 --keep-path --keep-query
  nameportctl forward set example.inf.nz blog https://blog.example.net --replace-records`,
		Args: exactArgs(3, "DOMAIN HOST TARGET"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain, o.Host, o.Request.Target = args[0], args[1], args[2]
			return run(cmd, o, runF, forwardSetRun)
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.Request.Status, "status", 0,
		"redirect status: 301 or 308 (permanent: browsers remember them), 302 or 307 (temporary); 302 when not given")
	f.BoolVar(&o.Request.KeepPath, "keep-path", false, "add the request's path to the target's")
	f.BoolVar(&o.Request.KeepQuery, "keep-query", false, "add the request's query string to the target's")
	f.BoolVar(&o.Request.ReplaceRecords, "replace-records", false, "remove HOST's own A, AAAA and CNAME records")
	return cmd
}

func forwardSetRun(ctx context.Context, o *ForwardSetOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	fwd, err := client.Domains.SetDomainForward(ctx, o.Domain, o.Host, o.Request)
	if err != nil {
		if sdk.ErrorCode(err) == sdk.CodeConflict && !o.Request.ReplaceRecords {
			return withReplaceHint(ctx, client, o, err)
		}
		return err
	}
	return display(o.Options, domainForwardDisplay{fwd})
}

// withReplaceHint adds to the server's conflict, which names the host's
// records, how to replace them. The preview decides whether that is the
// conflict: a host delegated to other name servers is one too, and no flag
// helps there.
func withReplaceHint(ctx context.Context, client *sdk.Client, o *ForwardSetOptions, conflict error) error {
	p, err := client.Domains.PreviewDomainForward(ctx, o.Domain, o.Host)
	if err != nil || len(p.Replaces) == 0 {
		return conflict
	}
	// Not wrapped: describe shows an *sdk.Error found in the chain by
	// itself, which would drop the hint.
	return errors.New(conflict.Error() + " (add --replace-records to replace them)")
}

// ForwardDeleteOptions are the inputs of `forward delete`.
type ForwardDeleteOptions struct {
	*Options
	Domain string
	Host   string
}

// NewCmdForwardDelete returns `forward delete DOMAIN HOST`.
func NewCmdForwardDelete(opts *Options, runF func(context.Context, *ForwardDeleteOptions) error) *cobra.Command {
	o := &ForwardDeleteOptions{Options: opts}
	return &cobra.Command{
		Use:     "delete DOMAIN HOST",
		Aliases: []string{"rm"},
		Short:   "Stop forwarding HOST of DOMAIN",
		Long: `Stop forwarding HOST of DOMAIN (@ for the domain itself): the A/AAAA records
the forward added are removed with it. Records it replaced do not come back.`,
		Example: `  nameportctl forward delete example.inf.nz www
  nameportctl forward delete example.inf.nz @`,
		Args: exactArgs(2, "DOMAIN HOST"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain, o.Host = args[0], args[1]
			return run(cmd, o, runF, forwardDeleteRun)
		},
	}
}

func forwardDeleteRun(ctx context.Context, o *ForwardDeleteOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	if err := client.Domains.DeleteDomainForward(ctx, o.Domain, o.Host); err != nil {
		return err
	}
	if o.Output == "table" {
		fmt.Fprintf(o.Out, "Stopped forwarding %s.\n", hostName(o.Host, o.Domain))
	}
	return nil
}

// hostName is the full name of host of domain, read as the server reads
// it: "@" (or nothing) is the domain itself, and a host may be written in
// full.
func hostName(host, domain string) string {
	h, d := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(host), ".")), strings.ToLower(domain)
	switch {
	case h == "" || h == "@":
		return d
	case h == d || strings.HasSuffix(h, "."+d):
		return h
	}
	return h + "." + d
}
