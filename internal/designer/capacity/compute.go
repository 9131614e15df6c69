package capacity

import (
	"math"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// Compute works out the capacity and cost of d, running its operations through c (which may be
// nil: it then remembers nothing).
//
// Each operation of a pattern runs once per request of the pattern, against the sample items
// (completed from them where its values are missing, as dynamo.Complete does). A read's figures
// are the samples' unless they read fewer items than the pattern's result bound says one request
// reads (a per-page number where the bound gives one, and never more than the operation's Limit):
// then the bound's count is used, with the samples' average item size, or the item size band's
// upper end where the samples hold none. A write's figures are its run's; a write that cannot run
// is sized from the size band, saying why, and its index writes, like those of a write completed
// from a sample item, are estimated from its clauses (indexwrites.go).
func Compute(d designer.Design, c *dynamo.Cache) Report {
	r, _ := ComputeFrom(d, c, nil)
	return r
}

// patternLoad is p's identity and rates: a missing average is the peak, a missing peak the
// average.
func patternLoad(p designer.Pattern) PatternLoad {
	pl := PatternLoad{ID: p.ID, Number: p.Number, Description: p.Description, Type: p.Type,
		PeakFrom: FromDefault, AvgFrom: FromDefault}
	if p.PeakRPS != nil {
		pl.PeakRPS, pl.PeakFrom = upTo(*p.PeakRPS), FromDesign
	}
	if p.AvgRPS != nil {
		pl.AvgRPS, pl.AvgFrom = upTo(*p.AvgRPS), FromDesign
	}
	if p.ConditionalFailurePct != nil {
		pl.FailurePct = bounded(*p.ConditionalFailurePct, 0, designer.MaxFailurePct)
	}
	switch {
	case p.PeakRPS == nil && p.AvgRPS != nil:
		pl.PeakRPS = pl.AvgRPS
	case p.AvgRPS == nil && p.PeakRPS != nil:
		pl.AvgRPS = pl.PeakRPS
	}
	return pl
}

// DefaultItemBytes is the item size assumed when neither the sample items nor the size band give
// one: 1 KB.
const DefaultItemBytes = 1024

// operationLoad is what one request of op (the i-th operation of p) reads and writes.
func operationLoad(d designer.Design, c *dynamo.Cache, p designer.Pattern, i int, op designer.Operation) OperationLoad {
	ol := OperationLoad{Position: i, Op: op.Op, Table: op.Table, Index: op.Index}
	t, _, ok := d.TableByName(op.Table)
	if !ok {
		ol.Note = "no table named " + op.Table + "; nothing is counted"
		return ol
	}
	completed := false
	if len(dynamo.MissingValues(op)) > 0 {
		if done, _, ok := dynamo.Complete(d, op); ok {
			op, completed = done, true
		}
	}
	res := c.RunOperation(d, op)
	if designer.IsWriteOp(op.Op) {
		ol = writeLoad(ol, t, p, op, res, completed)
		if p.ConditionalFailurePct != nil {
			ol.FailedWriteUnits = ol.WriteUnits * bounded(*p.ConditionalFailurePct, 0, designer.MaxFailurePct) / 100
		}
		return ol
	}
	return readLoad(ol, t, p, op, res)
}

// readLoad fills in a read's figures.
func readLoad(ol OperationLoad, t designer.Table, p designer.Pattern, op designer.Operation, res dynamo.OperationResult) OperationLoad {
	gsi := op.Index != "" && isGSI(t, op.Index)
	factor := 0.5
	switch {
	case op.Op == "TransactGetItems":
		ol.Consistency, factor = Transactional, 2
	case op.Consistent && !gsi:
		ol.Consistency, factor = designer.Strong, 1
	default:
		ol.Consistency = designer.Eventual
	}
	perItem := op.Op != "Query" && op.Op != "Scan"
	keys := 1.0
	if perItem && op.Op != "GetItem" {
		if k, err := dynamo.KeysFromCondition(op); err == nil {
			keys = float64(len(k))
		}
	}
	band, hasBand := sizeBand(p.SizeBand)
	if res.Error != "" {
		ol.Note = "cannot run on the sample items (" + res.Error + "); sized from the requirement"
		ol.ItemsRead, ol.ItemsReturned, ol.ItemsFrom = keys, keys, FromDefault
		if !perItem {
			if n, ok := requestBound(p.ResultBound, op.Limit); ok {
				ol.ItemsRead, ol.ItemsReturned, ol.ItemsFrom = n, n, FromRequirement
			}
		}
		ol.ItemBytes, ol.SizeFrom = DefaultItemBytes, FromDefault
		if hasBand {
			ol.ItemBytes, ol.SizeFrom = band, FromRequirement
		}
		ol.BytesRead, ol.ReadUnits = readFigures(ol.ItemsRead, ol.ItemBytes, perItem, factor)
		return ol
	}
	read := float64(res.ScannedCount)
	ol.ItemsRead, ol.ItemsReturned, ol.ItemsFrom = read, float64(res.Count), FromSamples
	ol.BytesRead, ol.ReadUnits = float64(res.BytesRead), res.CapacityUnits
	ol.SizeFrom = FromSamples
	if read > 0 {
		ol.ItemBytes = float64(res.BytesRead) / read
	} else {
		ol.ItemBytes, ol.SizeFrom = DefaultItemBytes, FromDefault
		if hasBand {
			ol.ItemBytes, ol.SizeFrom = band, FromRequirement
		}
	}
	want := keys
	wantFrom := FromDefault
	if !perItem {
		want = 0
		if n, ok := requestBound(p.ResultBound, op.Limit); ok {
			want, wantFrom = n, FromRequirement
		}
	}
	if want > read {
		// The samples hold fewer items than one request reads: the requirement's count, at the
		// measured size where there is one.
		if read > 0 {
			ol.ItemsReturned = want * float64(res.Count) / read
		} else {
			ol.ItemsReturned = want
		}
		ol.ItemsRead, ol.ItemsFrom = want, wantFrom
		ol.BytesRead, ol.ReadUnits = readFigures(want, ol.ItemBytes, perItem, factor)
	}
	return ol
}

// readFigures are the bytes a read of n items of size bytes pays for and its read units: per item
// rounded up to 4 KB for a GetItem or batch, summed and rounded once for a Query or Scan, at least
// one unit.
func readFigures(n, size float64, perItem bool, factor float64) (bytes, units float64) {
	if perItem {
		return n * size, math.Max(n, 1) * math.Max(ceil(size/ReadUnitBytes), 1) * factor
	}
	bytes = n * size
	return bytes, math.Max(ceil(bytes/ReadUnitBytes), 1) * factor
}

// writeLoad fills in a write's figures from its run, or where it cannot run on the sample items
// from the requirement and its clauses. A write completed from a sample item (its values taken
// from one) changes that item to what it already holds, or the first item that fits, whatever
// its entity: its index writes are estimated from its clauses.
func writeLoad(ol OperationLoad, t designer.Table, p designer.Pattern, op designer.Operation, res dynamo.OperationResult, completed bool) OperationLoad {
	if op.Op == "TransactWriteItems" {
		ol.Consistency = Transactional
	}
	if res.Error != "" {
		ol.Note = "cannot run on the sample items (" + res.Error + "); sized from the requirement, index writes estimated from its clauses"
		n, from := 1.0, FromDefault
		if op.Op == "BatchWriteItem" || op.Op == "TransactWriteItems" {
			if b, ok := requestBound(p.ResultBound, nil); ok {
				n, from = b, FromRequirement
			}
		}
		ol.ItemsRead, ol.ItemsReturned, ol.ItemsFrom = n, 0, from
		ol.ItemBytes, ol.SizeFrom = DefaultItemBytes, FromDefault
		if b, ok := sizeBand(p.SizeBand); ok {
			ol.ItemBytes, ol.SizeFrom = b, FromRequirement
		}
		factor := 1.0
		if op.Op == "TransactWriteItems" {
			factor = 2
		}
		ol.WriteUnits = n * math.Max(ceil(ol.ItemBytes/WriteUnitBytes), 1) * factor
		ol.IndexWrites = clauseIndexWrites(t, p, op, n, ol.ItemBytes, ol.SizeFrom)
		return ol
	}
	written := 0.0
	size := 0
	for _, w := range res.ItemWrites {
		written++
		size += max(designer.ItemSize(w.Before), designer.ItemSize(w.After))
	}
	ol.ItemsRead, ol.ItemsFrom, ol.SizeFrom = written, FromSamples, FromSamples
	if written > 0 {
		ol.ItemBytes = float64(size) / written
	}
	ol.WriteUnits = res.CapacityUnits
	if completed {
		ol.IndexWrites = clauseIndexWrites(t, p, op, max(written, 1), ol.ItemBytes, ol.SizeFrom)
	} else {
		ol.IndexWrites = sampledIndexWrites(t, res)
	}
	return ol
}

// ceil rounds up, forgiving the float error of a quotient that is a whole number (7 / 0.7).
func ceil(x float64) float64 { return math.Ceil(x - 1e-9) }

func isGSI(t designer.Table, name string) bool {
	for _, ix := range t.GSIs {
		if ix.Name == name {
			return true
		}
	}
	return false
}
