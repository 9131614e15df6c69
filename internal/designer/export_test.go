package designer

// What the external tests (package designer_test) check of the package's insides.
var (
	// ChangeRegistry is the registry of change kinds a stored change is decoded by.
	ChangeRegistry = changeKinds
	// ExampleText holds the gallery's title and summary of each example, by id.
	ExampleText = exampleText
)
