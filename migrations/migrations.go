// Package migrations holds the schema of Nameport, one folder of numbered SQL
// files per database engine. Both folders describe the same schema; a change
// adds a file with the same number to each.
package migrations

import "embed"

// FS holds sqlite/*.sql and postgres/*.sql.
//
//go:embed sqlite/*.sql postgres/*.sql
var FS embed.FS
