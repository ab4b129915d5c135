// Command nameport is the Nameport server: `serve` runs the API, DNS and
// worker roles; `migrate`, `admin create` and `openapi` are for operators.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/spf13/cobra"

	"github.com/nameport/nameport/internal/api"
	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/registration"
	"github.com/nameport/nameport/internal/server"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newRootCmd().ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "nameport:", err)
		os.Exit(1)
	}
}

func newRootCmd() *cobra.Command {
	var configFile string
	root := &cobra.Command{
		Use:           "nameport",
		Short:         "Nameport: domain registry and registrar platform",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVar(&configFile, "config", "", "config file (default: nameport.yaml in the working directory, when present)")
	load := func(cmd *cobra.Command) (config.Config, *slog.Logger, error) {
		cfg, err := config.Load(cmd.Flags(), configFile)
		if err != nil {
			return cfg, nil, err
		}
		logger := newLogger(cfg)
		slog.SetDefault(logger)
		return cfg, logger, nil
	}
	root.AddCommand(newServeCmd(load), newMigrateCmd(load), newAdminCmd(load), newJobsCmd(load), newOpenAPICmd())
	return root
}

type loader func(cmd *cobra.Command) (config.Config, *slog.Logger, error)

func newServeCmd(load loader) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the server (roles api, dns and worker by default)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, logger, err := load(cmd)
			if err != nil {
				return err
			}
			return server.Run(cmd.Context(), cfg, logger, nil)
		},
	}
	config.Register(cmd.Flags())
	return cmd
}

func newMigrateCmd(load loader) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Apply database migrations and exit",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, logger, err := load(cmd)
			if err != nil {
				return err
			}
			d, err := openMigrated(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			defer d.Close()
			logger.Info("migrations applied", "engine", d.Engine)
			return nil
		},
	}
	config.Register(cmd.Flags(), config.DatabaseFlags...)
	return cmd
}

func newAdminCmd(load loader) *cobra.Command {
	admin := &cobra.Command{Use: "admin", Short: "Manage admin accounts"}
	var username, email, password string
	create := &cobra.Command{
		Use:   "create",
		Short: "Create an admin account",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, _, err := load(cmd)
			if err != nil {
				return err
			}
			d, err := openMigrated(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			defer d.Close()
			svc, err := server.NewServices(d, cfg, nil)
			if err != nil {
				return err
			}
			u, err := svc.Accounts.CreateAdmin(cmd.Context(), username, email, password)
			if err != nil {
				return userError(err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "admin %s created (id %d); it must set up two-factor sign-in (a passkey or an authenticator app) in Account Settings before admin tools open\n", u.Username, u.ID)
			return nil
		},
	}
	create.Flags().StringVar(&username, "username", "", "username (required)")
	create.Flags().StringVar(&email, "email", "", "email address (required)")
	create.Flags().StringVar(&password, "password", "", "password, at least 6 characters (required)")
	for _, f := range []string{"username", "email", "password"} {
		_ = create.MarkFlagRequired(f)
	}
	config.Register(create.Flags(), config.DatabaseFlags...)
	config.Register(create.Flags(), "secret")
	admin.AddCommand(create)
	return admin
}

func newJobsCmd(load loader) *cobra.Command {
	jobs := &cobra.Command{Use: "jobs", Short: "Run background work at once"}
	var at string
	renewals := &cobra.Command{
		Use:   "run-renewals",
		Short: "Run one domain lifecycle scan now",
		Long: "Runs one scan of the domain lifecycle, as the worker does every --renew-interval: queues the renewal\n" +
			"of auto-renewing domains that expire within --renew-ahead (running workers pay them), sends expiry\n" +
			"warnings and expiry notices, and releases domains whose grace period is over.",
		Example: "  nameport jobs run-renewals\n  nameport jobs run-renewals --now 2027-11-01T00:00:00Z",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, _, err := load(cmd)
			if err != nil {
				return err
			}
			now := time.Now
			if at != "" {
				t, err := time.Parse(time.RFC3339, at)
				if err != nil {
					return fmt.Errorf("--now %q: use RFC 3339, like 2027-11-01T00:00:00Z", at)
				}
				now = func() time.Time { return t }
			}
			d, err := openMigrated(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			defer d.Close()
			if err := d.SetupJobs(db.JobsConfig{}); err != nil {
				return err
			}
			svc, err := server.NewServices(d, cfg, nil)
			if err != nil {
				return err
			}
			if err := svc.Catalog.Load(cmd.Context()); err != nil {
				return err
			}
			domains := registration.NewService(d, svc.Catalog, svc.Wallets, now)
			domains.Notify, domains.Buyers = svc.Domains.Notify, svc.Domains.Buyers
			report, err := domains.Scan(cmd.Context(), cfg.RenewAhead)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), report)
			return nil
		},
	}
	renewals.Flags().StringVar(&at, "now", "", "scan as of this time (RFC 3339), for tests and catching up")
	config.Register(renewals.Flags(), config.DatabaseFlags...)
	config.Register(renewals.Flags(), "secret", "renew-ahead", "smtp-url", "mail-from", "public-url")
	jobs.AddCommand(renewals)
	return jobs
}

func newOpenAPICmd() *cobra.Command {
	var v1 bool
	cmd := &cobra.Command{
		Use:   "openapi",
		Short: "Print the OpenAPI document (JSON) without starting a server",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			doc := api.New(chi.NewRouter(), api.Services{}).OpenAPI()
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetIndent("", "  ")
			if !v1 {
				return enc.Encode(doc)
			}
			only, err := api.V1Document(doc)
			if err != nil {
				return err
			}
			return enc.Encode(json.RawMessage(only))
		},
	}
	cmd.Flags().BoolVar(&v1, "v1", false, "print the registrar API's document alone (/v1/openapi.json)")
	return cmd
}

// openMigrated opens the configured database with every migration applied.
func openMigrated(ctx context.Context, cfg config.Config) (*db.DB, error) {
	d, err := db.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	if err := d.Migrate(ctx); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// userError shows a person the message of an application error without its
// code; other errors pass as they are.
func userError(err error) error {
	if apperr.Code(err) != apperr.Internal {
		return errors.New(apperr.Message(err))
	}
	return err
}

func newLogger(cfg config.Config) *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts))
}
