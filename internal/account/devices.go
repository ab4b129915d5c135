package account

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/notify"
)

// Browsers an account signs in from. The web app gives each browser a
// long-lived random cookie (Client.Device); an account keeps a keyed hash
// of it per browser it signed in from. A sign-in from a browser the
// account has not used mails a notice (time, address, browser), unless
// the account had none on record: its first sign-in (sign-up) and the
// first one of accounts from before browsers were recorded stay quiet.
type knownDevice struct {
	bun.BaseModel `bun:"table:known_devices"`

	UserID     int64     `bun:"user_id,pk"`
	DeviceHash string    `bun:"device_hash,pk"`
	CreatedAt  time.Time `bun:"created_at"`
	LastSeenAt time.Time `bun:"last_seen_at"`
}

// deviceForget is how long a browser not signed in from stays known: a
// sign-in from it after that mails a notice again. An account's most
// recent browser is kept whatever its age, so that the first sign-in after
// a long absence still has something to compare with.
const deviceForget = 400 * 24 * time.Hour

// maxDeviceID bounds the device cookie taken; a longer one is not ours.
const maxDeviceID = 100

// noteDevice records that u signed in from c's browser, in tx, and
// queues the new-browser notice when the browser is new to u and u had
// others on record. A client without a device (API, tests) is not noted.
func (s *Service) noteDevice(ctx context.Context, tx *db.Tx, u *User, c Client, now time.Time) error {
	if c.Device == "" || len(c.Device) > maxDeviceID {
		return nil
	}
	// Keyed per account: the same browser is a different row for each.
	hash := s.twoFactor.Hash("device:" + strconv.FormatInt(u.ID, 10) + ":" + c.Device)
	res, err := tx.NewUpdate().Model((*knownDevice)(nil)).Set("last_seen_at = ?", now).
		Where("user_id = ?", u.ID).Where("device_hash = ?", hash).Exec(ctx)
	if err != nil {
		return fmt.Errorf("account: known device: %w", err)
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return nil
	}
	others, err := tx.NewSelect().Model((*knownDevice)(nil)).Where("user_id = ?", u.ID).Exists(ctx)
	if err != nil {
		return fmt.Errorf("account: known devices: %w", err)
	}
	if _, err := tx.NewInsert().Model(&knownDevice{UserID: u.ID, DeviceHash: hash, CreatedAt: now, LastSeenAt: now}).
		On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
		return fmt.Errorf("account: known device: %w", err)
	}
	if !others {
		return nil
	}
	return notify.Enqueue(ctx, tx, notify.Message{UserID: u.ID, Kind: notify.KindNewSignIn, Data: map[string]string{
		"at": notify.Time(now), "address": c.IP, "browser": BrowserOf(c.UserAgent)}})
}

// purgeDevices forgets browsers not signed in from for deviceForget,
// except each account's most recent one.
func (s *Service) purgeDevices(ctx context.Context, now time.Time) error {
	_, err := s.db.Bun.NewDelete().TableExpr("known_devices").
		Where("last_seen_at <= ?", now.Add(-deviceForget)).
		Where("EXISTS (SELECT 1 FROM known_devices AS newer WHERE newer.user_id = known_devices.user_id AND newer.last_seen_at > known_devices.last_seen_at)").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("account: purge known devices: %w", err)
	}
	return nil
}
