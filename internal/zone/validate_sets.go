package zone

// ValidateSets checks sets as record sets of d, with the checks ReplaceSet
// makes of each set on its own (values, TTL, priorities, names), without
// writing anything: a DNS template is checked when it is saved (against any
// domain) and against each domain before it is applied. Returns invalid
// with ReplaceSet's messages, and when two sets have the same name and
// type.
func ValidateSets(d Domain, sets []Set) error {
	_, err := normalizeSets(d, sets)
	return err
}

// normalizeSets validates sets as record sets of d, in stored form, one
// slice of records a set.
func normalizeSets(d Domain, sets []Set) ([][]Record, error) {
	out := make([][]Record, 0, len(sets))
	seen := map[string]bool{}
	for _, set := range sets {
		records, err := normalizeSet(d, set)
		if err != nil {
			return nil, err
		}
		k := records[0].Name + " " + records[0].Type
		if seen[k] {
			return nil, invalid("The set %s %s appears twice", records[0].Type, records[0].Name)
		}
		seen[k] = true
		out = append(out, records)
	}
	return out, nil
}
