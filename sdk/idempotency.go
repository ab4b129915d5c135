package sdk

import (
	"context"
	"crypto/rand"
	"fmt"
)

type idempotencyKeyCtx struct{}

// WithIdempotencyKey returns a context whose call with an effect (Register,
// Deposit, DNS Upsert) carries key as its Idempotency-Key (at most 255
// characters) instead of a random one. Calls without an effect, Check
// included, send no key: the server stores nothing for them.
//
// Every call with an effect already gets a random key that stays the same across
// the SDK's own retries. Set your own when your program may itself send the
// same call again, e.g. after a crash: a key derived from your order number
// makes the server register and charge at most once, and a second call with
// that key and the same input gets the first call's answer back. The same
// key with a different input fails with CodeIdempotencyKeyReused.
//
// Use a context carrying a key for one call only.
func WithIdempotencyKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, idempotencyKeyCtx{}, key)
}

func idempotencyKeyFrom(ctx context.Context) string {
	key, _ := ctx.Value(idempotencyKeyCtx{}).(string)
	return key
}

// newIdempotencyKey returns a random UUID (version 4).
func newIdempotencyKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // cannot fail on a working system (never, since Go 1.24)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
