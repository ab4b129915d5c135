package server_test

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/servertest"
)

// TestClientAbortIsNotAServerError: a client that announces a body and
// hangs up halfway is logged as a client that closed its request (499, at
// info), not as a failure of the server (500, at error).
func TestClientAbortIsNotAServerError(t *testing.T) {
	t.Parallel()
	s := servertest.Start(t, db.SQLite, nil)
	for _, path := range []string{"/api/auth/login"} {
		c := dialFrom(t, "127.0.0.11", strings.TrimPrefix(s.URL, "http://"))
		_, err := io.WriteString(c, "POST "+path+" HTTP/1.1\r\nHost: nameport.test\r\n"+
			"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"+`{"username":"half`)
		require.NoError(t, err)
		require.NoError(t, c.Close())

		var line string
		require.Eventually(t, func() bool {
			for _, l := range strings.Split(s.Logs(), "\n") {
				if strings.Contains(l, `msg="http request"`) && strings.Contains(l, "path="+path+" ") {
					line = l
					return true
				}
			}
			return false
		}, 10*time.Second, 10*time.Millisecond, "the request is logged")
		require.Contains(t, line, "status=499", line)
		require.Contains(t, line, "level=INFO", line)
	}
	require.Contains(t, s.Logs(), `msg="client closed request"`)
	require.NotContains(t, s.Logs(), "level=ERROR", "nothing logged as a server error")
}
