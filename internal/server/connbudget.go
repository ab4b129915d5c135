package server

import (
	"log/slog"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/connlimit"
)

// fdReserve is how many file descriptors the connection budgets leave for
// everything else: the database pool (20 PostgreSQL connections by default,
// 3 files for SQLite), the job queue, mail, webhooks and Stripe calls, the
// listeners, logs. A flood that fills both listeners' budgets still leaves
// these, so neither the other listener nor the database goes down.
const fdReserve = 512

// minConns is the least a budget is cut to, however low the limit.
const minConns = 16

// connBudgets returns the HTTP and DNS/TCP limits of cfg, cut down
// proportionally when together with fdReserve they would not fit the
// process's open-file limit.
func connBudgets(cfg config.Config, logger *slog.Logger) (httpLimits, dnsLimits connlimit.Limits) {
	httpLimits = connlimit.Limits{Total: cfg.HTTPMaxConns, PerClient: cfg.HTTPMaxConnsPerClient,
		Exempt: cfg.HTTPMaxConnsExempt}
	dnsLimits = connlimit.Limits{Total: cfg.DNSTCPMaxConns, PerClient: cfg.DNSTCPMaxConnsPerClient}
	if !cfg.HasRole(config.RoleDNS) {
		dnsLimits.Total = 0
	}
	soft, hard, err := raiseFileLimit()
	if err != nil {
		logger.Warn("open file limit unknown; connection budgets as configured", "err", err)
		return httpLimits, dnsLimits
	}
	if httpLimits.Total == 0 || cfg.HasRole(config.RoleDNS) && dnsLimits.Total == 0 {
		logger.Warn("a listener has no connection limit: a flood can exhaust the open file limit",
			"open_file_limit", soft, "http_max_conns", httpLimits.Total, "dns_tcp_max_conns", dnsLimits.Total)
		return httpLimits, dnsLimits
	}
	var cut bool
	if httpLimits, dnsLimits, cut = fitBudgets(httpLimits, dnsLimits, soft); !cut {
		logger.Info("connection budgets", "open_file_limit", soft, "hard_limit", hard,
			"http_max_conns", httpLimits.Total, "dns_tcp_max_conns", dnsLimits.Total)
		return httpLimits, dnsLimits
	}
	logger.Warn("connection budgets cut to fit the open file limit; raise it (ulimit -n, LimitNOFILE=) to allow more",
		"open_file_limit", soft, "reserve", fdReserve,
		"http_max_conns", httpLimits.Total, "dns_tcp_max_conns", dnsLimits.Total)
	return httpLimits, dnsLimits
}

// fitBudgets cuts both totals proportionally (to minConns at least) so that
// they and fdReserve fit within openFiles; cut says whether it had to.
func fitBudgets(httpLimits, dnsLimits connlimit.Limits, openFiles uint64) (_, _ connlimit.Limits, cut bool) {
	want := uint64(httpLimits.Total + dnsLimits.Total)
	if openFiles >= want+fdReserve {
		return httpLimits, dnsLimits, false
	}
	avail := uint64(0)
	if openFiles > fdReserve {
		avail = openFiles - fdReserve
	}
	fit := func(l connlimit.Limits) connlimit.Limits {
		if l.Total == 0 {
			return l
		}
		l.Total = max(minConns, int(uint64(l.Total)*avail/want))
		l.PerClient = min(l.PerClient, l.Total)
		return l
	}
	return fit(httpLimits), fit(dnsLimits), true
}
