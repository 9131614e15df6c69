package reqmd

import (
	"regexp"
	"strings"
	"sync"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
)

// The aggregate analysis as the seed writes it in words: "User 2KB + 5 recent orders 15KB = 17KB
// total, bounded growth", "Orders cannot exist without Users, always have user_id when querying
// orders", and the Identifying Relationship Check's "- **Appointment**: identified by its pet".
// What these read is stored; the words stay as written (in the size's notes, or as prose).

var (
	// sizeTotal is a size stated as the whole: "= 17KB total", "17 KB total", "combined max size
	// 17 KB"; sizeBound one stated as a bound: "under 1 KB", "at most 400 KB".
	sizeTotal = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:=\s*~?(\d+(?:\.\d+)?)\s*(kb|mb)\b|\b(\d+(?:\.\d+)?)\s*(kb|mb)\s+(?:in\s+)?total\b|combined (?:max(?:imum)? )?size (?:of )?~?(\d+(?:\.\d+)?)\s*(kb|mb)\b)`)
	})
	sizeBound = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:under|below|at most|max(?:imum)?|up to|less than)\s+~?(\d+(?:\.\d+)?)\s*(kb|mb)\b`)
	})
	boundedWords = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bunbounded\b|\bbounded\b|\b(?:at most|up to|max(?:imum)?|never more than)\s+\d[\d,]*\s+(?:\w+\s+)?items?\b`)
	})
	childDependent = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:cannot|can't|can not|never)\s+exists?\s+without\b|\bidentified by\b|\bnever without\b`)
	})
	childIndependent = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bcan exist (?:without|on (?:its|their) own)\b|\bexists? independently\b`)
	})
	parentKnown = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\balways (?:have|has|know|knows|known|starts? from)\b`)
	})
	parentUnknown = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bnot always (?:have|has|know|known)\b`)
	})
	noSeparateTable = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:no|without a|instead of a|eliminates? (?:the )?need for (?:a )?)\s*separate\b|\bis the partition key of\b`)
	})
)

// looseSize reads the combined size and whether it is bounded from a size written in words, as
// the seed's example does; nil where the words say nothing of one.
func looseSize(text string) (kb *float64, bounded *bool) {
	read := func(num, unit string) *float64 {
		v, err := designer.ParseKB(num)
		if err != nil || v == nil {
			return nil
		}
		if strings.EqualFold(unit, "mb") {
			*v *= 1024
		}
		return v
	}
	if m := sizeTotal().FindStringSubmatch(text); m != nil {
		for i := 1; i+1 < len(m); i += 2 {
			if m[i] != "" {
				kb = read(m[i], m[i+1])
				break
			}
		}
	} else if m := sizeBound().FindStringSubmatch(text); m != nil {
		kb = read(m[1], m[2])
	}
	if w := boundedWords().FindString(text); w != "" {
		b := !strings.EqualFold(w, "unbounded")
		bounded = &b
	}
	return kb, bounded
}

// looseIdentifying reads the answers words give to the identifying-relationship check into c,
// each only where c has none; it reports whether it read one.
func looseIdentifying(text string, c *designer.IdentifyingCheck) bool {
	read := false
	set := func(field **bool, yes, no *regexp.Regexp) {
		if *field != nil {
			return
		}
		var b bool
		switch {
		case no != nil && no.MatchString(text):
			b = false
		case yes != nil && yes.MatchString(text):
			b = true
		default:
			return
		}
		*field, read = &b, true
	}
	set(&c.ChildIndependent, childIndependent(), childDependent())
	set(&c.ParentIDKnown, parentKnown(), parentUnknown())
	set(&c.SeparateTablePlanned, nil, noSeparateTable())
	return read
}

// identifyingStatement is a bullet of the Identifying Relationship Check about one child entity:
// "- **Appointment**: identified by its pet (pattern 8 always starts from the pet)".
type identifyingStatement struct {
	child, text string
	line        int
}

// identifyingItem takes note of a statement about a child entity; the bullet is kept as prose
// all the same, since its words are the team's (applyIdentifying reads them once the entities
// are known).
func (p *parser) identifyingItem(it markdown.Item) {
	bl, ok := markdown.ParseBullet(it)
	if !ok {
		return
	}
	v, ok := bl.Value()
	if !ok || bl.Label == "" {
		return
	}
	p.identifying = append(p.identifying, identifyingStatement{child: markdown.OneLine(markdown.Unescape(bl.Label)), text: markdown.Unescape(v), line: it.Line})
}

// applyIdentifying gives each statement of the Identifying Relationship Check to the aggregate
// analysis whose second entity is its child, and marks identifying the consolidation review of
// the child whose parent the words name ("identified by its pet" for Pet → Appointment).
func (p *parser) applyIdentifying(d *designer.Design) {
	known := map[string]bool{}
	for _, e := range d.Entities {
		known[e.Name] = true
	}
	for _, st := range p.identifying {
		child := st.child
		if one, ok := singularEnd(child, known, known); ok {
			child = one
		}
		if !known[child] {
			continue
		}
		for i := range d.Aggregates {
			if a := &d.Aggregates[i]; a.EntityB == child && looseIdentifying(st.text, &a.Identifying) {
				p.note(st.line, "read the identifying-relationship answers of %s + %s from %q", a.EntityA, a.EntityB, markdown.OneLine(st.text))
			}
		}
		var check designer.IdentifyingCheck
		looseIdentifying(st.text, &check)
		if check.ChildIndependent == nil || *check.ChildIndependent {
			continue
		}
		words := strings.Fields(strings.ToLower(st.text))
		for i := range d.Consolidations {
			c := &d.Consolidations[i]
			if c.Child != child || c.Identifying != nil || !namesEntity(words, c.Parent) {
				continue
			}
			yes := true
			c.Identifying = &yes
			p.note(st.line, "read %s → %s as an identifying relationship from the Identifying Relationship Check", c.Parent, c.Child)
		}
	}
}

// namesEntity reports whether lower-cased words name an entity, singular or plural.
func namesEntity(words []string, entity string) bool {
	name := strings.ToLower(entity)
	for _, w := range words {
		w = strings.Trim(w, ".,;:!?()[]\"'`*_")
		if w == name || markdown.Singular(w) == name {
			return true
		}
	}
	return false
}
