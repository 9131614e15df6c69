package server

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format"
	"dynaloom/web/templates"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

func (s *Server) homeModel() templates.Home {
	return templates.Home{Page: templates.Page{Title: "Dynaloom — design DynamoDB data models together"}, Examples: s.exampleGallery().cards}
}

func (s *Server) home(c echo.Context) error {
	return render(c, http.StatusOK, templates.HomeView(s.homeModel()))
}

// createDesignFromForm creates a blank design or a copy of an example, then opens it for editing.
func (s *Server) createDesignFromForm(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	name := form.get("name")
	var d designer.Design
	if ex := form.get("example"); ex != "" {
		d, err = designer.ExampleDesign(ex)
	} else {
		d, err = designer.New(name)
	}
	if r, refused := refusal(err); refused {
		var ve *designer.ValidationError
		errors.As(err, &ve)
		h := s.homeModel()
		h.Name, h.NameError = name, "The design name "+ve.Message+"."
		return render(c, r.Status, templates.HomeView(h))
	}
	if err != nil {
		return err
	}
	rec, tokens, err := s.store.Create(c.Request().Context(), d, author(c))
	if err != nil {
		return err
	}
	s.log.Info("design created", "design_id", rec.ID, "via", "page")
	// The answer carries the edit link: no cache may keep it.
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusSeeOther, "/d/"+tokens.Edit)
}

// gallery is the home page's examples: a card each, and each one's model map drawn as an SVG file
// for the card's thumbnail. The examples are built into the binary, so it is made once, on the
// first visit to the home page, and shared by every server of the process.
type gallery struct {
	cards []templates.ExampleCard
	// svgs holds each example's thumbnail by example id; an example whose map could not be drawn
	// has none, and its card shows no picture.
	svgs map[string][]byte
	// failed says why maps could not be drawn, for the log.
	failed []error
}

var (
	examples       = sync.OnceValue(buildGallery)
	galleryWarning sync.Once
)

// exampleGallery returns the gallery, saying once in the log which thumbnails could not be drawn.
func (s *Server) exampleGallery() *gallery {
	g := examples()
	if len(g.failed) > 0 {
		galleryWarning.Do(func() {
			for _, err := range g.failed {
				s.log.Warn("gallery thumbnail not drawn", "err", err)
			}
		})
	}
	return g
}

func buildGallery() *gallery {
	g := &gallery{svgs: map[string][]byte{}}
	for _, ex := range designer.Examples() {
		d, err := designer.ExampleDesign(ex.ID)
		if err != nil {
			g.failed = append(g.failed, err)
			continue // starting from it would fail too
		}
		card := templates.ExampleCard{Example: ex, Tables: len(d.Tables), Patterns: len(d.Patterns)}
		for _, t := range d.Tables {
			card.Indexes += len(t.GSIs) + len(t.LSIs)
		}
		if svg, err := thumbnailFile(d, ex.ID); err != nil {
			g.failed = append(g.failed, fmt.Errorf("example %s: %w", ex.ID, err))
		} else {
			g.svgs[ex.ID] = svg
			sum := sha256.Sum256(svg)
			// The content hash in the address lets the browser keep the file for good.
			card.Thumbnail = "/examples/" + ex.ID + "/model-map.svg?v=" + hex.EncodeToString(sum[:6])
		}
		g.cards = append(g.cards, card)
	}
	return g
}

// thumbnailFile is the model map of d as a file of its own.
func thumbnailFile(d designer.Design, id string) ([]byte, error) {
	svg, err := modelMapThumbnail(d, "thumb-"+id)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	if err := svg.Render(context.Background(), &b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// exampleThumbnail answers GET /examples/{id}/model-map.svg: the example's model map, drawn once.
func (s *Server) exampleThumbnail(c echo.Context) error {
	svg, ok := s.exampleGallery().svgs[c.Param("id")]
	if !ok {
		return echo.ErrNotFound
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	return c.Blob(http.StatusOK, "image/svg+xml", svg)
}

// uploadedFiles reads the multipart "file" parts of a request.
func uploadedFiles(c echo.Context) ([]format.File, error) {
	form, err := c.MultipartForm()
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, err
		}
		return nil, badInput("body: not a readable multipart form: %v", err)
	}
	var files []format.File
	for _, fh := range form.File["file"] {
		f, err := fh.Open()
		if err != nil {
			return nil, fmt.Errorf("open upload: %w", err)
		}
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("read upload: %w", err)
		}
		files = append(files, format.File{Name: fh.Filename, Data: data})
	}
	if len(files) == 0 {
		return nil, badInput("file: add a part named \"file\" holding the document")
	}
	return files, nil
}

func noteTexts(notes []format.ImportNote) []string {
	out := make([]string, 0, len(notes))
	for _, n := range notes {
		if n.Line > 0 {
			out = append(out, "Line "+strconv.Itoa(n.Line)+": "+n.Message)
		} else {
			out = append(out, n.Message)
		}
	}
	return out
}

func (s *Server) importPage(c echo.Context) error {
	return render(c, http.StatusOK, templates.ImportView(templates.Import{Page: templates.Page{Title: "Import a design · Dynaloom"}}))
}

// importUpload creates a design from an uploaded file and reports what it made of it. The report
// holds the new design's edit link, so no browser or cache may keep it.
func (s *Server) importUpload(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	files, err := uploadedFiles(c)
	if err != nil {
		return err
	}
	d, notes, err := s.importFiles(c, files)
	if r, refused := refusal(err); refused {
		page := templates.Import{Page: templates.Page{Title: "Import a design · Dynaloom"}, Error: err.Error()}
		return render(c, r.Status, templates.ImportView(page))
	}
	if err != nil {
		return err
	}
	rec, tokens, err := s.store.Create(c.Request().Context(), d, author(c))
	if err != nil {
		return err
	}
	s.log.Info("design created", "design_id", rec.ID, "via", "import", "notes", len(notes))
	return render(c, http.StatusOK, templates.ImportReportView(importReport(rec.Design, files, notes, "/d/"+tokens.Edit)))
}

// importReport says what an import read, what it kept as prose, and each note with its line; the
// notes come in the order of the file (of each file, for two).
func importReport(d designer.Design, files []format.File, notes []format.ImportNote, editURL string) templates.ImportReport {
	r := templates.ImportReport{Page: templates.Page{Title: "Imported · Dynaloom"}, Name: d.Name, EditURL: editURL, Read: readSummary(d)}
	for _, s := range d.Prose.Sections {
		r.Prose = append(r.Prose, s.Title)
	}
	type placed struct {
		file, line int
		note       templates.ImportNote
	}
	var all []placed
	for _, n := range notes {
		p := placed{line: n.Line, note: templates.ImportNote{Message: n.Message}}
		if len(files) > 1 {
			// Notes of two files start with the file's name (format.Import); it goes with the line.
			for i, f := range files {
				if rest, ok := strings.CutPrefix(n.Message, f.Name+": "); ok {
					p.file, p.note.File, p.note.Message = i, f.Name, rest
					break
				}
			}
		}
		if n.Line > 0 {
			p.note.Line = "line " + strconv.Itoa(n.Line)
		}
		all = append(all, p)
	}
	slices.SortStableFunc(all, func(a, b placed) int { return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line)) })
	for _, p := range all {
		r.Notes = append(r.Notes, p.note)
	}
	return r
}

// readSummary counts what a design holds: "2 tables, 3 GSIs, 14 access patterns, 5 entities, 4
// relationships, 28 sample items"; parts it has none of are left out, tables and patterns never.
func readSummary(d designer.Design) string {
	s := designer.Summarize(d)
	parts := []string{plural(s.Tables, "table", "tables")}
	for _, p := range []struct {
		n         int
		one, many string
	}{
		{s.GSIs, "GSI", "GSIs"}, {s.LSIs, "LSI", "LSIs"}, {s.Patterns, "access pattern", "access patterns"},
		{s.Entities, "entity", "entities"}, {len(d.Relationships), "relationship", "relationships"},
		{len(d.Aggregates), "aggregate analysis", "aggregate analyses"}, {s.Items, "sample item", "sample items"},
	} {
		if p.n > 0 || p.one == "access pattern" {
			parts = append(parts, plural(p.n, p.one, p.many))
		}
	}
	return strings.Join(parts, ", ")
}

// DefaultImportBudget is the time one import may work on its files (Options.ImportBudget). The formats bound the work of a
// file by its size (markdown.CheckShape refuses the shapes that cost more), so a legitimate
// 5 MiB document takes a few seconds; the budget makes sure that whatever input takes longer is
// refused with an answer well before the server's 60 s write timeout would cut the connection.
const DefaultImportBudget = 20 * time.Second

// importFiles reads a design from uploaded files for a request: the import stops when the client
// goes, and is refused, naming the budget, when it works past it.
func (s *Server) importFiles(c echo.Context, files []format.File) (designer.Design, []format.ImportNote, error) {
	budget := cmp.Or(s.opts.ImportBudget, DefaultImportBudget)
	ctx, cancel := context.WithTimeout(c.Request().Context(), budget)
	defer cancel()
	d, notes, err := format.ImportContext(ctx, files)
	if errors.Is(err, context.DeadlineExceeded) && c.Request().Context().Err() == nil {
		return designer.Design{}, nil, designer.Invalid("file", "took more than %s to read, the budget of one import; split the design into smaller files", budget)
	}
	return d, notes, err
}
