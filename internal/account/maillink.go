package account

import (
	"encoding/base64"
	"encoding/hex"

	"github.com/nameport/nameport/internal/notify"
)

// Tokens in mailed links (password reset…) are HMAC(server secret, purpose
// and a random id). Mail jobs carry only the id; the link is made when the
// mail is sent, and the database keeps only the token's hash.
const purposePasswordReset = "password-reset"

// linkToken returns the token of the link with id for purpose: 43 URL-safe
// characters.
func (s *Service) linkToken(purpose, id string) string {
	raw, _ := hex.DecodeString(s.links.Hash(purpose + ":" + id)) // Hash is always hex
	return base64.RawURLEncoding.EncodeToString(raw)
}

// MailSecrets returns what makes the links of the account mails at send
// time, for notify.Options.Secrets.
func (s *Service) MailSecrets() map[string]notify.SecretFunc {
	return map[string]notify.SecretFunc{
		notify.KindPasswordReset: s.resetLink,
		notify.KindVerifyEmail:   s.verifyLink,
	}
}
