package designer

// Bounds of the numbers a design holds (docs/changes.md, "Numbers"). Every number a person sets —
// a rate, a count, a size, a price, capacity units, a generator's bounds — is finite and at most
// MaxNumber in size: past it no figure means anything, and figures multiplied from such numbers
// could overflow to infinity, which no answer can carry.
const (
	MaxNumber     = 1e15
	MaxHotKeySkew = 1e6
)

// maxNumberText is MaxNumber as messages write it.
const maxNumberText = "1,000,000,000,000,000"
