package sdk

import (
	"context"
	"net/http"
	"strconv"
)

// KeysService manages your API keys: several, each with scopes (what it may
// do), optionally the client addresses it works from and an expiry. Reach
// it as Client.Keys. Every call needs a key with every scope (the first
// key, Default, has them); others get CodeForbidden naming the scopes they
// lack.
//
// Making and rotating a key answer its secret, which the server does not
// keep for a replay: these calls carry no Idempotency-Key and are never
// retried by the client. After a network error, list the keys to see
// whether the call took effect.
type KeysService struct{ c *Client }

// List returns your keys that are not revoked, oldest first.
func (s *KeysService) List(ctx context.Context) ([]APIKey, error) {
	var out APIKeyList
	if err := s.c.do(ctx, http.MethodGet, "/v1/keys", nil, nil, &out); err != nil {
		return nil, err
	}
	return out.Keys, nil
}

// Create makes a key and returns it with its secret, shown this once.
//
//	k, err := client.Keys.Create(ctx, sdk.APIKeyRequest{Name: "CI deploys",
//		Scopes: []string{sdk.ScopeRead, sdk.ScopeDNS}, AllowedAddresses: []string{"203.0.113.0/24"}})
//
// Errors: CodeInvalid for a bad name, scope, address or expiry (one in the
// past); CodeConflict when you have the most keys an account may have.
func (s *KeysService) Create(ctx context.Context, req APIKeyRequest) (*NewAPIKey, error) {
	var out NewAPIKey
	if err := s.c.once(ctx, http.MethodPost, "/v1/keys", req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Rotate gives key id a new secret and returns it, shown this once; the
// old secret stops working at once. Name, scopes, addresses and expiry
// stay. Rotating the key this client uses leaves the client with a key
// that no longer works: make a new client with the new secret.
//
// Errors: CodeNotFound when you have no such key.
func (s *KeysService) Rotate(ctx context.Context, id int64) (*NewAPIKey, error) {
	var out NewAPIKey
	if err := s.c.once(ctx, http.MethodPost, keyPath(id)+"/rotate", nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Revoke ends key id for good: it stops working at once.
//
// Errors: CodeNotFound when you have no such key; CodeConflict for the
// first key (Default), which can be rotated but not revoked.
func (s *KeysService) Revoke(ctx context.Context, id int64) error {
	return s.c.do(ctx, http.MethodDelete, keyPath(id), nil, nil, nil)
}

func keyPath(id int64) string { return "/v1/keys/" + strconv.FormatInt(id, 10) }
