// Dynaloom's small client script: copy buttons and keyboard niceties. htmx does the rest.
(function () {
  "use strict";

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    return new Promise(function (resolve, reject) {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.className = "offscreen";
      document.body.appendChild(area);
      area.select();
      var ok = document.execCommand("copy");
      document.body.removeChild(area);
      ok ? resolve() : reject(new Error("copy refused"));
    });
  }

  // copyFrom copies the file at url, which the page does not carry: as a promised clipboard item
  // where the browser takes one (Safari's clipboard needs it while the click still counts), else
  // once fetched.
  function copyFrom(url) {
    var text = fetch(url, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("the file did not load: " + r.status);
      return r.text();
    });
    if (navigator.clipboard && window.isSecureContext && window.ClipboardItem) {
      return navigator.clipboard.write([new ClipboardItem({
        "text/plain": text.then(function (t) { return new Blob([t], { type: "text/plain" }); })
      })]);
    }
    return text.then(copyText);
  }

  document.addEventListener("click", function (ev) {
    var button = ev.target.closest("[data-copy-target], [data-copy-url]");
    if (!button) return;
    var url = button.getAttribute("data-copy-url");
    var field = url ? null : document.getElementById(button.getAttribute("data-copy-target"));
    if (!url && !field) return;
    var label = button.textContent;
    // A field copies its value; a <pre> of code its text.
    var text = field && ("value" in field ? field.value : field.textContent);
    (url ? copyFrom(url) : copyText(text)).then(function () {
      button.textContent = "Copied";
      button.classList.add("is-done");
    }, function () {
      if (field && "select" in field) field.select();
      else if (field) window.getSelection().selectAllChildren(field);
      button.textContent = field ? "Press Ctrl+C" : "Not copied: download it";
    }).finally(function () {
      setTimeout(function () {
        button.textContent = label;
        button.classList.remove("is-done");
      }, 1600);
    });
  });

  // A rail's button folds it away or brings it back. The browser remembers the choice in a cookie,
  // which the server reads to draw the page (rails.go), so a reload or a live refresh keeps it.
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest("[data-rail-toggle]");
    var workspace = document.getElementById("workspace");
    if (!button || !workspace) return;
    var rail = button.getAttribute("data-rail-toggle");
    if (!/^[a-z]+$/.test(rail)) return;
    var fold = !workspace.classList.contains(rail + "-folded");
    document.cookie = "dynaloom_fold_" + rail + "=" + (fold ? "1" : "0") + "; path=/; max-age=31536000; samesite=lax";
    workspace.classList.toggle(rail + "-folded", fold);
    var label = (fold ? "Show " : "Fold away ") + button.getAttribute("data-what");
    button.setAttribute("aria-expanded", fold ? "false" : "true");
    button.setAttribute("aria-label", label);
    button.setAttribute("title", label);
  });

  // Ctrl+Enter (or Cmd+Enter) in a text area saves it at once, without leaving the field.
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter" || !(ev.ctrlKey || ev.metaKey)) return;
    var area = ev.target.closest("textarea");
    if (area) {
      ev.preventDefault();
      area.dispatchEvent(new Event("change", { bubbles: true }));
    }
  });

  // Select the whole link when a share field gets focus, so it can be copied by hand.
  document.addEventListener("focusin", function (ev) {
    if (ev.target.matches && ev.target.matches("input[data-select-all]")) ev.target.select();
  });

  // Typing continues while a save is in flight. When the answer replaces the row around the field
  // being typed in, put the unsaved text back so nothing typed is lost.
  // A form's own text, once it is saved, is not pending: the answer holds what comes next (an
  // empty box for the next name). A refused form keeps its text.
  var pending = null;
  document.addEventListener("htmx:beforeSwap", function (ev) {
    var el = document.activeElement;
    var sent = ev.detail.requestConfig && ev.detail.requestConfig.elt, xhr = ev.detail.xhr;
    pending = null;
    if (sent && sent.tagName === "FORM" && sent.contains(el) && xhr && xhr.status >= 200 && xhr.status < 300) return;
    if (el && el.id && (el.tagName === "INPUT" || el.tagName === "TEXTAREA") && el.value !== el.defaultValue) {
      pending = { id: el.id, value: el.value, start: el.selectionStart, end: el.selectionEnd };
    }
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!pending) return;
    var el = document.getElementById(pending.id);
    if (el && el.value !== pending.value) {
      el.value = pending.value;
      if (document.activeElement !== el) el.focus();
      try { el.setSelectionRange(pending.start, pending.end); } catch (e) { /* not a text field */ }
      // The browser fires no change for a value set by script: leaving the field must still save it.
      var changed = false;
      var onChange = function () { changed = true; };
      el.addEventListener("change", onChange);
      el.addEventListener("blur", function () {
        el.removeEventListener("change", onChange);
        if (!changed && el.value !== el.defaultValue) el.dispatchEvent(new Event("change", { bubbles: true }));
      }, { once: true });
    }
    pending = null;
  });

  // saveThen fires the pending change of a field, and runs next once that save has answered.
  function saveThen(field, next) {
    if (field.value === field.defaultValue) { next(); return; }
    var done = function (ev) {
      if (ev.detail.elt !== field) return;
      document.removeEventListener("htmx:afterRequest", done);
      next();
    };
    document.addEventListener("htmx:afterRequest", done);
    field.dispatchEvent(new Event("change", { bubbles: true }));
  }

  // In the access-patterns grid, Enter moves down a row (Shift+Enter up) like a spreadsheet; Enter on
  // the last row adds a pattern, whose description then has the focus.
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var field = ev.target;
    if (!field.matches || !field.matches(".patterns-grid input[type=text], .patterns-grid textarea")) return;
    ev.preventDefault();
    var cell = field.closest("td");
    var row = field.closest("tr");
    var column = Array.prototype.indexOf.call(row.children, cell);
    var other = ev.shiftKey ? row.previousElementSibling : row.nextElementSibling;
    if (other) {
      var target = other.children[column] && other.children[column].querySelector("input, select, textarea");
      if (target) target.focus();
      return;
    }
    // Past a page's first or last row, the previous or next page of patterns opens there.
    var list = field.closest("#patterns");
    var turn = list && list.querySelector(ev.shiftKey ? "[data-testid=page-prev]" : "[data-testid=page-next]");
    if (turn && turn.tagName === "A") {
      turnPage(field, list, turn, column, ev.shiftKey ? "last" : "first");
      return;
    }
    if (ev.shiftKey) return;
    var add = document.querySelector("[data-testid=add-pattern]");
    if (!add) return;
    saveThen(field, function () { add.form.requestSubmit(); });
  });

  // The sample-item grid moves like a spreadsheet: arrows between cells (left and right at the ends
  // of the text), Enter down a row. Moving down from a page's last row opens the next page at its
  // first row, moving up from the first row the previous page at its last.
  var landing = null;
  function turnPage(field, grid, link, column, end) {
    saveThen(field, function () {
      landing = { link: link, grid: grid.id, column: column, end: end };
      link.click();
    });
  }
  document.addEventListener("htmx:afterSettle", function (ev) {
    var from = ev.detail.requestConfig && ev.detail.requestConfig.elt;
    var grid = landing && from === landing.link && document.getElementById(landing.grid);
    if (grid) {
      var rows = grid.querySelectorAll("tbody tr[data-item], tbody tr[data-testid=pattern-row]");
      var row = rows[landing.end === "first" ? 0 : rows.length - 1];
      var input = row && row.children[landing.column] && row.children[landing.column].querySelector("input[type=text], textarea");
      landing = null;
      if (input) {
        input.focus();
        input.select();
      }
      return;
    }
    // The row "go to item" found takes the focus: its first cell has it already (autofocus) when
    // the page can be edited, the row itself when it is read-only.
    var target = from && from.matches && from.matches("[data-testid=goto-form]") && document.querySelector(".items-grid tr.is-target");
    if (target && !target.contains(document.activeElement)) target.focus();
  });
  document.addEventListener("keydown", function (ev) {
    var field = ev.target;
    if (!field.matches || !field.matches(".items-grid input[type=text]")) return;
    var cell = field.closest("td");
    var row = field.closest("tr");
    var column = Array.prototype.indexOf.call(row.children, cell);
    var rows = Array.prototype.slice.call(field.closest("table").querySelectorAll("tbody tr[data-item]"));
    var at = rows.indexOf(row);
    var grid = field.closest("[data-testid=item-grid]");
    var target = null;
    if (ev.key === "ArrowDown" || (ev.key === "Enter" && !ev.shiftKey)) {
      target = rows[at + 1] && rows[at + 1].children[column];
      var next = !target && grid && grid.querySelector("[data-testid=page-next]");
      if (next) {
        ev.preventDefault();
        turnPage(field, grid, next, column, "first");
        return;
      }
    } else if (ev.key === "ArrowUp" || (ev.key === "Enter" && ev.shiftKey)) {
      target = rows[at - 1] && rows[at - 1].children[column];
      var prev = !target && grid && grid.querySelector("[data-testid=page-prev]");
      if (prev) {
        ev.preventDefault();
        turnPage(field, grid, prev, column, "last");
        return;
      }
    } else if (ev.key === "ArrowLeft" && field.selectionStart === 0 && field.selectionEnd === 0) {
      target = cell.previousElementSibling;
    } else if (ev.key === "ArrowRight" && field.selectionStart === field.value.length) {
      target = cell.nextElementSibling;
    } else {
      return;
    }
    var input = target && target.querySelector("input[type=text]");
    if (input) {
      ev.preventDefault();
      input.focus();
      input.select();
    } else if (ev.key === "Enter") {
      ev.preventDefault();
    }
  });

  // Mapping cards come collapsed. Opening one loads its operations from the server; the address
  // bar lists the open cards (?open=), so that a reload or a live refresh keeps them open.
  function setOpen(id, on) {
    var url = new URL(location.href);
    var open = url.searchParams.getAll("open").filter(function (o) { return o !== id; });
    if (on) open.push(id);
    url.searchParams.delete("open");
    open.forEach(function (o) { url.searchParams.append("open", o); });
    if (url.href !== location.href) history.replaceState(history.state, "", url.href);
  }
  document.addEventListener("toggle", function (ev) {
    var card = ev.target;
    if (!card.matches || !card.matches("details.mapping[data-detail]")) return;
    var id = new URL(card.getAttribute("data-detail"), location.href).searchParams.get("card");
    setOpen(id, card.open);
    if (card.open && !card.hasAttribute("data-loaded") && window.htmx) {
      card.setAttribute("data-loaded", "");
      htmx.ajax("GET", card.getAttribute("data-detail"), { target: card, swap: "outerHTML" });
    }
  }, true);
  // A pattern's code stays unfolded, as its reader left it, through the swaps that redraw its card.
  var openCode = {};
  document.addEventListener("click", function (ev) {
    var summary = ev.target.closest("details.pattern-code[id] > summary");
    if (!summary) return;
    var fold = summary.parentElement;
    if (fold.open) delete openCode[fold.id]; else openCode[fold.id] = true;
  });
  document.addEventListener("htmx:afterSettle", function () {
    Object.keys(openCode).forEach(function (id) {
      var fold = document.getElementById(id);
      if (fold && !fold.open) fold.open = true;
    });
  });
  // A link to a card (#map-…), from a finding or a comment, opens it.
  function openLinkedCard() {
    var target = location.hash.length > 1 && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    var card = target && target.closest("details.mapping");
    if (card && !card.open) card.open = true;
  }
  window.addEventListener("hashchange", openLinkedCard);
  document.addEventListener("DOMContentLoaded", openLinkedCard);

  // Pasting several lines or tab-separated values into a grid cell adds them as rows, as the paste
  // box under the grid does.
  document.addEventListener("paste", function (ev) {
    var field = ev.target;
    if (!field.matches || !field.matches(".items-grid input[type=text]")) return;
    var text = (ev.clipboardData || window.clipboardData).getData("text");
    if (text.indexOf("\n") < 0 && text.indexOf("\t") < 0) return;
    var grid = field.closest("[data-testid=item-grid]");
    var box = grid && grid.querySelector("[data-testid=paste-text]");
    if (!box) return;
    ev.preventDefault();
    box.value = text;
    box.form.requestSubmit();
  });
})();

// Live collaboration: the page's event stream (htmx SSE extension), presence, follow-me, and the
// choice offered when someone else changed the field being edited.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.htmx) return;

  // A tab keeps its id while it moves between steps, so the others see one participant.
  var tab = sessionStorage.getItem("dynaloom-tab");
  if (!tab || !/^[A-Za-z0-9]{16,64}$/.test(tab)) {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    tab = Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
    sessionStorage.setItem("dynaloom-tab", tab);
  }
  // The event stream names the tab. Any element that opens one gets it before htmx connects
  // (htmx:afterProcessNode), also one a swap brings in, so no swap can leave the page deaf.
  function streamWithTab(el) {
    var at = el && el.getAttribute && el.getAttribute("sse-connect");
    if (!at) return;
    var url = new URL(at, location.href);
    if (url.searchParams.get("tab") === tab) return;
    url.searchParams.set("tab", tab);
    el.setAttribute("sse-connect", url.pathname + url.search);
  }
  streamWithTab(live);
  document.addEventListener("htmx:beforeProcessNode", function (ev) { streamWithTab(ev.target); });
  var base = live.getAttribute("data-base");
  var step = live.getAttribute("data-step");
  var presenting = live.hasAttribute("data-presenting");

  // The revision the page shows: the live panel's, or a newer one an edit of this page made.
  var known = 0;
  function revision() {
    var aside = document.getElementById("aside");
    return Math.max(known, aside ? parseInt(aside.getAttribute("data-revision") || "0", 10) : 0);
  }
  // An edit that changed nothing else the side panel shows answers with the panel's revision
  // alone (#aside-revision): the panel is then at that revision.
  document.addEventListener("htmx:oobAfterSwap", function (ev) {
    var el = ev.target, aside = document.getElementById("aside");
    if (el && el.id === "aside-revision" && aside && el.hasAttribute("data-revision")) aside.setAttribute("data-revision", el.getAttribute("data-revision"));
  });
  // The revision everything on the page shows: a refresh brings it to the one it was drawn at; an
  // own edit moves it on only when no other change came between, which the next refresh brings.
  var shown = 0;
  // show records the revision the page shows, on the document too (data-shown-revision), where a
  // test or a person in the developer tools can see whether the page has caught up.
  function show(rev) {
    shown = rev;
    document.documentElement.setAttribute("data-shown-revision", String(rev));
  }
  show(revision());
  // Own edits in flight hold back a refresh until they have answered, so their answers are not
  // overtaken by an older rendering.
  var inflight = 0, latest = 0, whole = false;
  // An edit is counted off when its request ends, told by the request itself: htmx's own events
  // for it are lost when an answer (a reload of the step) has meanwhile removed the field that sent
  // it, and a count left behind would hold back every later refresh.
  function revisionOf(xhr) {
    return parseInt((xhr && xhr.status === 200 && xhr.getResponseHeader("X-Dynaloom-Revision")) || "0", 10);
  }
  document.addEventListener("htmx:beforeRequest", function (ev) {
    var xhr = ev.detail.xhr;
    if (!ev.detail.requestConfig || ev.detail.requestConfig.verb === "get" || !xhr) return;
    inflight++;
    xhr.addEventListener("loadend", function () {
      inflight = Math.max(0, inflight - 1);
      var rev = revisionOf(xhr);
      if (rev > known) known = rev;
      if (rev === shown + 1) show(rev);
      catchUp();
    });
  });
  document.addEventListener("htmx:afterRequest", function (ev) {
    if (!ev.detail.requestConfig || ev.detail.requestConfig.verb !== "get") return;
    // The step drawn again, whole or in parts; a GET that swaps in less (a grid's page) leaves
    // the rest of the page as it was.
    var rev = revisionOf(ev.detail.xhr);
    if (rev > shown && ev.detail.target && ev.detail.target.id === "workspace") show(rev);
  });
  function catchUp() {
    if (inflight === 0 && (latest > shown || whole)) refresh();
  }

  function post(path, fields) {
    var body = new URLSearchParams(fields);
    body.set("tab", tab);
    return fetch(base + path, { method: "POST", body: body, credentials: "same-origin" });
  }

  // The value a field had when the server rendered it (its attributes, not what is typed).
  function serverValue(el) {
    if (el.tagName === "TEXTAREA") return el.defaultValue !== undefined && el.isConnected ? el.defaultValue : el.textContent;
    if (el.tagName === "SELECT") {
      var opt = el.querySelector("option[selected]");
      return opt ? opt.value : (el.options && el.options.length ? el.options[0].value : "");
    }
    return el.getAttribute("value") || "";
  }
  function isField(el) {
    return el && el.nodeType === 1 && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT") && el.name === "value";
  }

  // Refreshing asks for the step again, naming the revision the page shows: the server answers
  // with only the parts changed since, out of band, or with the whole step. Either is morphed in:
  // only what changed is touched, and the field being typed in keeps its text. After a "reload"
  // event the page asks for the whole step.
  var lastAuthor = "";
  var refreshing = false, again = false;
  function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    var headers = whole ? {} : { "X-Dynaloom-Since": String(shown) };
    whole = false;
    htmx.ajax("GET", location.pathname + location.search, { target: "#workspace", select: "#workspace", swap: "morph:outerHTML", headers: headers })
      .finally(function () {
        refreshing = false;
        markEditing();
        markFollowed();
        if (again) { again = false; refresh(); }
      });
  }

  if (window.Idiomorph) {
    Idiomorph.defaults.ignoreActiveValue = true;
    Idiomorph.defaults.callbacks.beforeNodeMorphed = function (oldNode, newNode) {
      if (!isField(oldNode) || oldNode !== document.activeElement) return true;
      var before = serverValue(oldNode), theirs = serverValue(newNode);
      if (theirs === before) return true;
      if (oldNode.value === before) {
        oldNode.value = theirs; // not typed in yet: simply take the new value
        return true;
      }
      if (oldNode.value !== theirs) offerChoice(oldNode, oldNode.value, theirs, lastAuthor, latest);
      return false;
    };
  }

  // offerChoice shows, next to a field, that someone else changed it while it was being edited,
  // and lets the person keep their text or take the other one. Nothing is saved until they choose.
  // Keeping mine saves against revision at, the one that brought the other change: it overrides
  // what the person was shown, and a still later change of the field is another conflict.
  function offerChoice(field, mine, theirs, author, at) {
    closeChoice();
    field.setAttribute("data-conflict", "");
    var box = document.createElement("div");
    box.className = "conflict";
    box.setAttribute("role", "alertdialog");
    box.setAttribute("data-testid", "conflict");
    var p = document.createElement("p");
    var who = document.createElement("strong");
    who.textContent = author || "Someone";
    p.appendChild(who);
    p.appendChild(document.createTextNode(theirs === null ? " changed this field while you were editing it." : " changed this field while you were editing it, to “" + theirs + "”."));
    var yours = document.createElement("p");
    yours.className = "hint";
    yours.textContent = "Yours: “" + mine + "”";
    var keep = document.createElement("button");
    keep.type = "button";
    keep.className = "button small primary";
    keep.textContent = "Keep mine";
    keep.setAttribute("data-testid", "conflict-keep");
    var take = document.createElement("button");
    take.type = "button";
    take.className = "button small";
    take.textContent = "Take theirs";
    take.setAttribute("data-testid", "conflict-take");
    box.append(p, yours, keep, take);
    document.body.appendChild(box);
    var r = field.getBoundingClientRect();
    box.style.top = (window.scrollY + r.bottom + 6) + "px";
    box.style.left = (window.scrollX + Math.max(8, Math.min(r.left, window.innerWidth - 340))) + "px";
    var id = field.id;
    keep.addEventListener("click", function () {
      var el = document.getElementById(id);
      closeChoice();
      if (!el) return;
      el.value = mine;
      el.setAttribute("data-base", String(Math.max(at || 0, revision())));
      el.dispatchEvent(new Event("change", { bubbles: true }));
    });
    take.addEventListener("click", function () {
      var el = document.getElementById(id);
      closeChoice();
      if (el && theirs !== null) el.value = theirs;
      refresh();
    });
    keep.focus();
  }
  function closeChoice() {
    document.querySelectorAll(".conflict").forEach(function (b) { b.remove(); });
    document.querySelectorAll("[data-conflict]").forEach(function (f) { f.removeAttribute("data-conflict"); });
  }

  // A field remembers the revision it was first shown at when the person starts editing it; the
  // server refuses (409) a save over a later change of the same field by someone else.
  document.addEventListener("focusin", function (ev) {
    if (isField(ev.target) && !ev.target.hasAttribute("data-base")) ev.target.setAttribute("data-base", String(revision()));
  });
  document.addEventListener("htmx:confirm", function (ev) {
    if (ev.detail.elt && ev.detail.elt.hasAttribute && ev.detail.elt.hasAttribute("data-conflict")) ev.preventDefault();
  });
  // Every request names its tab: the server tells editors apart by it, as two people may share a
  // name and one person may have two tabs open.
  document.addEventListener("htmx:configRequest", function (ev) {
    ev.detail.headers["X-Dynaloom-Tab"] = tab;
    var el = ev.detail.elt;
    if (!isField(el) || ev.detail.verb !== "post") return;
    ev.detail.parameters["base_revision"] = el.getAttribute("data-base") || String(revision());
  });
  // A conflict is an answer the page expects, not a failure: nothing is swapped, and htmx is told
  // it is no error so that it does not report one.
  document.addEventListener("htmx:beforeSwap", function (ev) {
    var xhr = ev.detail.xhr, el = ev.detail.requestConfig && ev.detail.requestConfig.elt;
    if (!xhr || xhr.status !== 409 || !isField(el)) return;
    ev.detail.shouldSwap = false;
    ev.detail.isError = false;
    var author = "";
    try { author = decodeURIComponent((xhr.getResponseHeader("X-Dynaloom-Conflict-Author") || "").replace(/\+/g, " ")); } catch (e) { /* malformed */ }
    var mine = ev.detail.requestConfig && ev.detail.requestConfig.parameters ? ev.detail.requestConfig.parameters.value : el.value;
    if (mine instanceof FormData) mine = mine.get("value");
    var at = parseInt(xhr.getResponseHeader("X-Dynaloom-Conflict-Revision") || "0", 10);
    refresh();
    offerChoice(el, mine === undefined || mine === null ? el.value : String(mine), null, author, at);
  });

  // Events: a change newer than the page refreshes it, a reload redraws the step whole; follow
  // moves a follower to the leader's step.
  document.addEventListener("htmx:sseBeforeMessage", function (ev) {
    var msg = ev.detail;
    if (msg.type === "change") {
      ev.preventDefault();
      var data = {};
      try { data = JSON.parse(msg.data); } catch (e) { return; }
      lastAuthor = data.author || "";
      if (data.revision > latest) latest = data.revision;
      catchUp();
    } else if (msg.type === "reload") {
      // The stream fell behind and its queued changes were dropped: draw the step whole.
      ev.preventDefault();
      var behind = {};
      try { behind = JSON.parse(msg.data); } catch (e) { return; }
      if (behind.revision > latest) latest = behind.revision;
      if (latest > shown) whole = true;
      catchUp();
    } else if (msg.type === "follow") {
      ev.preventDefault();
      follow(String(msg.data));
    } else if (msg.type === "gone") {
      ev.preventDefault();
      var notice = document.getElementById("link-gone") || document.createElement("p");
      notice.id = "link-gone";
      notice.className = "toast";
      notice.setAttribute("role", "alert");
      notice.setAttribute("data-testid", "link-gone");
      notice.textContent = String(msg.data);
      document.body.appendChild(notice);
    }
  });
  document.addEventListener("htmx:sseMessage", function (ev) {
    if (ev.detail && (ev.detail.type === "presence" || ev.detail.type === "presence-delta")) {
      markEditing();
      showFollowState();
    }
  });

  // Presence: the field each other participant is editing gets an outline in their colour.
  function markEditing() {
    document.querySelectorAll("[data-editor]").forEach(function (el) {
      el.removeAttribute("data-editor");
      el.className = el.className.replace(/\s*\bediting-by who-line-\d\b/g, "");
    });
    document.querySelectorAll("#presence [data-focus]").forEach(function (chip) {
      var target = document.getElementById(chip.getAttribute("data-focus"));
      if (!target || !document.getElementById("main").contains(target)) return;
      var mark = document.getElementById(target.id + "-cell") || target;
      var color = (chip.className.match(/\bwho-(\d)\b/) || [])[1] || "0";
      mark.className += " editing-by who-line-" + color;
      mark.setAttribute("data-editor", chip.getAttribute("data-name"));
    });
  }

  // The server knows a tab once its event stream is open, and forgets its focus when the stream
  // drops: a focus is sent only on an open stream, and sent again when the stream (re)opens.
  var focusTimer = null, focused = "", streamOpen = false;
  function reportFocus(id) {
    clearTimeout(focusTimer);
    focusTimer = setTimeout(function () {
      if (id === focused) return;
      focused = id;
      if (streamOpen) post("/presence", { focus: id });
    }, id ? 120 : 400);
  }
  document.addEventListener("htmx:sseOpen", function () {
    streamOpen = true;
    if (focused) post("/presence", { focus: focused });
  });
  ["htmx:sseError", "htmx:sseClose"].forEach(function (name) {
    document.addEventListener(name, function () { streamOpen = false; });
  });
  document.addEventListener("focusin", function (ev) {
    var el = ev.target;
    if (el && el.id && document.getElementById("main").contains(el) && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)) reportFocus(el.id);
  });
  document.addEventListener("focusout", function () { reportFocus(""); });

  // Follow me: the facilitator leads, and the others' pages follow to where the leader is — the
  // step, the table tab and grid page, the open pattern cards, the element the leader works on and
  // the scroll position. The leader's page tells the server where it is (POST /view) whenever that
  // changes; a follower on another page goes there, one on the same page opens the same cards and
  // scrolls the same element to its top, whatever the size of its screen.
  function leader() { return document.querySelector("#presence [data-leader]"); }
  function leading() { var lead = leader(); return !!(lead && lead.hasAttribute("data-self")); }
  function following() { return presenting || sessionStorage.getItem("dynaloom-nofollow") !== "1"; }
  // stepPath is the path of a step relative to the design's link.
  function stepPath(id) { return id === "overview" ? "" : "/" + id; }
  // view is this page's address relative to the design's link, without the presenting flag;
  // sameView compares two of them leaving out the open cards, which a page opens in place.
  function view() {
    var url = new URL(location.href);
    url.searchParams.delete("present");
    url.searchParams.sort();
    var q = url.searchParams.toString();
    return url.pathname.slice(base.length) + (q ? "?" + q : "");
  }
  function withoutOpen(v) {
    var url = new URL(base + v, location.href);
    url.searchParams.delete("open");
    url.searchParams.delete("present");
    url.searchParams.sort();
    return url.pathname + "?" + url.searchParams.toString();
  }

  // The leader's side. followable is what a follower is shown as the element being worked on,
  // anchored the blocks whose place on the screen the followers copy.
  var followable = "details.mapping[id], tr[id], article[id], section[id], .card[id]";
  var anchored = "#main :is(section, article, details, tr, h2, h3)[id]";
  var lastOpened = "", viewSent = "", viewTimer = null;
  function onScreen(el) {
    var r = el.getBoundingClientRect();
    return r.height > 0 && r.bottom > 0 && r.top < window.innerHeight;
  }
  function workingOn() {
    var main = document.getElementById("main");
    var el = document.activeElement, at = null;
    if (el && el !== document.body && main.contains(el)) at = el.closest(followable);
    if (!at && lastOpened) {
      var card = document.getElementById(lastOpened);
      if (card && card.open) at = card;
    }
    return at && main.contains(at) && onScreen(at) ? at.id : "";
  }
  // topAnchor is the block at the top of the window: the first one starting in its top quarter,
  // or else the innermost one the top edge of the window cuts through.
  function topAnchor() {
    if (window.scrollY < 4) return "";
    var first = null, firstTop = Infinity, cut = null, cutHeight = Infinity;
    document.querySelectorAll(anchored).forEach(function (el) {
      var r = el.getBoundingClientRect();
      if (r.height === 0 || r.bottom <= 0) return;
      if (r.top >= -2 && r.top < firstTop) { first = el; firstTop = r.top; }
      if (r.top < 0 && r.height < cutHeight) { cut = el; cutHeight = r.height; }
    });
    if (first && (firstTop < window.innerHeight / 4 || !cut)) return first.id;
    return cut ? cut.id : "";
  }
  function tellView() {
    clearTimeout(viewTimer);
    viewTimer = setTimeout(function () {
      if (!leading()) return;
      var v = view();
      // Only a step's own page is a place to follow to (not a past revision, not a comparison).
      if (v.split("?")[0] !== stepPath(step)) return;
      var fields = { view: v, focus: workingOn(), top: topAnchor() };
      var key = JSON.stringify(fields);
      if (key === viewSent) return;
      viewSent = key;
      post("/view", fields);
    }, 250);
  }
  window.addEventListener("scroll", tellView, { passive: true });
  document.addEventListener("focusin", tellView);
  document.addEventListener("htmx:afterSettle", tellView);
  document.addEventListener("toggle", function (ev) {
    var card = ev.target;
    if (!card.matches || !card.matches("details.mapping[id]")) return;
    if (card.open) lastOpened = card.id;
    tellView();
  }, true);

  // The follower's side. A place is applied again for a moment after it arrives, as the cards it
  // opens load and push what is below them down.
  var placing = null, placeUntil = 0, followedID = "";
  // A follower typing in a field is not moved while the text is unsaved: the place waits until
  // the field is left and its save has answered, then the newest one is followed.
  var deferred = null;
  function typing() {
    var el = document.activeElement;
    return !!el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA") && el.value !== el.defaultValue;
  }
  function followLater() {
    if (deferred === null) return;
    if (typing() || inflight > 0) { setTimeout(followLater, 200); return; }
    var data = deferred;
    deferred = null;
    follow(data);
  }
  document.addEventListener("focusout", function () { if (deferred !== null) setTimeout(followLater, 200); });
  function follow(data) {
    var f = {};
    try { f = JSON.parse(data); } catch (e) { return; }
    if (leading() || !following() || !/^[a-z]+$/.test(f.step || "")) return;
    if (typing()) { deferred = data; return; }
    var to = typeof f.view === "string" && /^(\/[a-z]+)?(\?.*)?$/.test(f.view) ? f.view : "";
    if (!to) {
      // Only the step is known yet: the rest follows when the leader's page says where it is.
      if (f.step !== step) location.assign(base + stepPath(f.step) + (presenting ? "?present=1" : ""));
      return;
    }
    if (withoutOpen(to) !== withoutOpen(view())) {
      var url = new URL(base + to, location.href);
      if (presenting) url.searchParams.set("present", "1");
      location.assign(url.pathname + url.search);
      return;
    }
    var open = new URL(base + to, location.href).searchParams.getAll("open");
    document.querySelectorAll("details.mapping[data-detail]").forEach(function (card) {
      var id = new URL(card.getAttribute("data-detail"), location.href).searchParams.get("card");
      var on = open.indexOf(id) >= 0;
      if (card.open !== on) card.open = on;
    });
    placing = { top: typeof f.top === "string" ? f.top : "", focus: typeof f.focus === "string" ? f.focus : "" };
    placeUntil = Date.now() + 3000;
    followedID = placing.focus;
    place();
  }
  function place() {
    markFollowed();
    if (!placing) return;
    if (Date.now() > placeUntil) { placing = null; return; }
    var top = placing.top && document.getElementById(placing.top);
    if (!placing.top) window.scrollTo({ top: 0, behavior: "instant" });
    else if (top) window.scrollTo({ top: top.getBoundingClientRect().top + window.scrollY - 8, behavior: "instant" });
    // The element the leader works on is wholly in view, even where the screens cut differently.
    var focus = followedID && document.getElementById(followedID);
    var r = focus && focus.getBoundingClientRect();
    if (r && r.height > 0 && (r.top < 0 || r.bottom > window.innerHeight)) {
      focus.scrollIntoView({ block: r.height < window.innerHeight ? "nearest" : "start", behavior: "instant" });
    }
  }
  // markFollowed outlines, on a follower's page, the element the leader works on.
  function markFollowed() {
    document.querySelectorAll(".is-followed").forEach(function (el) {
      if (el.id !== followedID) el.classList.remove("is-followed");
    });
    var el = followedID && document.getElementById(followedID);
    if (el) el.classList.add("is-followed");
  }
  document.addEventListener("htmx:afterSettle", place);

  var wasLeading = false;
  function showFollowState() {
    var lead = leader();
    var me = !!(lead && lead.hasAttribute("data-self"));
    if (me && !wasLeading) {
      viewSent = "";
      tellView();
    }
    wasLeading = me;
    if (me || !lead) {
      followedID = "";
      markFollowed();
    }
    var button = document.querySelector("[data-lead-toggle]");
    if (button) {
      button.setAttribute("aria-pressed", me ? "true" : "false");
      button.textContent = me ? "Stop leading" : "Follow me";
    }
    var state = document.getElementById("follow-state");
    if (!state) return;
    state.hidden = !lead || me;
    if (lead && !me) {
      state.querySelector(".follow-text").textContent = (following() ? "Following " : "Not following ") + lead.getAttribute("data-name");
      var toggle = state.querySelector("[data-follow-toggle]");
      toggle.hidden = presenting;
      toggle.textContent = following() ? "Stop following" : "Follow";
    }
  }
  document.addEventListener("click", function (ev) {
    if (ev.target.closest("[data-lead-toggle]")) {
      post("/lead", { on: leading() ? "false" : "true" });
    } else if (ev.target.closest("[data-follow-toggle]")) {
      sessionStorage.setItem("dynaloom-nofollow", following() ? "1" : "0");
      showFollowState();
    }
  });

  // Step locks: the stream says what the room has locked when it opens and at each change; the
  // page then reads its lock bar and the steps rail again (who holds what, and whether this tab
  // does). While someone else holds the step, its edit controls are read-only, saying why; the
  // server refuses their edits anyway. Comments stay open: the room reads, and speaks.
  function lockShown() {
    var bar = document.getElementById("lock-bar");
    return !!(bar && (bar.hasAttribute("data-locked") || bar.querySelector("[data-section-lock]"))) || !!document.querySelector("#steps-list .lock-badge");
  }
  document.addEventListener("htmx:sseBeforeMessage", function (ev) {
    if (!ev.detail || ev.detail.type !== "locks") return;
    ev.preventDefault();
    var locks = [];
    try { locks = JSON.parse(ev.detail.data); } catch (e) { return; }
    var bar = document.getElementById("lock-bar");
    if (bar && bar.getAttribute("data-fetch") && (locks.length > 0 || lockShown())) {
      htmx.ajax("GET", bar.getAttribute("data-fetch"), { target: "#lock-bar", swap: "outerHTML" });
    }
  });
  function editControl(el) {
    if (el.type === "hidden" || el.closest("#lock-bar, [data-section-slot]")) return false;
    var poster = el.closest("[hx-post]");
    var to = poster ? poster.getAttribute("hx-post") : el.form && el.form.method === "post" ? el.form.getAttribute("action") : "";
    return !!to && !/\/comments(\/|$)/.test(to);
  }
  function textual(el) {
    return el.tagName === "TEXTAREA" || el.tagName === "INPUT" && /^(text|number|search|email|url|)$/.test(el.type);
  }
  // Section locks: the bar lists the step's sections locked on their own ([data-section-lock]).
  // Each part of the page that can be locked alone (a table, a card, a pattern) carries its path
  // (data-section) and a slot, where the page says who holds it, with Unlock or Take over, or
  // offers to lock it. The holder's name is set as text, never as markup.
  function sectionLocks(bar) {
    var out = {};
    if (bar) bar.querySelectorAll("[data-section-lock]").forEach(function (s) {
      out[s.getAttribute("data-section-lock")] = { label: s.getAttribute("data-label"), by: s.getAttribute("data-by"), reason: s.getAttribute("data-reason"), mine: s.hasAttribute("data-mine") };
    });
    return out;
  }
  var lockSVG = '<svg class="lock-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false"><rect x="3" y="7" width="10" height="8" rx="1.5" fill="currentColor"></rect><path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" stroke-width="1.6"></path></svg>';
  function sectionButton(bar, section, action, text, question, testID) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "button small";
    b.textContent = text;
    b.setAttribute("data-testid", testID);
    b.addEventListener("click", function () {
      if (question && !window.confirm(question)) return;
      htmx.ajax("POST", bar.getAttribute("data-action"), { target: "#lock-bar", swap: "outerHTML",
        values: { step: bar.getAttribute("data-step"), section: section, action: action } });
    });
    return b;
  }
  function drawSections(main, bar, locks) {
    var canEdit = !!bar && bar.hasAttribute("data-can-edit"), stepLocked = !!bar && bar.hasAttribute("data-locked");
    main.querySelectorAll("[data-section]").forEach(function (part) {
      var slot = part.querySelector("[data-section-slot]");
      if (!slot) return;
      var section = part.getAttribute("data-section"), l = locks[section];
      var state = l ? (l.mine ? "mine " : "held ") + l.by + " " + l.label : stepLocked ? "step" : canEdit ? "free" : "";
      if (slot.getAttribute("data-drawn") === state) return;
      slot.setAttribute("data-drawn", state);
      slot.replaceChildren();
      part.classList.toggle("is-section-locked", !!l && !l.mine);
      if (state === "" || state === "step") return;
      if (!l) {
        var take = sectionButton(bar, section, "take", "Lock", "", "section-lock-take");
        take.title = "Lock this part alone, so that only you edit it while the room reads";
        slot.appendChild(take);
        return;
      }
      var badge = document.createElement("span");
      badge.className = "lock-badge";
      badge.setAttribute("data-testid", l.mine ? "section-lock-mine" : "section-lock-held");
      badge.title = l.mine ? "You hold the lock on " + l.label : l.reason;
      badge.innerHTML = lockSVG;
      var by = document.createElement("span");
      by.className = "lock-by";
      by.textContent = l.mine ? "You" : l.by;
      badge.appendChild(by);
      slot.appendChild(badge);
      if (l.mine) slot.appendChild(sectionButton(bar, section, "release", "Unlock", "", "section-lock-release"));
      else if (canEdit) slot.appendChild(sectionButton(bar, section, "takeover", "Take over", l.by + " holds the lock on " + l.label + ". Take it over? Their edits here will be refused until you unlock it.", "section-lock-takeover"));
    });
  }
  // blockedBy is why el may not be edited now: its step or its section is locked by someone else.
  function blockedBy(el, stepReason, locks) {
    if (stepReason) return stepReason;
    var part = el.closest("[data-section]"), l = part && locks[part.getAttribute("data-section")];
    return l && !l.mine ? l.reason : "";
  }
  function applyLock() {
    var main = document.getElementById("main"), bar = document.getElementById("lock-bar");
    if (!main) return;
    var stepReason = bar && bar.getAttribute("data-blocked"), locks = sectionLocks(bar);
    drawSections(main, bar, locks);
    main.querySelectorAll("[data-lock-off]").forEach(function (el) {
      var reason = blockedBy(el, stepReason, locks);
      if (reason) { el.title = reason; return; }
      if (el.getAttribute("data-lock-off") === "readonly") el.readOnly = false; else el.disabled = false;
      el.removeAttribute("data-lock-off");
      if (el.hasAttribute("data-lock-title")) el.title = el.getAttribute("data-lock-title"); else el.removeAttribute("title");
      el.removeAttribute("data-lock-title");
    });
    if (!stepReason && Object.keys(locks).length === 0) return;
    main.querySelectorAll("input, select, textarea, button").forEach(function (el) {
      if (el.hasAttribute("data-lock-off") || !editControl(el)) return;
      var reason = blockedBy(el, stepReason, locks);
      if (!reason) return;
      var text = textual(el);
      if (text ? el.readOnly : el.disabled) return; // so already, as the server drew it
      if (el.hasAttribute("title")) el.setAttribute("data-lock-title", el.title);
      if (text) el.readOnly = true; else el.disabled = true;
      el.setAttribute("data-lock-off", text ? "readonly" : "disabled");
      el.title = reason;
    });
  }
  applyLock();
  document.addEventListener("htmx:afterSettle", applyLock);
  document.addEventListener("htmx:oobAfterSwap", applyLock);

  // htmx swaps nothing for a refused request. When the server asks to slow down (429), show its
  // message, which says when to try again, for as long as the wait lasts; a limit passed (413) or
  // storage that cannot save (503, 507) or an edit of a step someone else holds locked (423) is
  // shown the same way, so no refusal goes unseen.
  document.addEventListener("htmx:responseError", function (ev) {
    var xhr = ev.detail.xhr;
    if (!xhr || [413, 423, 429, 503, 507].indexOf(xhr.status) < 0) return;
    var page = new DOMParser().parseFromString(xhr.responseText, "text/html");
    var message = page.querySelector("[data-testid=error-message]");
    var id = xhr.status === 429 ? "slow-down" : "refused";
    var toast = document.getElementById(id);
    if (!toast) {
      toast = document.createElement("p");
      toast.id = id;
      toast.className = "toast";
      toast.setAttribute("role", "alert");
      toast.setAttribute("data-testid", id);
      document.body.appendChild(toast);
    }
    toast.textContent = message ? message.textContent :
      xhr.status === 429 ? "Too many requests at once. Wait a moment and try again." : "The server did not save this. Reload the page to see what it holds.";
    var seconds = parseInt(xhr.getResponseHeader("Retry-After"), 10) || 5;
    clearTimeout(toast.hideTimer);
    toast.hideTimer = setTimeout(function () { toast.remove(); }, Math.max(seconds, 4) * 1000);
  });
})();

// Comments: an open thread panel follows the design live, like the step behind it.
(function () {
  "use strict";
  document.addEventListener("htmx:sseBeforeMessage", function (ev) {
    if (!ev.detail || ev.detail.type !== "change") return;
    var panel = document.getElementById("comments-panel");
    var thread = document.getElementById("comments-thread");
    if (!panel || !thread || !panel.matches(":popover-open")) return;
    var data = {};
    try { data = JSON.parse(ev.detail.data); } catch (e) { return; }
    if (data.revision > parseInt(thread.getAttribute("data-revision") || "0", 10)) htmx.trigger(thread, "refresh");
  });
})();

// Designs opened in this browser: each workspace page records its link, the design's name and
// when it was opened in localStorage, and the home page lists them with a way to forget one.
// The list never leaves the browser: nothing here talks to the server.
(function () {
  "use strict";
  var KEY = "dynaloom-designs", MOST = 20;
  var linkPath = /^\/d\/[A-Za-z0-9_-]{16,}$/;

  function load() {
    var list;
    try { list = JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { list = []; }
    if (!Array.isArray(list)) return [];
    return list.filter(function (d) {
      return d && typeof d.href === "string" && linkPath.test(d.href) && typeof d.name === "string" &&
        (d.kind === "edit" || d.kind === "view") && typeof d.at === "number";
    });
  }
  function save(list) {
    try { localStorage.setItem(KEY, JSON.stringify(list.slice(0, MOST))); } catch (e) { /* storage full or refused: the list is a convenience */ }
  }

  // A workspace page (not the projector's) records itself when it opens and again when it is left,
  // and takes a rename into the list as soon as the top bar shows it (a live rename included).
  // A past revision (/d/<token>/history/<n>/…) records the design's link but not its past name.
  var live = document.getElementById("live");
  if (live && !live.hasAttribute("data-presenting")) {
    var href = live.getAttribute("data-base"), kind = live.getAttribute("data-link");
    var design = live.getAttribute("data-design") || "";
    var past = /^\/d\/[^/]+\/history\/\d+(\/|$)/.test(location.pathname);
    var titleText = function () {
      var title = document.getElementById("design-title");
      return title ? title.textContent.trim() : null;
    };
    var record = function () {
      var name = titleText();
      if (!linkPath.test(href || "") || (kind !== "edit" && kind !== "view") || name === null) return;
      var list = load(), known = list.find(function (d) { return d.href === href; });
      if (past && known) name = known.name;
      // A new link of the same kind replaces the old one, which no longer works.
      list = list.filter(function (d) { return d.href !== href && !(design && d.design === design && d.kind === kind); });
      list.unshift({ href: href, name: name, kind: kind, design: design, at: Date.now() });
      save(list);
    };
    var rename = function () {
      var name = titleText();
      if (past || name === null) return;
      var list = load(), known = list.find(function (d) { return d.href === href; });
      if (!known || known.name === name) return;
      known.name = name;
      save(list);
    };
    record();
    window.addEventListener("pagehide", record);
    // The title is swapped whole (out of band) on a rename; the bar around it stays.
    var title = document.getElementById("design-title");
    if (title && title.parentNode && window.MutationObserver) {
      new MutationObserver(rename).observe(title.parentNode, { childList: true, subtree: true, characterData: true });
    }
  }

  var section = document.getElementById("opened-designs");
  if (!section) return;
  var ul = section.querySelector("[data-testid=opened-list]");

  // opened says when: how long ago within the week, the date after that.
  function opened(ms) {
    var min = Math.round((Date.now() - ms) / 60000);
    if (min < 1) return "opened just now";
    if (min < 60) return "opened " + min + " min ago";
    var h = Math.round(min / 60);
    if (h < 24) return "opened " + h + (h === 1 ? " hour ago" : " hours ago");
    var days = Math.round(h / 24);
    if (days < 7) return "opened " + days + (days === 1 ? " day ago" : " days ago");
    var at = new Date(ms), options = { day: "numeric", month: "short" };
    if (at.getFullYear() !== new Date().getFullYear()) options.year = "numeric";
    return "opened " + at.toLocaleDateString(undefined, options);
  }
  function draw() {
    var list = load().sort(function (a, b) { return b.at - a.at; });
    ul.textContent = "";
    list.forEach(function (d) {
      var li = document.createElement("li");
      li.className = "opened-design";
      li.setAttribute("data-testid", "opened-design");
      var a = document.createElement("a");
      a.href = d.href;
      a.className = "opened-name";
      a.textContent = d.name || "Untitled design";
      // A long name is cut short on the line (app.css); the whole of it shows on hover.
      a.title = a.textContent;
      a.setAttribute("data-testid", "opened-link");
      var kind = document.createElement("span");
      kind.className = "badge " + (d.kind === "edit" ? "link-edit" : "link-view");
      kind.textContent = d.kind === "edit" ? "edit link" : "view link";
      kind.setAttribute("data-testid", "opened-kind");
      var when = document.createElement("time");
      when.dateTime = new Date(d.at).toISOString();
      when.title = new Date(d.at).toLocaleString();
      when.textContent = opened(d.at);
      when.setAttribute("data-testid", "opened-at");
      var forget = document.createElement("button");
      forget.type = "button";
      forget.className = "button small";
      forget.textContent = "Forget";
      forget.setAttribute("aria-label", "Forget " + a.textContent + " (" + kind.textContent + ")");
      forget.setAttribute("data-forget", d.href);
      forget.setAttribute("data-testid", "forget-design");
      li.append(a, kind, when, forget);
      ul.appendChild(li);
    });
    section.hidden = list.length === 0;
  }
  section.addEventListener("click", function (ev) {
    var one = ev.target.closest("[data-forget]");
    if (one) {
      var href = one.getAttribute("data-forget");
      save(load().filter(function (d) { return d.href !== href; }));
    } else if (ev.target.closest("[data-forget-all]")) {
      try { localStorage.removeItem(KEY); } catch (e) { /* nothing kept */ }
    } else {
      return;
    }
    draw();
    var next = ul.querySelector("[data-forget]");
    if (next) next.focus();
  });
  // Another tab may open or forget a design meanwhile.
  window.addEventListener("storage", function (ev) { if (ev.key === KEY || ev.key === null) draw(); });
  draw();
})();

// History in working periods: a group drawn without its revisions fetches them when opened, and
// again after a live refresh has redrawn the list; a group keeps the open or closed state its
// reader gave it when the list is redrawn. Choosing another pause regroups at once.
(function () {
  "use strict";
  if (!document.getElementById("history") || !window.htmx) return;
  function fill(group) {
    var rows = group.querySelector(".rev-rows");
    if (!group.open || !rows || rows.children.length || group.hasAttribute("data-loading")) return;
    group.setAttribute("data-loading", "");
    htmx.ajax("GET", group.getAttribute("data-rows"), { target: rows, swap: "innerHTML" })
      .finally(function () { group.removeAttribute("data-loading"); });
  }
  document.addEventListener("toggle", function (ev) {
    if (ev.target.matches && ev.target.matches("details.rev-group[data-rows]")) fill(ev.target);
  }, true);
  document.addEventListener("htmx:afterSettle", function () {
    document.querySelectorAll("details.rev-group[data-rows][open]").forEach(fill);
  });
  if (window.Idiomorph) {
    var before = Idiomorph.defaults.callbacks.beforeAttributeUpdated;
    Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, node, how) {
      if (name === "open" && node.matches && node.matches("details.rev-group")) return false;
      return before ? before(name, node, how) : true;
    };
  }
  document.addEventListener("change", function (ev) {
    if (ev.target.matches && ev.target.matches("select[data-autosubmit]")) ev.target.form.requestSubmit();
  });
})();

// A link to a field (a checklist line's, a finding's) lands on it: the hash names the field, or the
// form or cell that holds it; the <details> around it open and the field takes the focus.
(function () {
  "use strict";
  function focusLinkedField() {
    var target = location.hash.length > 1 && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (!target) return;
    var field = target.matches("input, textarea, select") ? target
      : target.matches("form.field, .cell") ? target.querySelector("input, textarea, select") : null;
    if (!field) return;
    for (var box = field.closest("details"); box; box = box.parentElement && box.parentElement.closest("details")) box.open = true;
    field.focus({ preventScroll: true });
    field.scrollIntoView({ block: "center" });
  }
  window.addEventListener("hashchange", focusLinkedField);
  document.addEventListener("DOMContentLoaded", focusLinkedField);
})();

// Say it once: a table attribute's name picked from the entities' attributes brings its type.
(function () {
  "use strict";
  document.addEventListener("input", function (ev) {
    var input = ev.target;
    if (!input.matches || !input.matches("input[data-type-from-list]") || !input.list) return;
    var chosen = null;
    for (var i = 0; i < input.list.options.length; i++) {
      if (input.list.options[i].value === input.value) { chosen = input.list.options[i]; break; }
    }
    var select = input.form && input.form.querySelector("select[name=type]");
    if (chosen && select && chosen.getAttribute("data-type")) select.value = chosen.getAttribute("data-type");
  });
})();

// The room's timer: the stream tells how it stands when the page opens and each time the
// facilitator changes it; the page counts down on its own clock from there. An open agenda is
// fetched again, so its controls match.
(function () {
  "use strict";
  var chip = document.getElementById("room-timer");
  if (!chip) return;
  var state = null, ticking = null;
  function clock(ms) {
    var over = ms < 0, s = over ? Math.floor(-ms / 1000) : Math.ceil(ms / 1000);
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    return (over ? "+" : "") + (h > 0 ? h + ":" + pad(m) : String(m)) + ":" + pad(sec);
  }
  function draw() {
    chip.hidden = !state;
    if (!state) return;
    var left = state.running ? state.ends - Date.now() : state.left;
    chip.querySelector("[data-testid=timer-step]").textContent = state.label + (state.running ? "" : " · paused");
    chip.querySelector("[data-testid=timer-clock]").textContent = clock(left);
    chip.classList.toggle("is-over", left < 0);
    chip.classList.toggle("is-paused", !state.running);
    chip.title = (left < 0 ? "Over time" : "Time left") + " for " + state.label + (state.by ? ", set by " + state.by : "");
  }
  document.addEventListener("htmx:sseBeforeMessage", function (ev) {
    if (!ev.detail || ev.detail.type !== "timer") return;
    ev.preventDefault();
    var data;
    try { data = JSON.parse(ev.detail.data); } catch (e) { return; }
    state = data.set ? { label: data.label, running: data.running, left: data.left_ms, ends: Date.now() + data.left_ms, by: data.by } : null;
    clearInterval(ticking);
    ticking = state && state.running ? setInterval(draw, 500) : null;
    draw();
    var agenda = document.getElementById("agenda");
    if (agenda && agenda.matches(":popover-open") && window.htmx) htmx.trigger(agenda, "timer-changed");
  });
})();

// The paste-in-bulk box holds only what this person pasted, and an aggregate's scaffold and a
// table's notes are opened by this person alone: a live refresh of the step leaves the box as it
// is and the scaffold and the notes open. (Closed under someone writing in them, the notes took
// the field's focus, and the rest of what was typed went nowhere.)
(function () {
  "use strict";
  if (!window.Idiomorph) return;
  var beforeNode = Idiomorph.defaults.callbacks.beforeNodeMorphed;
  Idiomorph.defaults.callbacks.beforeNodeMorphed = function (oldNode, newNode) {
    if (oldNode.id === "bulk-paste") return false;
    return beforeNode ? beforeNode(oldNode, newNode) : true;
  };
  var beforeAttr = Idiomorph.defaults.callbacks.beforeAttributeUpdated;
  Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, node, how) {
    if (name === "open" && node.matches && node.matches(".scaffold details, details.notes")) return false;
    return beforeAttr ? beforeAttr(name, node, how) : true;
  };
})();

// A diagram fills its box, but is never drawn below 80 % of its size (its box scrolls then, and
// its type stays legible) nor above 160 % (a small one does not fill a projector with three boxes).
(function () {
  "use strict";
  function size(root) {
    (root || document).querySelectorAll(".diagram-box svg.diagram-svg").forEach(function (svg) {
      var w = svg.viewBox && svg.viewBox.baseVal ? svg.viewBox.baseVal.width : 0;
      if (!w) return;
      svg.style.minWidth = Math.round(w * 0.8) + "px";
      svg.style.maxWidth = Math.round(w * 1.6) + "px";
    });
  }
  document.addEventListener("DOMContentLoaded", function () { size(); });
  document.addEventListener("htmx:afterSettle", function () { size(); });
  document.addEventListener("htmx:oobAfterSwap", function () { size(); });
})();

// A diagram's PNG is drawn here from its SVG (the same file "Download SVG" gives): the SVG becomes
// an image, the image is painted on a canvas at twice its size, and the canvas is saved.
(function () {
  "use strict";
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest("[data-png]");
    if (!button) return;
    var label = button.textContent;
    button.disabled = true;
    fetch(button.getAttribute("data-png"), { credentials: "same-origin" }).then(function (res) {
      if (!res.ok) throw new Error("the SVG answered " + res.status);
      return res.text();
    }).then(function (svg) {
      return new Promise(function (resolve, reject) {
        var img = new Image();
        img.onload = function () { resolve(img); };
        img.onerror = function () { reject(new Error("the SVG could not be read as an image")); };
        img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
      });
    }).then(function (img) {
      var scale = 2;
      var canvas = document.createElement("canvas");
      canvas.width = Math.ceil(img.naturalWidth * scale);
      canvas.height = Math.ceil(img.naturalHeight * scale);
      var ctx = canvas.getContext("2d");
      ctx.fillStyle = "#ffffff";
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
      return new Promise(function (resolve) { canvas.toBlob(resolve, "image/png"); });
    }).then(function (blob) {
      if (!blob) throw new Error("the picture is too large for a PNG");
      var a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = button.getAttribute("data-png-name") || "diagram.png";
      document.body.appendChild(a);
      a.click();
      setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
      button.dataset.pngDone = "1";
    }).catch(function (err) {
      button.textContent = "PNG failed: " + err.message;
      setTimeout(function () { button.textContent = label; }, 4000);
    }).finally(function () {
      button.disabled = false;
    });
  });
})();

// Editing on a diagram (issue 18): a box is dragged to arrange it, or moved by the arrow keys
// while focused (Shift for bigger steps); where it lands is posted as its new centre, a change
// like any edit, and the diagram comes back redrawn around it (and to every other page, live).
(function () {
  "use strict";
  var STEP = 10, BIG_STEP = 50, SLOP = 4;
  function sectionOf(el) { return el && el.closest ? el.closest("section[data-move]") : null; }
  function boxOf(node) { return node.querySelector("rect"); }
  function num(el, name) { return parseFloat(el.getAttribute(name)) || 0; }
  function toSVG(svg, x, y) {
    var m = svg.getScreenCTM();
    if (!m) return { x: x, y: y };
    var p = new DOMPoint(x, y).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }
  function baseRevision() {
    var aside = document.getElementById("aside");
    return aside ? aside.getAttribute("data-revision") || "" : "";
  }
  // refocus names the box to focus again once its diagram is drawn anew (a keyboard move).
  var refocus = null;
  function post(section, node, dx, dy, focusAgain) {
    var box = boxOf(node);
    if (!box) return;
    var x = num(box, "x") + num(box, "width") / 2 + dx;
    var y = num(box, "y") + num(box, "height") / 2 + dy;
    refocus = focusAgain ? node.getAttribute("data-node") : null;
    htmx.ajax("POST", section.getAttribute("data-move"), {
      source: node, swap: "none",
      values: { diagram: section.getAttribute("data-diagram"), node: node.getAttribute("data-node"),
        x: x.toFixed(1), y: y.toFixed(1), base_revision: baseRevision() }
    });
  }
  function shift(node, dx, dy) {
    if (dx || dy) node.setAttribute("transform", "translate(" + dx + " " + dy + ")");
    else node.removeAttribute("transform");
  }

  // Dragging: nothing happens until the pointer has moved a few pixels, so a click still opens
  // the box; then a ghost of the box follows the pointer, and the drop saves where it is.
  var drag = null;
  document.addEventListener("pointerdown", function (ev) {
    if (ev.button !== 0 || drag) return;
    var node = ev.target.closest && ev.target.closest("[data-node]");
    var section = sectionOf(node);
    if (!section || ev.target.closest("[data-connect-from]")) return;
    var svg = node.ownerSVGElement;
    drag = { node: node, section: section, svg: svg, start: toSVG(svg, ev.clientX, ev.clientY),
      sx: ev.clientX, sy: ev.clientY, ghost: null, dx: 0, dy: 0, pointer: ev.pointerId };
  });
  document.addEventListener("pointermove", function (ev) {
    if (!drag || ev.pointerId !== drag.pointer) return;
    if (!drag.ghost) {
      if (Math.abs(ev.clientX - drag.sx) < SLOP && Math.abs(ev.clientY - drag.sy) < SLOP) return;
      drag.ghost = drag.node.cloneNode(true);
      drag.ghost.removeAttribute("data-node");
      drag.ghost.removeAttribute("href");
      drag.ghost.setAttribute("class", "dg-ghost");
      drag.ghost.setAttribute("aria-hidden", "true");
      drag.svg.appendChild(drag.ghost);
      drag.node.classList.add("dg-dragging");
    }
    ev.preventDefault();
    var at = toSVG(drag.svg, ev.clientX, ev.clientY);
    drag.dx = Math.round(at.x - drag.start.x);
    drag.dy = Math.round(at.y - drag.start.y);
    shift(drag.ghost, drag.dx, drag.dy);
  });
  function endDrag(ev, save) {
    if (!drag || ev.pointerId !== drag.pointer) return;
    var d = drag;
    drag = null;
    if (!d.ghost) return;
    d.ghost.remove();
    d.node.classList.remove("dg-dragging");
    // The click that ends a drag does not open the box.
    var swallow = function (e) { e.preventDefault(); e.stopPropagation(); };
    document.addEventListener("click", swallow, true);
    setTimeout(function () { document.removeEventListener("click", swallow, true); }, 0);
    if (!save || (!d.dx && !d.dy)) return;
    shift(d.node, d.dx, d.dy);
    post(d.section, d.node, d.dx, d.dy, false);
  }
  document.addEventListener("pointerup", function (ev) { endDrag(ev, true); });
  document.addEventListener("pointercancel", function (ev) { endDrag(ev, false); });

  // The keyboard: arrows move the focused box a step at a time, and the moves made in quick
  // succession are saved as one change.
  var keyed = null;
  document.addEventListener("keydown", function (ev) {
    var node = ev.target.closest && ev.target.closest("[data-node]");
    var section = sectionOf(node);
    if (!section || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var step = ev.shiftKey ? BIG_STEP : STEP;
    var d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[ev.key];
    if (!d) return;
    ev.preventDefault();
    if (!keyed || keyed.node !== node) keyed = { node: node, section: section, dx: 0, dy: 0 };
    keyed.dx += d[0];
    keyed.dy += d[1];
    shift(node, keyed.dx, keyed.dy);
    clearTimeout(keyed.timer);
    var k = keyed;
    k.timer = setTimeout(function () {
      if (keyed === k) keyed = null;
      post(k.section, k.node, k.dx, k.dy, true);
    }, 400);
  });

  document.addEventListener("htmx:oobAfterSwap", function (ev) {
    if (!refocus || !ev.target || !ev.target.matches || !ev.target.matches("section[data-move]")) return;
    var again = ev.target.querySelector('[data-node="' + CSS.escape(refocus) + '"]');
    refocus = null;
    if (again) again.focus();
  });
  // A refused move puts the box back and says why.
  document.addEventListener("htmx:responseError", function (ev) {
    var el = ev.detail.elt, xhr = ev.detail.xhr;
    if (!sectionOf(el) || !xhr || [413, 429, 503, 507].indexOf(xhr.status) >= 0) return;
    shift(el, 0, 0);
    var page = new DOMParser().parseFromString(xhr.responseText, "text/html");
    var message = page.querySelector("[data-testid=error-message]");
    var toast = document.getElementById("refused");
    if (!toast) {
      toast = document.createElement("p");
      toast.id = "refused";
      toast.className = "toast";
      toast.setAttribute("role", "alert");
      toast.setAttribute("data-testid", "refused");
      document.body.appendChild(toast);
    }
    toast.textContent = message ? message.textContent : "The move was not saved.";
    clearTimeout(toast.hideTimer);
    toast.hideTimer = setTimeout(function () { toast.remove(); }, 5000);
  });
})();

// Drawing a relationship on the entity diagram: from an entity's handle a line follows the
// pointer, and dropped on another entity it adds the relationship (one to many until someone
// says otherwise) and opens its row. By keyboard: C on a focused entity starts "Connect…", and
// Enter on another entity finishes it (Escape gives up).
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  function entityOf(el) {
    var node = el && el.closest ? el.closest('[data-node^="entity:"]') : null;
    return node && node.closest("section[data-connect]") ? node : null;
  }
  function nameOf(node) { return node.getAttribute("data-node").slice("entity:".length); }
  function toSVG(svg, x, y) {
    var m = svg.getScreenCTM();
    var p = m ? new DOMPoint(x, y).matrixTransform(m.inverse()) : { x: x, y: y };
    return { x: p.x, y: p.y };
  }
  function connect(section, from, to) {
    var table = document.getElementById("relationships");
    var before = {};
    if (table) table.querySelectorAll("tr[id]").forEach(function (tr) { before[tr.id] = true; });
    var aside = document.getElementById("aside");
    htmx.ajax("POST", section.getAttribute("data-connect"), {
      source: section, target: "#relationships", swap: "outerHTML",
      values: { from: from, to: to, kind: "1:M", base_revision: aside ? aside.getAttribute("data-revision") || "" : "" }
    }).then(function () {
      var rows = document.querySelectorAll("#relationships tr[id]");
      for (var i = 0; i < rows.length; i++) {
        if (before[rows[i].id]) continue;
        rows[i].scrollIntoView({ block: "center" });
        var field = rows[i].querySelector("select, input, textarea");
        if (field) field.focus();
        return;
      }
    });
  }

  var line = null;
  document.addEventListener("pointerdown", function (ev) {
    var handle = ev.button === 0 && ev.target.closest && ev.target.closest("[data-connect-from]");
    var section = handle && handle.closest("section[data-connect]");
    if (!section) return;
    ev.preventDefault();
    var svg = handle.ownerSVGElement;
    var el = document.createElementNS(SVGNS, "line");
    el.setAttribute("class", "dg-drawing");
    el.setAttribute("x1", handle.getAttribute("cx"));
    el.setAttribute("y1", handle.getAttribute("cy"));
    el.setAttribute("x2", handle.getAttribute("cx"));
    el.setAttribute("y2", handle.getAttribute("cy"));
    el.setAttribute("stroke", "#2f6feb");
    el.setAttribute("stroke-width", "3");
    el.setAttribute("stroke-dasharray", "8 5");
    svg.appendChild(el);
    line = { el: el, svg: svg, section: section, from: handle.getAttribute("data-connect-from"), pointer: ev.pointerId };
  });
  document.addEventListener("pointermove", function (ev) {
    if (!line || ev.pointerId !== line.pointer) return;
    ev.preventDefault();
    var at = toSVG(line.svg, ev.clientX, ev.clientY);
    line.el.setAttribute("x2", at.x.toFixed(1));
    line.el.setAttribute("y2", at.y.toFixed(1));
  });
  function end(ev, save) {
    if (!line || ev.pointerId !== line.pointer) return;
    var l = line;
    line = null;
    l.el.remove();
    var swallow = function (e) { e.preventDefault(); e.stopPropagation(); };
    document.addEventListener("click", swallow, true);
    setTimeout(function () { document.removeEventListener("click", swallow, true); }, 0);
    if (!save) return;
    var target = entityOf(document.elementFromPoint(ev.clientX, ev.clientY));
    if (target && nameOf(target) !== l.from) connect(l.section, l.from, nameOf(target));
  }
  document.addEventListener("pointerup", function (ev) { end(ev, true); });
  document.addEventListener("pointercancel", function (ev) { end(ev, false); });

  // Connect… by keyboard.
  var pending = null;
  function say(text) {
    var status = document.getElementById("connect-status");
    if (!status) {
      status = document.createElement("p");
      status.id = "connect-status";
      status.className = "toast";
      status.setAttribute("role", "status");
      status.setAttribute("data-testid", "connect-status");
      document.body.appendChild(status);
    }
    status.textContent = text;
    if (!text) status.remove();
  }
  document.addEventListener("keydown", function (ev) {
    var node = entityOf(ev.target);
    if (ev.key === "Escape" && pending) { pending = null; say(""); return; }
    if (!node || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if ((ev.key === "c" || ev.key === "C") && !pending) {
      ev.preventDefault();
      pending = nameOf(node);
      say("Connect " + pending + " to…: focus the other entity (Tab) and press Enter; Escape gives up.");
    } else if (ev.key === "Enter" && pending) {
      ev.preventDefault();
      var from = pending;
      pending = null;
      say("");
      if (nameOf(node) !== from) connect(node.closest("section[data-connect]"), from, nameOf(node));
    }
  });

  // "Add entity" by the diagram goes to the new entity's name.
  document.addEventListener("click", function (ev) {
    var link = ev.target.closest && ev.target.closest("[data-focus]");
    var field = link && document.getElementById(link.getAttribute("data-focus"));
    if (!field) return;
    ev.preventDefault();
    field.scrollIntoView({ block: "center" });
    field.focus();
  });
})();

// A grid wider than its frame takes the rails' room: at 1280x720 the access-patterns grid showed
// 5 of its 14 columns beside the open rails. While a step with such a grid is shown, the rails the
// person has not folded or opened by hand (no cookie) fold by themselves, for this page only; the
// next step measures again. A live refresh, which draws the rails as the cookies say, keeps them.
(function () {
  "use strict";
  var rails = ["steps", "aside"];
  function chosen(rail) {
    return document.cookie.split("; ").some(function (c) { return c.indexOf("dynaloom_fold_" + rail + "=") === 0; });
  }
  function label(ws, rail, folded) {
    var button = ws.querySelector('[data-rail-toggle="' + rail + '"]');
    if (!button) return;
    var text = (folded ? "Show " : "Fold away ") + button.getAttribute("data-what");
    button.setAttribute("aria-expanded", folded ? "false" : "true");
    button.setAttribute("aria-label", text);
    button.setAttribute("title", text);
  }
  var shownStep = null;
  function fit() {
    var ws = document.getElementById("workspace");
    if (!ws) return;
    var auto = (ws.getAttribute("data-auto-folded") || "").split(" ").filter(Boolean);
    if (location.pathname !== shownStep) {
      // Another step: give back what was folded for the last one, then measure this one.
      shownStep = location.pathname;
      auto.forEach(function (rail) { ws.classList.remove(rail + "-folded"); label(ws, rail, false); });
      auto = [];
      var wide = Array.prototype.some.call(ws.querySelectorAll(".table-scroll"), function (el) {
        return el.scrollWidth > el.clientWidth + 1;
      });
      if (wide) {
        auto = rails.filter(function (rail) { return !chosen(rail) && !ws.classList.contains(rail + "-folded"); });
      }
    }
    auto = auto.filter(function (rail) { return !chosen(rail); });
    auto.forEach(function (rail) { ws.classList.add(rail + "-folded"); label(ws, rail, true); });
    if (auto.length) ws.setAttribute("data-auto-folded", auto.join(" "));
    else ws.removeAttribute("data-auto-folded");
  }
  document.addEventListener("DOMContentLoaded", fit);
  document.addEventListener("htmx:afterSettle", fit);
  if (window.Idiomorph) {
    var before = Idiomorph.defaults.callbacks.beforeAttributeUpdated;
    Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, node, how) {
      if (node.id === "workspace" && node.hasAttribute("data-auto-folded") && (name === "class" || name === "data-auto-folded")) return false;
      return before ? before(name, node, how) : true;
    };
  }
})();
