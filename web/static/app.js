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

  document.addEventListener("click", function (ev) {
    var button = ev.target.closest("[data-copy-target]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy-target"));
    if (!field) return;
    var label = button.textContent;
    copyText(field.value).then(function () {
      button.textContent = "Copied";
      button.classList.add("is-done");
    }, function () {
      field.select();
      button.textContent = "Press Ctrl+C";
    }).finally(function () {
      setTimeout(function () {
        button.textContent = label;
        button.classList.remove("is-done");
      }, 1600);
    });
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
  var pending = null;
  document.addEventListener("htmx:beforeSwap", function () {
    var el = document.activeElement;
    pending = null;
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
    if (ev.shiftKey) return;
    var add = document.querySelector("[data-testid=add-pattern]");
    if (!add) return;
    saveThen(field, function () { add.form.requestSubmit(); });
  });

  // The sample-item grid moves like a spreadsheet: arrows between cells (left and right at the ends
  // of the text), Enter down a row.
  document.addEventListener("keydown", function (ev) {
    var field = ev.target;
    if (!field.matches || !field.matches(".items-grid input[type=text]")) return;
    var cell = field.closest("td");
    var row = field.closest("tr");
    var column = Array.prototype.indexOf.call(row.children, cell);
    var rows = Array.prototype.slice.call(field.closest("table").querySelectorAll("tbody tr"));
    var at = rows.indexOf(row);
    var target = null;
    if (ev.key === "ArrowDown" || (ev.key === "Enter" && !ev.shiftKey)) {
      target = rows[at + 1] && rows[at + 1].children[column];
    } else if (ev.key === "ArrowUp" || (ev.key === "Enter" && ev.shiftKey)) {
      target = rows[at - 1] && rows[at - 1].children[column];
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
