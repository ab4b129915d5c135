package server

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/connlimit"
)

func TestFitBudgets(t *testing.T) {
	t.Parallel()
	defHTTP := connlimit.Limits{Total: 4096, PerClient: 128}
	defDNS := connlimit.Limits{Total: 1024, PerClient: 16}
	for _, tc := range []struct {
		name      string
		openFiles uint64
		http, dns connlimit.Limits
		cut       bool
	}{
		{"room to spare", 1 << 20, defHTTP, defDNS, false},
		{"exactly", 4096 + 1024 + fdReserve, defHTTP, defDNS, false},
		// 4096-512 = 3584 for connections, shared 4:1.
		{"common 4096", 4096, connlimit.Limits{Total: 2867, PerClient: 128}, connlimit.Limits{Total: 716, PerClient: 16}, true},
		{"tiny", 256, connlimit.Limits{Total: minConns, PerClient: minConns}, connlimit.Limits{Total: minConns, PerClient: minConns}, true},
	} {
		h, d, cut := fitBudgets(defHTTP, defDNS, tc.openFiles)
		require.Equal(t, tc.cut, cut, tc.name)
		require.Equal(t, tc.http, h, tc.name)
		require.Equal(t, tc.dns, d, tc.name)
		if cut && tc.openFiles > fdReserve+2*minConns {
			require.LessOrEqual(t, uint64(h.Total+d.Total+fdReserve), tc.openFiles, tc.name)
		}
	}
}
