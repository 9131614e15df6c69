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
})();
