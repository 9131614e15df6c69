// Package server owns Dynaloom's HTTP surface: the echo instance, its middleware, the pages, the
// JSON API and the one error handler. Handlers are thin: they parse the request, call designer and
// storage, and render a templ component or JSON.
package server

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"dynaloom/internal/designer/derive"
	"dynaloom/internal/live"
	"dynaloom/internal/storage"
)

// Options tune a Server. The zero value is usable.
type Options struct {
	// BodyLimit is the largest request body accepted, in bytes; 5 MiB when zero.
	BodyLimit int64
	// KeepAlive is how often an idle event stream gets a comment line; 15 s when zero.
	KeepAlive time.Duration
	// CreateLimit bounds how fast one client address creates designs (POST /designs, /api/designs
	// and /import): 10 a minute with bursts of 20 when zero.
	CreateLimit Rate
	// WriteLimit bounds how fast one client address changes one design (every POST and PUT on it
	// but /evaluate): 20 a second with bursts of 60 when zero.
	WriteLimit Rate
	// CostlyLimit bounds how fast one client address asks for the expensive answers: /evaluate,
	// exports and the export page, and imports: 5 a second with bursts of 30 when zero.
	CostlyLimit Rate
	// WriteBytesLimit bounds how many bytes of POST and PUT bodies one client address sends, per
	// second (PerSecond and Burst in bytes): 256 KiB a second with bursts of 32 MiB when zero.
	WriteBytesLimit Rate
	// TrustForwardedFor counts requests by the last X-Forwarded-For address instead of the
	// connection's, for a server behind a reverse proxy that sets that header.
	TrustForwardedFor bool
	// MaxStreamsPerClient bounds the live event streams one client address holds open (each
	// open workspace tab holds one): 200 when zero, none when negative.
	MaxStreamsPerClient int
	// MaxConnsPerClient bounds the TCP connections one client address holds open, and MaxConns
	// those of all clients together: 400 and 4,096 when zero, none when negative. Behind a proxy
	// (TrustForwardedFor) every connection comes from the proxy, so only MaxConns applies.
	MaxConnsPerClient, MaxConns int
	// ImportBudget is the time one import may work on its files (import_budget.go): 20 s when zero.
	ImportBudget time.Duration
}

// Default bounds (Options).
const (
	DefaultBodyLimit           = 5 << 20
	DefaultMaxStreamsPerClient = 200
	DefaultMaxConnsPerClient   = 400
	DefaultMaxConns            = 4096
)

// orDefault is n, or def when n is zero, or 0 (no bound) when n is negative.
func orDefault(n, def int) int {
	switch {
	case n == 0:
		return def
	case n < 0:
		return 0
	}
	return n
}

// Server serves one Dynaloom database.
type Server struct {
	store *storage.Store
	log   *slog.Logger
	echo  *echo.Echo
	opts  Options
	// hub is the live room of every design: streams, presence, lead and timer.
	hub live.Room
	// derived holds what is computed from recently used revisions (designContext.derived).
	derived *derive.Set

	createLimit, writeLimit, costlyLimit, writeBytesLimit *limiter
	conns                                                 *connLimiter
}

// New builds the server and its routes.
func New(store *storage.Store, log *slog.Logger, opts Options) *Server {
	if opts.BodyLimit <= 0 {
		// No bound is not offered: a body is read into memory.
		opts.BodyLimit = DefaultBodyLimit
	}
	if opts.KeepAlive == 0 {
		opts.KeepAlive = live.KeepAlive
	}
	opts.MaxStreamsPerClient = orDefault(opts.MaxStreamsPerClient, DefaultMaxStreamsPerClient)
	opts.MaxConnsPerClient = orDefault(opts.MaxConnsPerClient, DefaultMaxConnsPerClient)
	opts.MaxConns = orDefault(opts.MaxConns, DefaultMaxConns)
	s := &Server{store: store, log: log, echo: echo.New(), opts: opts, hub: live.New(opts.MaxStreamsPerClient, stepLabel), derived: derive.NewSetIn(store.Budget())}
	s.createLimit = newLimiter(opts.CreateLimit.orDefault(defaultCreateLimit), time.Now)
	s.writeLimit = newLimiter(opts.WriteLimit.orDefault(defaultWriteLimit), time.Now)
	s.costlyLimit = newLimiter(opts.CostlyLimit.orDefault(defaultCostlyLimit), time.Now)
	s.writeBytesLimit = newLimiter(opts.WriteBytesLimit.orDefault(defaultWriteBytesLimit), time.Now)
	store.OnCommit(func(rev storage.Revision, designID string) { s.hub.Publish(designID, rev) })
	e := s.echo
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = s.handleError
	e.Pre(middleware.RemoveTrailingSlash())
	e.Use(s.logRequests, s.recoverPanics, compress(), securityHeaders, crossOriginProtection(), s.limitBody, s.limitWriteBytes)

	e.GET("/healthz", s.healthz)
	e.GET("/static/*", serveStatic)
	e.GET("/", s.home)
	e.GET("/examples/:id/model-map.svg", s.exampleThumbnail)
	e.POST("/designs", s.createDesignFromForm, s.limitCreation)
	e.POST("/participant", s.setParticipant)

	e.GET("/import", s.importPage)
	e.POST("/import", s.importUpload, s.limitCreation, s.limitCostly)

	page := e.Group("/d/:token", s.resolveDesign, noStore, varyOnHTMX, s.limitWrites)
	for _, st := range steps {
		page.GET(st.path, s.stepPage(st), s.stepMiddleware(st)...)
	}
	page.GET("/export/:format", s.exportDownload, s.limitCostly)
	page.GET("/diagrams/:file", s.diagramDownload, s.limitCostly)
	page.GET("/history/diff", s.historyDiffPage)
	page.GET("/history/group", s.historyGroupRows)
	page.GET("/history/:n", s.revisionPage)
	page.GET("/history/:n/:step", s.revisionPage)
	page.GET("/events", s.pageEvents)
	page.POST("/presence", s.savePresence)
	page.GET("/comments", s.commentsPage)
	page.GET("/agenda", s.agendaPage)

	edit := page.Group("", requireEdit)
	edit.POST("/lead", s.saveLead)
	edit.POST("/view", s.saveView)
	edit.POST("/timer", s.saveTimer)
	edit.POST("/name", s.saveName)
	edit.POST("/history/undo", s.undoMine)
	edit.POST("/history/:n/restore", s.restoreRevision)
	edit.POST("/share/rotate", s.rotateLink)
	edit.POST("/share/expiry", s.setViewLinkExpiry)
	edit.POST("/overview/:field", s.saveOverviewField)
	edit.POST("/diagrams/move", s.moveDiagramNode)
	edit.POST("/diagrams/reset", s.resetDiagramLayout)
	edit.POST("/entities/add", s.addEntity)
	edit.POST("/entities/field", s.saveEntityField)
	edit.POST("/entities/move", s.moveEntity)
	edit.POST("/entities/delete", s.deleteEntity)
	edit.POST("/attributes/add", s.addAttribute)
	edit.POST("/attributes/field", s.saveAttributeField)
	edit.POST("/attributes/move", s.moveAttribute)
	edit.POST("/attributes/delete", s.deleteAttribute)
	edit.POST("/relationships/add", s.addRelationship)
	edit.POST("/relationships/field", s.saveRelationshipField)
	edit.POST("/relationships/delete", s.deleteRelationship)
	edit.POST("/patterns/add", s.addPattern)
	edit.POST("/patterns/field", s.savePatternField)
	edit.POST("/patterns/move", s.movePattern)
	edit.POST("/patterns/delete", s.deletePattern)
	edit.POST("/patterns/renumber", s.renumberPatterns)
	edit.POST("/aggregates/add", s.addAggregate)
	edit.POST("/aggregates/field", s.saveAggregateField)
	edit.POST("/aggregates/delete", s.deleteAggregate)
	edit.POST("/aggregates/scaffold", s.scaffoldAggregate)
	edit.POST("/entities/from-overview", s.addKeyEntities)
	edit.POST("/bulk/preview", s.bulkPreview)
	edit.POST("/bulk/add", s.bulkAdd)
	edit.POST("/consolidations/add", s.addConsolidation)
	edit.POST("/consolidations/field", s.saveConsolidationField)
	edit.POST("/consolidations/delete", s.deleteConsolidation)
	edit.POST("/considerations/:field", s.saveConsideration)
	edit.POST("/prose/:field", s.saveProse)
	edit.POST("/questions", s.answerQuestion)
	edit.POST("/tables/add", s.addTable)
	edit.POST("/tables/delete", s.deleteTable)
	edit.POST("/tables/field", s.saveTableField)
	edit.POST("/tables/attributes/add", s.addTableAttribute)
	edit.POST("/tables/attributes/from-entity", s.declareEntityAttributes)
	edit.POST("/tables/attributes/field", s.saveTableAttributeField)
	edit.POST("/tables/attributes/delete", s.deleteTableAttribute)
	edit.POST("/tables/entity-types/add", s.addEntityType)
	edit.POST("/tables/entity-types/field", s.saveEntityTypeField)
	edit.POST("/tables/entity-types/delete", s.deleteEntityType)
	edit.POST("/tables/indexes/add", s.addIndex)
	edit.POST("/tables/indexes/field", s.saveIndexField)
	edit.POST("/tables/indexes/delete", s.deleteIndex)
	edit.POST("/items/add", s.addItem)
	edit.POST("/items/duplicate", s.duplicateItem)
	edit.POST("/items/delete", s.deleteItem)
	edit.POST("/items/fill-keys", s.fillItemKeys)
	edit.POST("/items/paste", s.pasteItems)
	edit.POST("/items/generate", s.generateItems)
	edit.POST("/items/column", s.addItemColumn)
	edit.POST("/items/cell", s.saveItemCell)
	edit.POST("/capacity/setting", s.saveCapacitySetting)
	edit.POST("/mapping/add", s.addOperation)
	edit.POST("/mapping/delete", s.deleteOperation)
	edit.POST("/mapping/field", s.saveOperationField)
	edit.POST("/mapping/key", s.saveOperationKey)
	edit.POST("/mapping/update", s.addUpdateClause)
	edit.POST("/mapping/condition", s.addConditionClause)
	edit.POST("/mapping/notes", s.saveMappingNotes)
	edit.POST("/mapping/expected", s.toggleExpected)
	edit.POST("/mapping/expected/clear", s.clearExpected)
	edit.POST("/comments", s.addComment)
	edit.POST("/comments/resolve", s.resolveComment)
	edit.POST("/comments/delete", s.deleteComment)

	api := e.Group("/api", noStore)
	api.POST("/designs", s.apiCreateDesign, s.limitCreation)
	apiDesign := api.Group("/designs/:token", s.resolveDesign, s.limitWrites)
	apiDesign.GET("", s.apiGetDesign)
	apiDesign.PUT("", s.apiPutDesign, requireEdit)
	apiDesign.POST("/changes", s.apiPostChange, requireEdit)
	apiDesign.POST("/tokens/rotate", s.apiRotateToken, requireEdit)
	apiDesign.PUT("/tokens/view/expiry", s.apiSetViewExpiry, requireEdit)
	apiDesign.GET("/validation", s.apiValidation)
	apiDesign.GET("/capacity", s.apiCapacity)
	apiDesign.GET("/revisions", s.apiRevisions)
	apiDesign.GET("/revisions/:n", s.apiRevision)
	apiDesign.POST("/revisions/:n/restore", s.apiRestoreRevision, requireEdit)
	apiDesign.GET("/events", s.apiEvents)
	apiDesign.GET("/export/:format", s.exportDownload, s.limitCostly)
	apiDesign.POST("/evaluate", s.apiEvaluate, s.limitCostly)
	apiDesign.GET("/tables/:table/items", s.apiTableItems)
	apiDesign.GET("/tables/:table/indexes/:index/items", s.apiIndexItems)

	e.RouteNotFound("/*", func(c echo.Context) error { return echo.ErrNotFound })
	return s
}

// Handler returns the HTTP handler.
func (s *Server) Handler() http.Handler { return s.echo }

// HTTPServer wraps the handler with the timeouts a public server needs.
func (s *Server) HTTPServer(addr string) *http.Server {
	srv := &http.Server{
		Addr:              addr,
		Handler:           s.echo,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	perClient := s.opts.MaxConnsPerClient
	if s.opts.TrustForwardedFor {
		perClient = 0 // every connection comes from the proxy
	}
	s.conns = newConnLimiter(perClient, s.opts.MaxConns, s.log.Warn)
	srv.ConnState = s.conns.connState
	// Event streams never go idle by themselves: end them when the server shuts down.
	srv.RegisterOnShutdown(s.hub.Shutdown)
	return srv
}

// healthz answers 200 "ok" while the database can serve and save (storage.Store.Health), and 503
// naming the problem otherwise. The answer is written here rather than by the error handler:
// probes come every few seconds, and the store has already logged the problem once.
func (s *Server) healthz(c echo.Context) error {
	if err := s.store.Health(c.Request().Context()); err != nil {
		body := map[string]any{"error": map[string]string{"code": classify(err).Code, "message": err.Error()}}
		return c.JSON(http.StatusServiceUnavailable, body)
	}
	return c.String(http.StatusOK, "ok")
}
