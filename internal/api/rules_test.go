package api

import (
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

var updateFixtures = flag.Bool("update", false, "rewrite the web app's fixtures from the server")

// rulesFixture is what the web app's tests serve as GET /api/rules.
const rulesFixture = "../../web/src/test/fixtures/rules.json"

// The web tests read the rules the server publishes, not a copy typed by
// hand: the fixture must be the server's document. After changing a rule:
// go test ./internal/api -run TestWebRulesFixtureIsTheServers -update
func TestWebRulesFixtureIsTheServers(t *testing.T) {
	want, err := json.MarshalIndent(currentRules(), "", "  ")
	require.NoError(t, err)
	want = append(want, '\n')
	if *updateFixtures {
		require.NoError(t, os.WriteFile(rulesFixture, want, 0o644))
	}
	got, err := os.ReadFile(rulesFixture)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got), "web/src/test/fixtures/rules.json is stale: run "+
		"go test ./internal/api -run TestWebRulesFixtureIsTheServers -update")
}
