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

// NewCmdWebhooks returns `webhooks` and its subcommands.
func NewCmdWebhooks(opts *Options) *cobra.Command {
	cmd := groupCmd(&cobra.Command{
		Use:   "webhooks",
		Short: "Manage your webhook endpoints and see their deliveries",
		Long: `Manage your webhook endpoints: https:// URLs that get a signed POST when
something happens (domain.registered, domain.renewed, domain.expiring,
domain.expired, domain.released, wallet.deposit_completed, dns.changed).
Each delivery carries a Nameport-Signature header made with the endpoint's
signing secret, shown once when the endpoint is added; failed deliveries are
retried for 3 days.

Managing webhooks takes a key with every scope (the Default key has them).`,
		Example: `  nameportctl webhooks create https://example.com/hooks --event domain.registered --event dns.changed
  nameportctl webhooks list
  nameportctl webhooks update 3 --event domain.registered,domain.renewed
  nameportctl webhooks update 3 --disable
  nameportctl webhooks test 3
  nameportctl webhooks deliveries 3
  nameportctl webhooks delete 3`,
	})
	cmd.AddCommand(
		NewCmdWebhooksList(opts, nil),
		NewCmdWebhooksCreate(opts, nil),
		NewCmdWebhooksUpdate(opts, nil),
		NewCmdWebhooksDelete(opts, nil),
		NewCmdWebhooksTest(opts, nil),
		NewCmdWebhooksDeliveries(opts, nil),
	)
	return cmd
}

// NewCmdWebhooksList returns `webhooks list`.
func NewCmdWebhooksList(opts *Options, runF func(context.Context, *Options) error) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List your webhook endpoints",
		Long:    `List your webhook endpoints, oldest first, with their events and last delivery. Secrets are never listed.`,
		Example: `  nameportctl webhooks list --output json`,
		Args:    exactArgs(0, ""),
		RunE:    func(cmd *cobra.Command, _ []string) error { return run(cmd, opts, runF, webhooksListRun) },
	}
}

func webhooksListRun(ctx context.Context, o *Options) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	list, err := client.Webhooks.List(ctx)
	if err != nil {
		return err
	}
	return display(o, endpointDisplay{endpoints: list.Endpoints})
}

// WebhooksCreateOptions are the inputs of `webhooks create`.
type WebhooksCreateOptions struct {
	*Options
	Request sdk.WebhookEndpointRequest
}

// NewCmdWebhooksCreate returns `webhooks create URL --event E...`.
func NewCmdWebhooksCreate(opts *Options, runF func(context.Context, *WebhooksCreateOptions) error) *cobra.Command {
	o := &WebhooksCreateOptions{Options: opts}
	cmd := &cobra.Command{
		Use:   "create URL --event EVENT...",
		Short: "Add a webhook endpoint and show its signing secret, once",
		Long: `Add an endpoint at URL (https://, a public host) for the events given (at
least one; repeat --event or separate them with commas). The signing secret
is printed this once: keep it to verify the Nameport-Signature header.`,
		Example: `  nameportctl webhooks create https://example.com/hooks --event domain.registered,domain.renewed`,
		Args:    exactArgs(1, "URL"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Request.URL = args[0]
			if len(o.Request.Events) == 0 {
				return usageErrorf("choose the events to send with --event, e.g. --event domain.registered")
			}
			return run(cmd, o, runF, webhooksCreateRun)
		},
	}
	cmd.Flags().StringSliceVar(&o.Request.Events, "event", nil, "an event to send (repeatable, or comma-separated)")
	return cmd
}

func webhooksCreateRun(ctx context.Context, o *WebhooksCreateOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	e, err := client.Webhooks.Create(ctx, o.Request)
	if err != nil {
		return err
	}
	return display(o.Options, newEndpointDisplay{e})
}

// WebhookIDOptions are the inputs of the commands about one endpoint.
type WebhookIDOptions struct {
	*Options
	ID int64
}

func webhookIDArg(o *WebhookIDOptions) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := exactArgs(1, "ID")(cmd, args); err != nil {
			return err
		}
		id, err := strconv.ParseInt(args[0], 10, 64)
		if err != nil || id <= 0 {
			return usageErrorf("ID must be an endpoint's number, as webhooks list shows it, not %q", args[0])
		}
		o.ID = id
		return nil
	}
}

// WebhooksUpdateOptions are the inputs of `webhooks update`.
type WebhooksUpdateOptions struct {
	WebhookIDOptions
	Request sdk.WebhookEndpointUpdate
}

// NewCmdWebhooksUpdate returns `webhooks update ID [--event E...] [--enable|--disable]`.
func NewCmdWebhooksUpdate(opts *Options, runF func(context.Context, *WebhooksUpdateOptions) error) *cobra.Command {
	o := &WebhooksUpdateOptions{WebhookIDOptions: WebhookIDOptions{Options: opts}}
	var enable, disable bool
	cmd := &cobra.Command{
		Use:   "update ID [--event EVENT...] [--enable | --disable]",
		Short: "Change an endpoint's events, or turn it on or off",
		Long: `Change endpoint ID: --event replaces the events sent to it (repeat it or
separate them with commas); --disable stops sending it events (its deliveries
still pending end failed at their next attempt) and --enable starts again.
Its URL and signing secret stay.`,
		Example: `  nameportctl webhooks update 3 --event domain.registered,dns.changed
  nameportctl webhooks update 3 --disable
  nameportctl webhooks update 3 --enable --event domain.renewed`,
		Args: webhookIDArg(&o.WebhookIDOptions),
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case enable && disable:
				return usageErrorf("give --enable or --disable, not both")
			case enable || disable:
				o.Request.Enabled = &enable
			case len(o.Request.Events) == 0:
				return usageErrorf("give --event, --enable or --disable")
			}
			return run(cmd, o, runF, webhooksUpdateRun)
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&o.Request.Events, "event", nil, "the events to send from now on (repeatable, or comma-separated)")
	f.BoolVar(&enable, "enable", false, "send the endpoint new events")
	f.BoolVar(&disable, "disable", false, "stop sending the endpoint events")
	return cmd
}

func webhooksUpdateRun(ctx context.Context, o *WebhooksUpdateOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	e, err := client.Webhooks.Update(ctx, o.ID, o.Request)
	if err != nil {
		return err
	}
	return display(o.Options, endpointDisplay{endpoints: []sdk.WebhookEndpoint{*e}})
}

// NewCmdWebhooksDelete returns `webhooks delete ID`.
func NewCmdWebhooksDelete(opts *Options, runF func(context.Context, *WebhookIDOptions) error) *cobra.Command {
	o := &WebhookIDOptions{Options: opts}
	return &cobra.Command{
		Use:     "delete ID",
		Aliases: []string{"rm"},
		Short:   "Delete a webhook endpoint and its delivery log",
		Example: `  nameportctl webhooks delete 3`,
		Args:    webhookIDArg(o),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return run(cmd, o, runF, func(ctx context.Context, o *WebhookIDOptions) error {
				client, err := o.client()
				if err != nil {
					return err
				}
				if err := client.Webhooks.Delete(ctx, o.ID); err != nil {
					return err
				}
				if o.Output == "table" {
					fmt.Fprintf(o.Out, "Deleted endpoint %d.\n", o.ID)
				}
				return nil
			})
		},
	}
}

// NewCmdWebhooksTest returns `webhooks test ID`.
func NewCmdWebhooksTest(opts *Options, runF func(context.Context, *WebhookIDOptions) error) *cobra.Command {
	o := &WebhookIDOptions{Options: opts}
	return &cobra.Command{
		Use:     "test ID",
		Short:   "Send a webhook.test event to an endpoint now",
		Long:    `Send a webhook.test event to endpoint ID now; follow it with webhooks deliveries ID.`,
		Example: `  nameportctl webhooks test 3`,
		Args:    webhookIDArg(o),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return run(cmd, o, runF, func(ctx context.Context, o *WebhookIDOptions) error {
				client, err := o.client()
				if err != nil {
					return err
				}
				d, err := client.Webhooks.Test(ctx, o.ID)
				if err != nil {
					return err
				}
				return display(o.Options, deliveryDisplay{deliveries: []sdk.WebhookDelivery{*d}})
			})
		},
	}
}

// NewCmdWebhooksDeliveries returns `webhooks deliveries ID`.
func NewCmdWebhooksDeliveries(opts *Options, runF func(context.Context, *WebhookIDOptions) error) *cobra.Command {
	o := &WebhookIDOptions{Options: opts}
	return &cobra.Command{
		Use:     "deliveries ID",
		Short:   "Show an endpoint's newest deliveries",
		Long:    `Show endpoint ID's newest 50 deliveries: event, state, attempts, the last attempt's status and latency.`,
		Example: `  nameportctl webhooks deliveries 3 --output json`,
		Args:    webhookIDArg(o),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return run(cmd, o, runF, func(ctx context.Context, o *WebhookIDOptions) error {
				client, err := o.client()
				if err != nil {
					return err
				}
				page, err := client.Webhooks.Deliveries(ctx, o.ID, "", 0)
				if err != nil {
					return err
				}
				return display(o.Options, deliveryDisplay{deliveries: page.Deliveries})
			})
		},
	}
}

type endpointDisplay struct{ endpoints []sdk.WebhookEndpoint }

func (d endpointDisplay) JSON() any {
	if d.endpoints == nil {
		return []sdk.WebhookEndpoint{}
	}
	return d.endpoints
}

func (d endpointDisplay) Table(w io.Writer) {
	row(w, "ID", "URL", "EVENTS", "STATE", "LAST DELIVERY")
	for _, e := range d.endpoints {
		last := "none"
		if e.LastDelivery != nil {
			last = e.LastDelivery.State + " " + e.LastDelivery.EventType
		}
		state := "enabled"
		if !e.Enabled {
			state = "disabled"
		}
		row(w, strconv.FormatInt(e.ID, 10), e.URL, strings.Join(e.Events, ","), state, last)
	}
}

type newEndpointDisplay struct{ e *sdk.NewWebhookEndpoint }

func (d newEndpointDisplay) JSON() any { return d.e }

func (d newEndpointDisplay) Table(w io.Writer) {
	endpointDisplay{endpoints: []sdk.WebhookEndpoint{d.e.Endpoint}}.Table(w)
	fmt.Fprintf(w, "\nSigning secret: %s\nThis is the only time it is shown: store it now.\n", d.e.Secret)
}

type deliveryDisplay struct{ deliveries []sdk.WebhookDelivery }

func (d deliveryDisplay) JSON() any {
	if d.deliveries == nil {
		return []sdk.WebhookDelivery{}
	}
	return d.deliveries
}

func (d deliveryDisplay) Table(w io.Writer) {
	row(w, "ID", "EVENT", "STATE", "ATTEMPTS", "STATUS", "LATENCY", "CREATED")
	for _, x := range d.deliveries {
		status, latency := "-", "-"
		if x.StatusCode != nil {
			status = strconv.Itoa(*x.StatusCode)
		} else if x.Error != "" {
			status = x.Error
		}
		if x.LatencyMs != nil {
			latency = strconv.FormatInt(*x.LatencyMs, 10) + "ms"
		}
		row(w, strconv.FormatInt(x.ID, 10), x.EventType, x.State, strconv.Itoa(x.Attempts), status, latency,
			x.CreatedAt.Local().Format("2006-01-02 15:04"))
	}
}
