// Package cli is the command tree of nameportctl, the registrar's command
// line for the Nameport API. It talks to the server only through the public
// SDK.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"github.com/nameport/nameport/sdk"
)

// Exit codes.
const (
	ExitOK       = 0
	ExitAPIError = 1 // the API or the network said no
	ExitUsage    = 2 // the command line is wrong
)

// Version is set at build time.
var Version = "dev"

// Options are the settings every command shares, resolved by the root
// command from flags, NAMEPORT_* variables and the config file.
type Options struct {
	URL    string
	APIKey string
	Output string
	Out    io.Writer
	ErrOut io.Writer
}

// usageError marks a mistake in the command line (exit 2).
type usageError struct{ error }

// NewRootCmd returns the nameportctl command tree.
func NewRootCmd(opts *Options) *cobra.Command {
	v := viper.New()
	root := &cobra.Command{
		Use:           "nameportctl",
		Short:         "Automate domain registration and DNS on Nameport",
		Long:          "nameportctl manages your domains, DNS records and wallet through the Nameport registrar API.\nConfigure it with --url and --api-key, NAMEPORT_URL and NAMEPORT_API_KEY, or ~/.config/nameport/config.yaml.",
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := loadConfig(v, cmd); err != nil {
				return err
			}
			opts.URL, opts.APIKey, opts.Output = v.GetString("url"), v.GetString("api-key"), v.GetString("output")
			if opts.Output != "table" && opts.Output != "json" {
				return usageError{fmt.Errorf("--output must be table or json, not %q", opts.Output)}
			}
			return nil
		},
	}
	root.SetOut(opts.Out)
	root.SetErr(opts.ErrOut)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	pf := root.PersistentFlags()
	pf.String("url", "http://127.0.0.1:8080", "Nameport server URL (NAMEPORT_URL)")
	pf.String("api-key", "", "registrar API key (NAMEPORT_API_KEY)")
	pf.StringP("output", "o", "table", "output format: table or json")
	root.Example = `  export NAMEPORT_URL=https://nameport.example NAMEPORT_API_KEY=np_...
  nameportctl domain check example.inf.nz
  nameportctl wallet deposit 50
  nameportctl domain register example.inf.nz
  nameportctl dns upsert example.inf.nz --type A --name www --content 192.0.2.10`
	root.AddCommand(
		NewCmdDomain(opts),
		NewCmdDNS(opts),
		NewCmdEmailForward(opts),
		NewCmdForward(opts),
		NewCmdWallet(opts),
		NewCmdKeys(opts),
		NewCmdWebhooks(opts),
		NewCmdReports(opts, nil),
		NewCmdLogs(opts, nil),
		&cobra.Command{
			Use:     "version",
			Short:   "Print the version of nameportctl",
			Example: "  nameportctl version",
			Args:    cobra.NoArgs,
			Run:     func(cmd *cobra.Command, _ []string) { fmt.Fprintln(cmd.OutOrStdout(), "nameportctl", Version) },
		},
	)
	root.InitDefaultCompletionCmd()
	if completion, _, err := root.Find([]string{"completion"}); err == nil && completion != root {
		completion.Example = `  source <(nameportctl completion bash)
  nameportctl completion zsh > "${fpath[1]}/_nameportctl"
  nameportctl completion fish > ~/.config/fish/completions/nameportctl.fish`
	}
	return root
}

// client returns the SDK client for the resolved URL and API key. A missing
// key is a usage error: nothing can work without one.
func (o *Options) client() (*sdk.Client, error) {
	if o.APIKey == "" {
		return nil, usageErrorf("no API key: pass --api-key or set NAMEPORT_API_KEY " +
			"(a registrar's key, shown in the registrar dashboard under API Access)")
	}
	if u, err := url.Parse(o.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, usageErrorf("--url must be an http:// or https:// address, like http://127.0.0.1:8080, not %q", o.URL)
	}
	return sdk.NewClient(o.APIKey, sdk.WithBaseURL(o.URL), sdk.WithUserAgent("nameportctl/"+Version)), nil
}

// run calls runF, a test's replacement, or else the command's own run
// function def.
func run[O any](cmd *cobra.Command, o O, runF, def func(context.Context, O) error) error {
	if runF != nil {
		return runF(cmd.Context(), o)
	}
	return def(cmd.Context(), o)
}

func usageErrorf(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// exactArgs accepts exactly n positional arguments, described as what in
// the error message (e.g. "NAME.EXT").
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) < n:
			return usageErrorf("missing %s (usage: %s)", what, cmd.UseLine())
		case len(args) > n:
			return usageErrorf("unexpected argument %q (usage: %s)", args[n], cmd.UseLine())
		}
		return nil
	}
}

// minArgs accepts n or more positional arguments, the first n described as
// what in the error message (e.g. "DOMAIN ALIAS DEST").
func minArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return usageErrorf("missing %s (usage: %s)", what, cmd.UseLine())
		}
		return nil
	}
}

func noArgs(cmd *cobra.Command, args []string) error { return exactArgs(0, "")(cmd, args) }

// groupCmd completes a command that only holds subcommands: alone it shows
// its help; with an unknown subcommand it is a usage error (cobra would
// show the help and exit 0).
func groupCmd(cmd *cobra.Command) *cobra.Command {
	cmd.Args = cobra.ArbitraryArgs
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usageErrorf("unknown command %q for %q (see %s --help)", args[0], cmd.CommandPath(), cmd.CommandPath())
		}
		return cmd.Help()
	}
	return cmd
}

func loadConfig(v *viper.Viper, cmd *cobra.Command) error {
	v.SetEnvPrefix("NAMEPORT")
	v.AutomaticEnv()
	v.RegisterAlias("api_key", "api-key")
	_ = v.BindEnv("api-key", "NAMEPORT_API_KEY")
	if err := v.BindPFlags(cmd.Flags()); err != nil {
		return err
	}
	if dir, err := os.UserConfigDir(); err == nil {
		path := filepath.Join(dir, "nameport", "config.yaml")
		if _, err := os.Stat(path); err == nil {
			v.SetConfigFile(path)
			if err := v.ReadInConfig(); err != nil {
				return usageError{fmt.Errorf("read %s: %w", path, err)}
			}
		}
	}
	return nil
}

// Execute runs nameportctl with args and returns its exit code.
func Execute(args []string, stdout, stderr io.Writer) int {
	opts := &Options{Out: stdout, ErrOut: stderr}
	root := NewRootCmd(opts)
	root.SetArgs(args)
	// Ctrl-C cancels the call in flight; the SDK does not retry after it.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(stderr, "nameportctl:", describe(err, opts.URL))
		var ue usageError
		if errors.As(err, &ue) || isCobraUsage(err) {
			return ExitUsage
		}
		return ExitAPIError
	}
	return ExitOK
}

// describe turns an error into the one line shown to the user. API errors
// already read well (the server's message); network errors say which server
// could not be reached.
func describe(err error, serverURL string) error {
	var apiErr *sdk.Error
	var urlErr *url.Error
	switch {
	case errors.Is(err, context.Canceled):
		return errors.New("interrupted")
	case errors.As(err, &apiErr):
		return apiErr
	case errors.As(err, &urlErr):
		return fmt.Errorf("cannot reach the Nameport server at %s: %w", serverURL, urlErr.Err)
	}
	return err
}

// isCobraUsage recognises cobra's own argument errors, which carry no type.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, prefix := range []string{"unknown command", "accepts ", "requires ", "unknown flag", "unknown shorthand", "required flag"} {
		if len(msg) >= len(prefix) && msg[:len(prefix)] == prefix {
			return true
		}
	}
	return false
}
