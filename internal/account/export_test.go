package account

import "context"

// FlushKeyUses writes the queued uses of API keys now, as RecordKeyUses
// does when woken.
func (s *Service) FlushKeyUses(ctx context.Context) error { return s.writeKeyUses(ctx) }
