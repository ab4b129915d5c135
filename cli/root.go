// Package cli is the command tree of nameportctl, the registrar's command
// line for the Nameport API. It talks to the server only through the public
// SDK.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"
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
	root.AddCommand(&cobra.Command{
		Use:   "version",
		Short: "Print the version of nameportctl",
		Args:  cobra.NoArgs,
		Run:   func(cmd *cobra.Command, _ []string) { fmt.Fprintln(cmd.OutOrStdout(), "nameportctl", Version) },
	})
	return root
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
	if err := root.Execute(); err != nil {
		fmt.Fprintln(stderr, "nameportctl:", err)
		var ue usageError
		if errors.As(err, &ue) || isCobraUsage(err) {
			return ExitUsage
		}
		return ExitAPIError
	}
	return ExitOK
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
