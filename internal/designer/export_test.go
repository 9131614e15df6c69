package designer

// What the external tests (package designer_test) check of the package's insides.
var (
	// ChangeRegistry is the registry of change kinds a stored change is decoded by.
	ChangeRegistry = changeKinds
	// ExampleText holds the gallery's title and summary of each example, by id.
	ExampleText = exampleText
)

// ApplyPatchPlainly applies a patch the plain way, through the whole design's JSON, for tests that
// hold Apply's in-place way to the same result.
func ApplyPatchPlainly(c PatchDesign, d Design) (Design, error) { return c.applyPlain(d) }

// ApplyPatchInPlace applies a patch the in-place way only, failing where Apply would fall back to
// the plain way.
func ApplyPatchInPlace(c PatchDesign, d Design) (Design, error) {
	next, err := patchTyped(Normalize(d), c.Ops)
	return Normalize(next), err
}
