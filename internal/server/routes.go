// The wiring: New, the middleware, the step registry (steps, in the method's order) and every
// route, read from it.

package server

import (
	"dynaloom/internal/designer"
	"dynaloom/internal/designer/derive"
	"dynaloom/internal/live"
	"dynaloom/internal/storage"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

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
	hub := live.New(opts.MaxStreamsPerClient, stepLabel)
	if opts.LockGrace > 0 {
		hub.SetLockGrace(opts.LockGrace)
	}
	s := &Server{store: store, log: log, echo: echo.New(), opts: opts, hub: hub, derived: derive.NewSetIn(store.Budget())}
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
	page.GET("/lock", s.lockPage)

	edit := page.Group("", requireEdit)
	edit.POST("/lead", s.saveLead)
	edit.POST("/view", s.saveView)
	edit.POST("/timer", s.saveTimer)
	edit.POST("/lock", s.saveLock)
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
	edit.POST("/aggregates/related", s.analyseRelated)
	edit.POST("/aggregates/paste", s.pasteAggregates)
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

// stepPage is the handler of st's page.
func (s *Server) stepPage(st step) echo.HandlerFunc {
	return func(c echo.Context) error { return st.page(s, c) }
}

// stepMiddleware is what st's page passes through first: the live refresh, the costly limit.
func (s *Server) stepMiddleware(st step) []echo.MiddlewareFunc {
	var mw []echo.MiddlewareFunc
	if st.live {
		mw = append(mw, s.refreshParts(st))
	}
	if st.costly {
		mw = append(mw, s.limitCostly)
	}
	return mw
}

// init fills the step registry, one entry a step in the method's order (docs/architecture.md,
// "A new step page").
func init() {
	steps = []step{
		{
			id: "overview", label: "Overview", path: "", page: (*Server).overviewPage, past: true, live: true,
			shows: []designer.Path{designer.PathOverview, designer.PathEntities, designer.PathRelationships}, parts: always(overviewParts), wholeLists: true,
			edits: []string{"name", "overview"},
			slot: &agendaSlot{5, "Agree what the service does, for whom, and how busy it gets.", []string{
				"What does the service do, in one sentence?",
				"Who calls it, and how many requests a second at the busiest hour?",
			}},
		},
		{
			id: "entities", label: "Entities", path: "/entities", page: (*Server).entitiesPage, past: true, live: true,
			shows: []designer.Path{designer.PathEntities, designer.PathRelationships, designer.PathAggregates, designer.PathTables, designer.DiagramPath(designer.EntityDiagram, "")},
			// The entity diagram shows the aggregate decisions and the key attributes the tables'
			// key templates name.
			parts:   withDiagram(designer.EntityDiagram, entityDiagramShows, []designer.Path{designer.PathAggregates, designer.PathTables, designer.PathDiagrams}, always(entityParts)),
			diagram: designer.EntityDiagram,
			edits:   []string{"entities", "relationships"},
			slot: &agendaSlot{8, "Name what the service keeps and how the things relate.", []string{
				"Which things does the service store, and what identifies each?",
				"For each relationship: how many on average, and at most?",
			}},
		},
		{
			id: "patterns", label: "Access patterns", path: "/patterns", page: (*Server).patternsPage, past: true, live: true,
			shows: []designer.Path{designer.PathPatterns}, parts: patternPageParts,
			edits: []string{"access_patterns"},
			slot: &agendaSlot{10, "List every read and write, with its rate and what it returns.", []string{
				"Which screen or job needs this, and how often at peak?",
				"Is every read matched by a write that puts the data there?",
				"How many items can it return, and must it see the latest write?",
			}},
		},
		{
			id: "aggregates", label: "Aggregates", path: "/aggregates", page: (*Server).aggregatesPage, past: true, live: true,
			shows: []designer.Path{designer.PathEntities, designer.PathRelationships, designer.PathAggregates, designer.PathConsolidations, designer.PathConsiderations, designer.PathTables},
			parts: always(aggregateParts), wholeLists: true,
			edits: []string{"aggregates", "consolidations", "considerations"},
			slot: &agendaSlot{8, "Decide what is stored together, from how it is read together.", []string{
				"When we read one, how often do we need the other too?",
				"Can the child exist without its parent? Is the parent's id always known?",
			}},
		},
		{
			id: "tables", label: "Tables & indexes", path: "/tables", page: (*Server).tablesPage, past: true, live: true,
			shows: []designer.Path{designer.PathEntities, designer.PathPatterns, designer.PathTables, designer.DiagramPath(designer.ModelMap, "")},
			// The model map shows everything of the tables and the patterns' verdicts.
			parts:   withDiagram(designer.ModelMap, modelMapShows, []designer.Path{designer.PathDiagrams}, tableParts),
			diagram: designer.ModelMap,
			edits:   []string{"tables"},
			slot: &agendaSlot{10, "Shape tables, keys and indexes, and fill in sample items.", []string{
				"Which key spreads the load over many values?",
				"Does each index earn its writes, and does it project only what its patterns read?",
			}},
		},
		{
			id: "mapping", label: "Mapping", path: "/mapping", page: (*Server).mappingPage, past: true, live: true,
			shows: []designer.Path{designer.PathEntities, designer.PathPatterns, designer.PathTables}, parts: mappingParts,
			edits: []string{"access_patterns/*/mapping"},
			slot: &agendaSlot{8, "Prove each pattern against the sample items.", []string{
				"Which operation serves this pattern, on which table or index?",
				"Does it return exactly what we expect, without a scan?",
			}},
		},
		{
			id: "capacity", label: "Capacity", path: "/capacity", page: (*Server).capacityPage, past: true, live: true,
			edits: []string{"capacity"},
			slot: &agendaSlot{6, "Read what the design costs a month and where a key runs hot at peak.", []string{
				"Which table or index costs the most, and is it reads, writes, index writes or storage?",
				"Does any key value come near 3,000 RCU or 1,000 WCU a second, and would sharding it spread the load?",
				"On demand or provisioned: which is cheaper at these rates?",
			}},
		},
		{
			id: "validation", label: "Validation", path: "/validation", page: (*Server).validationPage, past: true, live: true,
			edits: []string{"prose"},
			slot: &agendaSlot{3, "Clear the errors and agree on the warnings left.", []string{
				"Which findings do we fix now, and which do we accept, and why?",
			}},
		},
		{
			id: "export", label: "Export", path: "/export", page: (*Server).exportPage, costly: true,
			slot: &agendaSlot{2, "Take the two documents away.", []string{
				"Where do the documents go, and who reviews them?",
			}},
		},
		{id: "history", label: "History", path: "/history", page: (*Server).historyPage},
	}
	agenda = agendaOf(steps)
}
