package account

import (
	"sync"
	"time"
)

// keyCache keeps the accounts and keys that recently authenticated /v1
// requests, so that a client's burst of requests asks the database once a
// second rather than once a request. An account or key change made by this
// process (key rotation or revocation, disabling, tier, verification)
// empties it at once; one made by another process reaches this one within
// keyCacheTTL.
type keyCache struct {
	mu      sync.RWMutex
	entries map[string]cachedKey // by key hash
}

type cachedKey struct {
	user  User
	grant *KeyGrant
	at    time.Time
}

const (
	keyCacheTTL = time.Second
	// keyCacheMax bounds the memory: past it the cache starts again.
	// Unknown keys are never kept, so guessing cannot fill it.
	keyCacheMax = 10000
)

// get returns a copy of the account of key hash, and the key's grant, if
// they were read within keyCacheTTL of now.
func (c *keyCache) get(hash string, now time.Time) (*User, *KeyGrant, bool) {
	c.mu.RLock()
	e, ok := c.entries[hash]
	c.mu.RUnlock()
	if !ok || now.Sub(e.at) >= keyCacheTTL || now.Before(e.at) {
		return nil, nil, false
	}
	u := e.user
	return &u, e.grant, true
}

func (c *keyCache) put(hash string, u *User, g *KeyGrant, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= keyCacheMax {
		c.entries = map[string]cachedKey{}
	}
	c.entries[hash] = cachedKey{user: *u, grant: g, at: now}
}

// forget empties the cache: an account has changed.
func (c *keyCache) forget() {
	c.mu.Lock()
	c.entries = nil
	c.mu.Unlock()
}
