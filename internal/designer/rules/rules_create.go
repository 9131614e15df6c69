package rules

import (
	"errors"
	"strconv"

	"dynaloom/internal/designer"
)

// The rules of this file report what CreateTable, and so the CloudFormation and MCP model exports,
// would refuse and no other rule reports: a finding here is the export's refusal said first, at the
// same field (format's TestExports_refuseOnlyWhatValidationReports keeps the two in step).

// mod020TableKeys is MOD020: a table or index key DynamoDB cannot create. A table key attribute
// without a name or with one over 255 bytes, a sort key that is the partition key, an attribute
// given two types by the keys of one table, and every refusal of designer.IndexKey (an LSI on a
// table without a sort key, an LSI sorted by a table key, a GSI without a partition key, an
// attribute twice in one index key) but those MOD002, MOD003 and MOD004 report; an unknown
// projection type, or an INCLUDE attribute name DynamoDB cannot take.
func mod020TableKeys(d designer.Design, out []Finding) []Finding {
	for _, t := range d.Tables {
		tp := tablePath(t)
		types := map[string]designer.Type{}
		where := map[string]string{}
		clash := func(path, label string, k designer.KeyAttribute) {
			if !k.Type.KeyType() || k.Name == "" {
				return // MOD002, or the name's own finding
			}
			if first, ok := types[k.Name]; ok && first != k.Type {
				out = append(out, finding("MOD020", path, label+" keys on "+k.Name+" as "+string(k.Type)+", but "+where[k.Name]+
					" keys on it as "+string(first)+"; an attribute has one type in every key of a table, so give both the same type"))
				return
			} else if !ok {
				types[k.Name], where[k.Name] = k.Type, label
			}
		}
		keyName := func(path, role string, k designer.KeyAttribute) {
			switch {
			case k.Name == "":
				out = append(out, finding("MOD020", path+"/name", "The "+role+" of "+t.Name+" has no name; name the key attribute"))
			case len(k.Name) > designer.MaxDynamoNameLen:
				out = append(out, finding("MOD020", path+"/name", "The "+role+" of "+t.Name+" is named with "+strconv.Itoa(len(k.Name))+
					" bytes; DynamoDB takes key attribute names of at most "+strconv.Itoa(designer.MaxDynamoNameLen)+", so shorten it"))
			}
		}
		keyName(tp+"/partition_key", "partition key", t.PartitionKey)
		clash(tp+"/partition_key", "Table "+t.Name, t.PartitionKey)
		if t.SortKey != nil {
			keyName(tp+"/sort_key", "sort key", *t.SortKey)
			if t.SortKey.Name != "" && t.SortKey.Name == t.PartitionKey.Name {
				out = append(out, finding("MOD020", tp+"/sort_key/name", "The sort key of "+t.Name+" is "+t.SortKey.Name+
					", its partition key too; a table's sort key is another attribute, so choose one or remove the sort key"))
			} else {
				clash(tp+"/sort_key", "Table "+t.Name, *t.SortKey)
			}
		}
		for _, m := range modIndexes(t) {
			ip := indexPath(t, m.ix)
			label := m.kind() + " " + m.ix.Name
			if pk, sk, err := designer.IndexKey(t, m.lsi, m.ix.PartitionKey, m.ix.SortKey); err != nil {
				if !reportedElsewhere(t, m) {
					var ve *designer.ValidationError
					path, msg := ip, err.Error()
					if errors.As(err, &ve) {
						msg = ve.Message
						if ve.Field != "local" {
							path = ip + "/" + ve.Field
						}
					}
					out = append(out, finding("MOD020", path, label+" on "+t.Name+": "+msg))
				}
			} else {
				for _, part := range []struct {
					field string
					keys  []designer.KeyAttribute
				}{{"partition_key", pk}, {"sort_key", sk}} {
					for _, k := range part.keys {
						clash(ip+"/"+part.field, label, k)
					}
				}
			}
			switch m.ix.Projection.Type {
			case "", designer.All, designer.KeysOnly:
			case designer.Include:
				for _, a := range m.ix.Projection.Attributes {
					if a == "" || len(a) > designer.MaxDynamoNameLen {
						out = append(out, finding("MOD020", ip+"/projection/attributes", label+" on "+t.Name+" projects an attribute name of "+
							strconv.Itoa(len(a))+" bytes; DynamoDB takes 1 to "+strconv.Itoa(designer.MaxDynamoNameLen)+", so correct the name"))
						break
					}
				}
			default:
				out = append(out, finding("MOD020", ip+"/projection/type", label+" on "+t.Name+" has projection type "+inQuotes(m.ix.Projection.Type)+
					"; an index projects ALL, KEYS_ONLY or INCLUDE, so choose one"))
			}
		}
	}
	return out
}

// reportedElsewhere reports whether an index's key breaks a rule MOD002 (a key type other than
// S, N or B), MOD003 (too many key attributes) or MOD004 (an LSI's partition key) reports.
func reportedElsewhere(t designer.Table, m modIndex) bool {
	limit := maxGSIKeyAttributes
	if m.lsi {
		limit = 1
	}
	if len(m.ix.PartitionKey) > limit || len(m.ix.SortKey) > limit {
		return true
	}
	if m.lsi && len(m.ix.PartitionKey) == 1 && m.ix.PartitionKey[0].Name != t.PartitionKey.Name {
		return true
	}
	for _, keys := range [][]designer.KeyAttribute{m.ix.PartitionKey, m.ix.SortKey} {
		for _, k := range keys {
			if k.Type != "" && !k.Type.KeyType() {
				return true
			}
		}
	}
	return false
}

// mod021Billing is MOD021: a billing mode other than PAY_PER_REQUEST and PROVISIONED, or a
// PROVISIONED table without at least one read and one write capacity unit.
func mod021Billing(d designer.Design, out []Finding) []Finding {
	for _, t := range d.Tables {
		tp := tablePath(t)
		switch t.BillingMode {
		case "", designer.OnDemand:
		case designer.Provisioned:
			for _, u := range []struct {
				field, words string
				n            *int64
			}{{"read_capacity_units", "read", t.ReadUnits}, {"write_capacity_units", "write", t.WriteUnits}} {
				if u.n == nil || *u.n < 1 {
					given := "none"
					if u.n != nil {
						given = strconv.FormatInt(*u.n, 10)
					}
					out = append(out, finding("MOD021", tp+"/"+u.field, t.Name+" is PROVISIONED with "+given+" "+u.words+
						" capacity units; DynamoDB needs at least 1, so give its "+u.words+" capacity or make it PAY_PER_REQUEST"))
				}
			}
		default:
			out = append(out, finding("MOD021", tp+"/billing_mode", t.Name+" has billing mode "+inQuotes(t.BillingMode)+
				"; DynamoDB bills PAY_PER_REQUEST or PROVISIONED, so choose one"))
		}
	}
	return out
}
