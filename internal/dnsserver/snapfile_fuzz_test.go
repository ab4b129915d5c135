package dnsserver

import (
	"encoding/binary"
	"hash/crc32"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/zone"
)

// encodeSnapshotFile encodes data (zones with their domains) as a
// snapshot file.
func encodeSnapshotFile(identity string, data *zone.SnapshotData) []byte {
	enc := &snapshotEncoder{identity: identity}
	head := *data
	head.Zones = nil
	for _, z := range data.Zones {
		head.Zones = append(head.Zones, zone.ZoneData{Origin: z.Origin, Nameservers: z.Nameservers, Unsigned: z.Unsigned})
	}
	enc.start(&head)
	for _, z := range data.Zones {
		for _, d := range z.Domains {
			enc.domain(z.Origin, d)
		}
	}
	return enc.finish()
}

// decodeSnapshotFile decodes a snapshot file back into zones with their
// domains.
func decodeSnapshotFile(file []byte) (string, *zone.SnapshotData, error) {
	f, err := parseSnapshotFile(file)
	if err != nil {
		return "", nil, err
	}
	var out *zone.SnapshotData
	err = f.source()(func(head *zone.SnapshotData) error {
		out = head
		return nil
	}, func(origin string, d zone.DomainData) error {
		for i := range out.Zones {
			if out.Zones[i].Origin == origin {
				out.Zones[i].Domains = append(out.Zones[i].Domains, d)
			}
		}
		return nil
	})
	return f.identity, out, err
}

func fileTestData() *zone.SnapshotData {
	data := benchData(3)
	prio0, prioMax := 0, 65535
	data.Versions = zone.Versions{Zone: 1 << 40, Catalog: 7}
	data.Serial = 4294967295
	data.NextExpiry = time.Date(2031, 2, 3, 4, 5, 6, 789, time.UTC)
	data.Zones[0].Domains[1].Records = append(data.Zones[0].Domains[1].Records,
		zone.Record{ID: 99, Name: "_sip._tcp", Type: zone.TypeSRV, Content: "5 5060 sip.example.com", TTL: 604800, Priority: &prio0},
		zone.Record{ID: 100, Name: "*", Type: zone.TypeMX, Content: "mx.example.com", TTL: 300, Priority: &prioMax},
		zone.Record{ID: 101, Name: "@", Type: zone.TypeTXT, Content: "", TTL: 300})
	data.Zones = append(data.Zones, zone.ZoneData{Origin: "biz.ee.", Nameservers: []string{"ns1.biz.ee."}},
		zone.ZoneData{Origin: "orgn.uk.", Nameservers: []string{"ns1.orgn.uk.", "ns2.orgn.uk."},
			Domains: []zone.DomainData{{ID: 5, Name: "x", Records: []zone.Record{{ID: 6, Name: "@", Type: zone.TypeA, Content: "192.0.2.1", TTL: 300}}}}})
	for i := range data.Zones {
		for j := range data.Zones[i].Domains {
			for k := range data.Zones[i].Domains[j].Records {
				data.Zones[i].Domains[j].Records[k].DomainID = data.Zones[i].Domains[j].ID
			}
		}
	}
	return data
}

// What goes into a file comes out of it, to the nanosecond and the
// missing priority.
func TestSnapshotFileRoundTrip(t *testing.T) {
	t.Parallel()
	for _, data := range []*zone.SnapshotData{fileTestData(), {}} {
		identity, got, err := decodeSnapshotFile(encodeSnapshotFile("db/0020_x", data))
		require.NoError(t, err)
		require.Equal(t, "db/0020_x", identity)
		if data.Zones == nil {
			data.Zones = []zone.ZoneData{}
		}
		require.Equal(t, data, got)
	}
}

// Whatever a file holds, reading it gives an error or data, never a panic
// (the checksum made right, so that the decoder sees the damage).
func FuzzSnapshotFile(f *testing.F) {
	f.Add(encodeSnapshotFile("db/0020_x", fileTestData()))
	f.Add(encodeSnapshotFile("", &zone.SnapshotData{}))
	f.Fuzz(func(t *testing.T, file []byte) {
		if len(file) >= len(snapshotMagic)+4 {
			binary.BigEndian.PutUint32(file[len(file)-4:], crc32.Checksum(file[:len(file)-4], snapshotCRC))
		}
		_, _, _ = decodeSnapshotFile(file)
	})
}
