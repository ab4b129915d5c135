package registration

import "context"

// AutoRenew runs the renewal job's work.
func (s *Service) AutoRenew(ctx context.Context, args RenewArgs) error { return s.autoRenew(ctx, args) }

// FailAfterDebit makes renewals fail after their debit statement.
func (s *Service) FailAfterDebit(f func() error) { s.failAfterDebit = f }

// Following makes n follow the journal on CatchUp, as Watch does, without
// Watch's ticker.
func (n *Names) Following() *Names { n.watching.Store(true); return n }

// Tick does what one tick of Watch does.
func (n *Names) Tick(ctx context.Context) error { return n.refresh(ctx, true) }

// NamesStaleAfter and NamesReloadAfter are the index's bounds.
const NamesStaleAfter, NamesReloadAfter = staleAfter, reloadAfter
