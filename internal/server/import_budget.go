package server

import (
	"cmp"
	"context"
	"errors"
	"time"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format"
)

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
