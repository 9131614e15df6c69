package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"dynaloom/internal/designer"
	"dynaloom/web/templates"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"sync"

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
