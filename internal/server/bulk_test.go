package server_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/sdk"
)

// Bulk operations through the SDK against a running server, whose worker
// runs the jobs: a check, a registration with one row the wallet cannot
// pay (charged nothing; the others once, also when the POST is sent again),
// auto-renewal off, and a DNS template applied.
func TestSDKBulk(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			b := sdkSetup(t, engine, nil)
			c := b.client
			ctx := context.Background()

			names := []string{"bulk-a.inf.nz", "bulk-b.inf.nz", "bulk-c.inf.nz", "BULK-A.inf.nz", "bulk-d.inf.nz", "bulk-e.inf.nz", "not a name"}
			check, err := c.Bulk.Check(ctx, names)
			require.NoError(t, err)
			require.Len(t, check.Results, 6, "the repeat counts once")
			require.Equal(t, "not a name", check.Results[5].Domain)
			require.NotEmpty(t, check.Results[5].Error)
			require.Equal(t, 5, check.Available)
			price := check.Results[0].Price
			require.Equal(t, 5*price, check.Total)

			_, err = c.Bulk.Check(ctx, make([]string, 0))
			require.Equal(t, sdk.CodeInvalid, sdk.ErrorCode(err))
			many := make([]string, 1001)
			for i := range many {
				many[i] = fmt.Sprintf("n%d.inf.nz", i)
			}
			_, err = c.Bulk.Check(ctx, many)
			require.Equal(t, sdk.CodeInvalid, sdk.ErrorCode(err))

			// Money for four of the five.
			w, err := c.Wallet.Get(ctx)
			require.NoError(t, err)
			require.Zero(t, w.Balance)
			_, err = c.Wallet.Deposit(ctx, sdk.DepositRequest{Amount: 4 * price})
			require.NoError(t, err)

			wanted := []string{"bulk-a.inf.nz", "bulk-b.inf.nz", "bulk-c.inf.nz", "bulk-d.inf.nz", "bulk-e.inf.nz"}
			_, err = c.Bulk.Register(ctx, sdk.BulkRegisterRequest{Names: wanted, Total: 5*price - 1})
			require.Equal(t, sdk.CodeConflict, sdk.ErrorCode(err), "a total that is not the batch's")
			keyed := sdk.WithIdempotencyKey(ctx, "bulk-register-1")
			job, err := c.Bulk.Register(keyed, sdk.BulkRegisterRequest{Names: wanted, Total: 5 * price})
			require.NoError(t, err)
			require.Equal(t, 5, job.Count)
			again, err := c.Bulk.Register(keyed, sdk.BulkRegisterRequest{Names: wanted, Total: 5 * price})
			require.NoError(t, err)
			require.Equal(t, job.ID, again.ID, "the same POST again is the same job")

			waitCtx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			var seen []int
			done, err := c.Bulk.Wait(waitCtx, job.ID, 20*time.Millisecond, func(j *sdk.BulkJob) { seen = append(seen, j.Done) })
			require.NoError(t, err)
			require.NotEmpty(t, seen)
			require.Equal(t, sdk.BulkDone, done.State)
			require.Equal(t, 4, done.Succeeded)
			require.Equal(t, 1, done.Failed)
			require.Equal(t, 4*price, done.Charged)
			require.Len(t, done.Rows, 5)
			last := done.Rows[4]
			require.Equal(t, sdk.BulkRowFailed, last.State)
			require.Contains(t, last.Message, "Insufficient")
			require.Zero(t, last.Charged)
			w, err = c.Wallet.Get(ctx)
			require.NoError(t, err)
			require.Zero(t, w.Balance, "deposit minus four prices")
			jobs, err := c.Bulk.Jobs(ctx)
			require.NoError(t, err)
			require.Len(t, jobs, 1)

			// Auto-renewal off for the four.
			off, err := c.Bulk.AutoRenew(ctx, sdk.BulkAutoRenewRequest{Names: wanted[:4], AutoRenew: false})
			require.NoError(t, err)
			done, err = c.Bulk.Wait(waitCtx, off.ID, 20*time.Millisecond, nil)
			require.NoError(t, err)
			require.Equal(t, 4, done.Succeeded)
			d, err := c.Domains.Get(ctx, "bulk-b.inf.nz")
			require.NoError(t, err)
			require.False(t, d.AutoRenew)

			// A DNS template on two of them.
			tmpl, err := c.Bulk.CreateTemplate(ctx, sdk.DNSTemplateRequest{Name: "Web", Records: []sdk.RecordSet{
				{Name: "www", Type: "A", Values: []string{"192.0.2.44"}}}})
			require.NoError(t, err)
			_, err = c.Bulk.CreateTemplate(ctx, sdk.DNSTemplateRequest{Name: "Broken", Records: []sdk.RecordSet{
				{Name: "www", Type: "A", Values: []string{"not-an-address"}}}})
			require.Equal(t, sdk.CodeInvalid, sdk.ErrorCode(err))
			applied, err := c.Bulk.ApplyTemplate(ctx, sdk.BulkDNSTemplateRequest{Names: wanted[:2], TemplateID: tmpl.ID})
			require.NoError(t, err)
			done, err = c.Bulk.Wait(waitCtx, applied.ID, 20*time.Millisecond, nil)
			require.NoError(t, err)
			require.Equal(t, 2, done.Succeeded, "%+v", done.Rows)
			records, err := c.DNS.List(ctx, "bulk-a.inf.nz")
			require.NoError(t, err)
			found := false
			for _, r := range records {
				found = found || r.Type == "A" && r.Name == "www" && r.Content == "192.0.2.44"
			}
			require.True(t, found, "%+v", records)
			templates, err := c.Bulk.Templates(ctx)
			require.NoError(t, err)
			require.Len(t, templates, 1)
			require.NoError(t, c.Bulk.DeleteTemplate(ctx, tmpl.ID))
			_, err = c.Bulk.Job(ctx, 999999)
			require.Equal(t, sdk.CodeNotFound, sdk.ErrorCode(err))
		})
	}
}
