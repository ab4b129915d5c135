// Package passkeytest is a software passkey authenticator for tests: it
// answers the WebAuthn options the server sends the way a browser with a
// platform authenticator would (an ES256 key, "none" attestation,
// discoverable credentials that verify their user), so that registration
// and sign-in ceremonies run for real in Go, without a browser.
package passkeytest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/go-webauthn/webauthn/protocol/webauthncbor"
)

var b64 = base64.RawURLEncoding

// Authenticator holds passkeys, as a phone or a laptop's secure chip does.
// Origin is the page the browser is on (the server's public address).
type Authenticator struct {
	Origin string
	keys   []*Credential
}

// Credential is one passkey the authenticator holds.
type Credential struct {
	ID         []byte
	RPID       string
	UserHandle []byte
	Key        *ecdsa.PrivateKey
	Count      uint32
}

// New returns an authenticator for pages at origin.
func New(origin string) *Authenticator { return &Authenticator{Origin: origin} }

// Credentials returns the passkeys it holds, oldest first.
func (a *Authenticator) Credentials() []*Credential { return a.keys }

// Create answers creation options ({"publicKey": …}, as the server sent
// them) with a new passkey: the JSON of the PublicKeyCredential.
func (a *Authenticator) Create(options map[string]any) (map[string]any, error) {
	pk, _ := options["publicKey"].(map[string]any)
	if pk == nil {
		return nil, fmt.Errorf("passkeytest: options without publicKey")
	}
	challenge, _ := pk["challenge"].(string)
	rp, _ := pk["rp"].(map[string]any)
	user, _ := pk["user"].(map[string]any)
	rpID, _ := rp["id"].(string)
	userID, _ := user["id"].(string)
	handle, err := b64.DecodeString(userID)
	if err != nil || challenge == "" || rpID == "" {
		return nil, fmt.Errorf("passkeytest: creation options lack a challenge, rp.id or user.id")
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	c := &Credential{ID: id, RPID: rpID, UserHandle: handle, Key: key}
	a.keys = append(a.keys, c)

	clientData := a.clientData("webauthn.create", challenge)
	x, y := make([]byte, 32), make([]byte, 32)
	key.PublicKey.X.FillBytes(x)
	key.PublicKey.Y.FillBytes(y)
	cose, err := webauthncbor.Marshal(map[int]any{1: 2, 3: -7, -1: 1, -2: x, -3: y})
	if err != nil {
		return nil, err
	}
	auth := authData(rpID, 0x45, c.Count)    // user present, user verified, attested credential data
	auth = append(auth, make([]byte, 16)...) // AAGUID: none
	auth = binary.BigEndian.AppendUint16(auth, uint16(len(id)))
	auth = append(auth, id...)
	auth = append(auth, cose...)
	att, err := webauthncbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": auth})
	if err != nil {
		return nil, err
	}
	return map[string]any{"id": b64.EncodeToString(id), "rawId": b64.EncodeToString(id), "type": "public-key",
		"response": map[string]any{"clientDataJSON": b64.EncodeToString(clientData),
			"attestationObject": b64.EncodeToString(att), "transports": []string{"internal"}},
		"clientExtensionResults": map[string]any{}}, nil
}

// Get answers request options with the passkey c: the JSON of the
// PublicKeyCredential of navigator.credentials.get.
func (a *Authenticator) Get(options map[string]any, c *Credential) (map[string]any, error) {
	pk, _ := options["publicKey"].(map[string]any)
	if pk == nil {
		return nil, fmt.Errorf("passkeytest: options without publicKey")
	}
	challenge, _ := pk["challenge"].(string)
	c.Count++
	clientData := a.clientData("webauthn.get", challenge)
	auth := authData(c.RPID, 0x05, c.Count) // user present, user verified
	sum := sha256.Sum256(clientData)
	digest := sha256.Sum256(append(append([]byte{}, auth...), sum[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, c.Key, digest[:])
	if err != nil {
		return nil, err
	}
	return map[string]any{"id": b64.EncodeToString(c.ID), "rawId": b64.EncodeToString(c.ID), "type": "public-key",
		"response": map[string]any{"clientDataJSON": b64.EncodeToString(clientData),
			"authenticatorData": b64.EncodeToString(auth), "signature": b64.EncodeToString(sig),
			"userHandle": b64.EncodeToString(c.UserHandle)},
		"clientExtensionResults": map[string]any{}}, nil
}

func (a *Authenticator) clientData(typ, challenge string) []byte {
	out, _ := json.Marshal(map[string]any{"type": typ, "challenge": challenge, "origin": a.Origin, "crossOrigin": false})
	return out
}

func authData(rpID string, flags byte, count uint32) []byte {
	h := sha256.Sum256([]byte(rpID))
	out := append(h[:], flags)
	return binary.BigEndian.AppendUint32(out, count)
}

// JSON returns v (options or an answer) through JSON, as it travels.
func JSON(v any) map[string]any {
	raw, _ := json.Marshal(v)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return out
}
