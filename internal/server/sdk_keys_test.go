package server_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/sdk"
)

// The SDK manages keys: made, listed, used within their scopes, rotated
// and revoked; a key without every scope may not manage keys.
func TestSDKKeys(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			b := sdkSetup(t, engine, nil)
			ctx := context.Background()

			keys, err := b.client.Keys.List(ctx)
			require.NoError(t, err)
			require.Len(t, keys, 1)
			require.Equal(t, "Default", keys[0].Name)
			require.True(t, keys[0].Primary)
			require.Equal(t, []string{sdk.ScopeRead, sdk.ScopeDNS, sdk.ScopeRegister, sdk.ScopeWallet}, keys[0].Scopes)
			require.Empty(t, keys[0].AllowedAddresses)
			require.Nil(t, keys[0].ExpiresAt)

			expires := time.Now().Add(30 * 24 * time.Hour).UTC().Truncate(time.Second)
			made, err := b.client.Keys.Create(ctx, sdk.APIKeyRequest{Name: "reader", Scopes: []string{sdk.ScopeRead},
				AllowedAddresses: []string{"127.0.0.1", "::1"}, ExpiresAt: &expires})
			require.NoError(t, err)
			require.Equal(t, "reader", made.Key.Name)
			require.Equal(t, []string{"127.0.0.1", "::1"}, made.Key.AllowedAddresses)
			require.True(t, made.Key.ExpiresAt.Equal(expires))
			require.False(t, made.Key.Primary)

			reader := sdkClient(b.url, made.Secret)
			_, err = reader.Wallet.Get(ctx)
			require.NoError(t, err)
			_, err = reader.Wallet.Deposit(ctx, sdk.DepositRequest{Amount: 5})
			var apiErr *sdk.Error
			require.True(t, errors.As(err, &apiErr), err)
			require.Equal(t, 403, apiErr.StatusCode)
			require.Equal(t, sdk.CodeForbidden, apiErr.Code)
			require.Equal(t, "This API key lacks the wallet scope", apiErr.Message)
			_, err = reader.Keys.List(ctx)
			require.Equal(t, sdk.CodeForbidden, sdk.ErrorCode(err), "managing keys takes every scope")

			rotated, err := b.client.Keys.Rotate(ctx, made.Key.ID)
			require.NoError(t, err)
			require.NotEqual(t, made.Secret, rotated.Secret)
			_, err = reader.Wallet.Get(ctx)
			require.Equal(t, sdk.CodeUnauthenticated, sdk.ErrorCode(err), "the old secret stops at once")
			_, err = sdkClient(b.url, rotated.Secret).Wallet.Get(ctx)
			require.NoError(t, err)

			require.NoError(t, b.client.Keys.Revoke(ctx, made.Key.ID))
			_, err = sdkClient(b.url, rotated.Secret).Wallet.Get(ctx)
			require.Equal(t, sdk.CodeUnauthenticated, sdk.ErrorCode(err))
			require.True(t, sdk.IsNotFound(b.client.Keys.Revoke(ctx, made.Key.ID)))
			require.Equal(t, sdk.CodeConflict, sdk.ErrorCode(b.client.Keys.Revoke(ctx, keys[0].ID)), "the first key stays")

			_, err = b.client.Keys.Create(ctx, sdk.APIKeyRequest{Name: "bad", Scopes: []string{sdk.ScopeRead}, AllowedAddresses: []string{"10.0.0.0/33"}})
			require.Equal(t, sdk.CodeInvalid, sdk.ErrorCode(err))
			keys, err = b.client.Keys.List(ctx)
			require.NoError(t, err)
			require.Len(t, keys, 1)
		})
	}
}
