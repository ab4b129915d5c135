package account

import (
	"sync"
	"time"
)

// keyCache keeps the accounts that recently authenticated with an API key,
// so that a client's burst of /v1 requests asks the database once a
// second rather than once a request. An account change made by this
// process (key rotation, disabling, tier, verification) empties it at
// once; one made by another process reaches this one within keyCacheTTL.
type keyCache struct {
	mu      sync.RWMutex
	entries map[string]cachedKey // by key hash
}

type cachedKey struct {
	user User
	at   time.Time
}

const (
	keyCacheTTL = time.Second
	// keyCacheMax bounds the memory: past it the cache starts again.
	// Unknown keys are never kept, so guessing cannot fill it.
	keyCacheMax = 10000
)

// get returns a copy of the account of key hash if it was read within
// keyCacheTTL of now.
func (c *keyCache) get(hash string, now time.Time) (*User, bool) {
	c.mu.RLock()
	e, ok := c.entries[hash]
	c.mu.RUnlock()
	if !ok || now.Sub(e.at) >= keyCacheTTL || now.Before(e.at) {
		return nil, false
	}
	u := e.user
	return &u, true
}

func (c *keyCache) put(hash string, u *User, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= keyCacheMax {
		c.entries = map[string]cachedKey{}
	}
	c.entries[hash] = cachedKey{user: *u, at: now}
}

// forget empties the cache: an account has changed.
func (c *keyCache) forget() {
	c.mu.Lock()
	c.entries = nil
	c.mu.Unlock()
}
