package capacity

import (
	"math"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// hrWithCounts is the HR example with the counts of the employees sample database it is modelled
// on.
func hrWithCounts(t *testing.T) designer.Design {
	d := designertest.HRDesign(t)
	for _, c := range []struct{ entity, count string }{
		{"Employee", "300,024"}, {"Department", "9"}, {"SalaryRecord", "2,844,047"},
		{"TitleRecord", "443,308"}, {"DepartmentAssignment", "331,603"}, {"DepartmentManager", "24"},
	} {
		d = designertest.ApplyAll(t, d, designer.SetEntityField{Entity: c.entity, Field: "count", Value: c.count})
	}
	return d
}

// The HR example's figures, each one a reviewer can work out from the sample items by hand.
func TestCompute_hrExampleFiguresCheckByHand(t *testing.T) {
	r := Compute(hrWithCounts(t), nil)
	pattern := func(n int) PatternLoad {
		for _, p := range r.Patterns {
			if p.Number == n {
				return p
			}
		}
		t.Fatalf("no pattern %d", n)
		return PatternLoad{}
	}
	resource := func(table, index string) Resource {
		for _, x := range r.Resources {
			if x.Table == table && x.Index == index {
				return x
			}
		}
		t.Fatalf("no resource %s/%s", table, index)
		return Resource{}
	}

	// Pattern 1 reads employee 10001's 327-byte profile, eventually consistent: one 4 KB step at
	// half a unit, 0.5 RRU; at its peak of 30 RPS 15 RCU/s, at its average of 12 RPS 6.
	p1 := pattern(1)
	if o := p1.Operations[0]; o.BytesRead != 327 || o.ReadUnits != 0.5 || p1.Peak.RCU != 15 || p1.Average.RCU != 6 {
		t.Errorf("pattern 1: %v bytes, %v RRU, %+v at peak, %+v on average", o.BytesRead, o.ReadUnits, p1.Peak, p1.Average)
	}
	// Pattern 2 reads a 271-byte profile strongly consistent: 1 RRU, 20 RCU/s at 20 RPS.
	if p2 := pattern(2); p2.Operations[0].ReadUnits != 1 || p2.Operations[0].Consistency != designer.Strong || p2.Peak.RCU != 20 {
		t.Errorf("pattern 2: %+v", p2.Operations[0])
	}
	// Pattern 3 pages a department's members 50 at a time from EmployeesByDepartment, whose
	// entries measure 115 bytes in the samples: the samples hold fewer, so 50 from the result
	// bound × 115 = 5,750 bytes, two 4 KB steps, 1 RRU (a GSI read is eventual); 6 RCU/s at 6 RPS,
	// charged to the index.
	o3 := pattern(3).Operations[0]
	if o3.ItemsRead != 50 || o3.ItemsFrom != FromRequirement || o3.ItemBytes != 115 || o3.SizeFrom != FromSamples || o3.BytesRead != 5750 || o3.ReadUnits != 1 {
		t.Errorf("pattern 3: %+v", o3)
	}
	if byDept := resource("Employee", "EmployeesByDepartment"); byDept.Peak.RCU < 6 {
		t.Errorf("EmployeesByDepartment takes %v RCU/s at peak, want pattern 3's 6 among them", byDept.Peak.RCU)
	}
	// Pattern 13, a promotion, changes current_title, the key of EmployeesByTitle: a delete and a
	// put, 2 index writes, marked as a key change.
	var keyChange *IndexWriteLoad
	for _, o := range pattern(13).Operations {
		for i, iw := range o.IndexWrites {
			if iw.Index == "EmployeesByTitle" {
				keyChange = &o.IndexWrites[i]
			}
		}
	}
	if keyChange == nil || keyChange.Writes != 2 || !keyChange.KeyChange {
		t.Errorf("pattern 13's writes to EmployeesByTitle = %+v, want 2 marked as a key change", keyChange)
	}

	// Storage of the Employee table: 300,024 profiles at the samples' average of 280 bytes
	// ((327 + 232 + 271 + 303 + 267) / 5) and 331,603 department assignments of 96 bytes, each with
	// 100 bytes of overhead: 300,024 × 380 + 331,603 × 196 = 179,003,308 bytes, 0.1667 GB, $0.04
	// a month at $0.25 per GB-month.
	emp := resource("Employee", "")
	if emp.Storage.Items != 631_627 || emp.Storage.Bytes != 179_003_308 || emp.Storage.ItemsFrom != FromDesign {
		t.Errorf("Employee storage = %+v", emp.Storage)
	}
	if gb := math.Round(emp.Storage.GB*1e4) / 1e4; gb != 0.1667 || cents(emp.OnDemand.Storage) != 0.04 {
		t.Errorf("Employee storage = %v GB, $%v", emp.Storage.GB, emp.OnDemand.Storage)
	}
	// Every profile has a department, so EmployeesByDepartment holds 300,024 entries of 111 bytes.
	if ix := resource("Employee", "EmployeesByDepartment"); ix.Storage.Items != 300_024 || ix.Storage.AvgItemBytes != 111 {
		t.Errorf("EmployeesByDepartment storage = %+v", ix.Storage)
	}
	// Reads on demand are billed on the average load: pattern 1's 6 RCU/s for 2,635,200 s at
	// $0.125 per million is $1.98 of the Employee table's reads.
	if got := 6 * SecondsPerMonth * 0.125 / 1e6; cents(got) != 1.98 || emp.OnDemand.Reads < got {
		t.Errorf("Employee reads = %v, want pattern 1's 1.98 among them", emp.OnDemand.Reads)
	}
}
