package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/stats"
	"github.com/nameport/nameport/pkg/money"
)

type statsDayBody struct {
	Date          string  `json:"date" example:"2026-11-22" doc:"A day in UTC"`
	Registrations int64   `json:"registrations"`
	Revenue       float64 `json:"revenue" doc:"Dollars paid for registrations and renewals"`
	Deposits      float64 `json:"deposits" doc:"Dollars deposited into wallets"`
}

type statsExtensionBody struct {
	Extension string `json:"extension"`
	Domains   int64  `json:"domains"`
	Premium   int64  `json:"premium"`
}

type statsBody struct {
	PeriodDays          int                  `json:"periodDays" doc:"How many days the period figures and the daily series cover"`
	TotalDomains        int64                `json:"totalDomains"`
	TotalAccounts       int64                `json:"totalAccounts"`
	ActiveRegistrars    int64                `json:"activeRegistrars" doc:"Registrar accounts that are not disabled"`
	Registrations       int64                `json:"registrations" doc:"Domains registered in the period"`
	Revenue             float64              `json:"revenue" doc:"Dollars in the period"`
	DepositCount        int64                `json:"depositCount" doc:"Completed deposits in the period"`
	Deposits            float64              `json:"deposits" doc:"Dollars deposited in the period"`
	PremiumSales        int64                `json:"premiumSales" doc:"Premium domains registered, all time"`
	PremiumRevenue      float64              `json:"premiumRevenue" doc:"Dollars, all time"`
	Daily               []statsDayBody       `json:"daily" doc:"Oldest first, one entry per day"`
	DomainsPerExtension []statsExtensionBody `json:"domainsPerExtension"`
}

type StatsOutput struct {
	Body envelope[statsBody]
}

// statsHandlers are the handlers of the admin Statistics tab.
type statsHandlers struct {
	stats *stats.Service
}

func addStatsRoutes(a huma.API, st *stats.Service) {
	h := statsHandlers{st}
	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-stats", Method: http.MethodGet, Path: "/api/admin/stats", Tags: []string{"Admin"},
		Summary:     "Platform statistics",
		Description: "Registrations, revenue and deposits per day over the last 30 days, domains per extension, premium sales and active registrars.",
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden},
	}, h.overview)
}

// overview returns the platform's figures over the last stats.Days days and all time.
func (h statsHandlers) overview(ctx context.Context, _ *struct{}) (*StatsOutput, error) {
	o, err := h.stats.Overview(ctx, time.Now())
	if err != nil {
		return nil, fail(ctx, err)
	}
	b := statsBody{PeriodDays: stats.Days, TotalDomains: o.TotalDomains, TotalAccounts: o.TotalAccounts,
		ActiveRegistrars: o.ActiveRegistrars, Registrations: o.RegistrationsPeriod,
		Revenue: money.Dollars(o.RevenuePeriodCents), DepositCount: o.DepositsPeriod,
		Deposits: money.Dollars(o.DepositPeriodCents), PremiumSales: o.PremiumSales,
		PremiumRevenue: money.Dollars(o.PremiumRevenueCents),
		Daily:          make([]statsDayBody, len(o.Days)), DomainsPerExtension: make([]statsExtensionBody, len(o.Extensions))}
	for i, d := range o.Days {
		b.Daily[i] = statsDayBody{Date: d.Date, Registrations: d.Registrations,
			Revenue: money.Dollars(d.RevenueCents), Deposits: money.Dollars(d.DepositCents)}
	}
	for i, e := range o.Extensions {
		b.DomainsPerExtension[i] = statsExtensionBody(e)
	}
	return &StatsOutput{Body: ok(b)}, nil
}
