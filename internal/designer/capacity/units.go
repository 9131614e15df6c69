package capacity

import "math"

// Bytes writes a size in the unit that reads best: "740 B", "12.5 KB", "3.2 GB", "1.41 TB"; binary
// units (a KB is 1,024 bytes), as GB is. Three significant digits from KB up.
func Bytes(b float64) string {
	if math.IsNaN(b) || math.IsInf(b, 0) {
		return Figure(b) + " B"
	}
	units := []string{"B", "KB", "MB", "GB", "TB", "PB"}
	i := 0
	for i < len(units)-1 && math.Abs(b) >= 1024 {
		b /= 1024
		i++
	}
	if i == 0 {
		return Figure(math.Round(b)) + " B"
	}
	return Figure(roundSignificant(b, 3)) + " " + units[i]
}
