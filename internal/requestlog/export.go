package requestlog

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"time"
)

// ExportMax is the most entries one export holds, newest first: narrow the
// filter (a time range) for more.
const ExportMax = 100_000

// exportChunk is how many entries Export reads at a time, so that neither
// its memory nor its hold on the database grows with the log.
const exportChunk = 1000

// CSVHeader is the first row of an export.
var CSVHeader = []string{"time", "key_id", "key", "method", "path", "status", "latency_ms", "idempotency_key", "request_id"}

// Export writes userID's entries that match f as CSV to w, newest first,
// at most ExportMax of them. Returns invalid for a filter Check refuses;
// check first (Filter.Check) when nothing may be written before an error
// is known.
func (s *Service) Export(ctx context.Context, userID int64, f Filter, w io.Writer) error {
	if err := f.Check(); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return fmt.Errorf("requestlog: export: %w", err)
	}
	var before int64
	for done := 0; done < ExportMax; {
		list, err := s.List(ctx, userID, f, before, min(exportChunk, ExportMax-done))
		if err != nil {
			return err
		}
		for i := range list {
			if err := cw.Write(CSVRow(&list[i])); err != nil {
				return fmt.Errorf("requestlog: export: %w", err)
			}
		}
		done += len(list)
		if len(list) < exportChunk {
			break
		}
		before = list[len(list)-1].ID
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("requestlog: export: %w", err)
	}
	return nil
}

// CSVRow is e as a row of an export, under CSVHeader.
func CSVRow(e *Entry) []string {
	return []string{
		e.CreatedAt.UTC().Format("2006-01-02T15:04:05.000Z07:00"),
		strconv.FormatInt(e.KeyID, 10),
		SafeCell(e.KeyName),
		e.Method,
		SafeCell(e.Path),
		strconv.Itoa(e.Status),
		strconv.FormatFloat(float64(e.LatencyMicros)/float64(time.Millisecond/time.Microsecond), 'f', 3, 64),
		SafeCell(e.IdempotencyKey),
		SafeCell(e.RequestID),
	}
}

// SafeCell keeps a spreadsheet from reading a cell as a formula (CSV
// injection): text a client chose that begins with =, +, -, @, a tab or a
// carriage return gets a leading apostrophe, which spreadsheets show as
// text and do not evaluate.
func SafeCell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}
