// report.html's script: error capture, sortable tables, collapsible sections. Nothing else.
(function () {
  "use strict";
  var errors = document.getElementById("kir-errors");
  var failed = false;
  function record(text) {
    failed = true;
    if (errors) {
      errors.textContent += text + "\n";
      errors.hidden = false;
    }
  }
  window.onerror = function (message, source, line, column) {
    record("error: " + message + " (" + (source || "page") + ":" + line + ":" + column + ")");
    return false;
  };
  var consoleError = console.error;
  console.error = function () {
    record("console.error: " + Array.prototype.map.call(arguments, String).join(" "));
    return consoleError.apply(console, arguments);
  };

  // Sorting: a header click sorts its table's body by that column; again reverses. Numeric columns
  // (th data-type="num") sort by the cell's data-v (empty: below every number).
  function cellKey(row, index, numeric) {
    var cell = row.cells[index];
    if (!cell) return numeric ? -Infinity : "";
    if (numeric) {
      var v = cell.getAttribute("data-v");
      var x = v === null || v === "" ? NaN : parseFloat(v);
      return isNaN(x) ? -Infinity : x;
    }
    return cell.textContent.trim().toLowerCase();
  }
  function sortTable(table, th) {
    var index = Array.prototype.indexOf.call(th.parentNode.children, th);
    var numeric = th.getAttribute("data-type") === "num";
    var ascending = !th.classList.contains("asc");
    Array.prototype.forEach.call(th.parentNode.children, function (h) { h.classList.remove("asc", "desc"); });
    th.classList.add(ascending ? "asc" : "desc");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows).map(function (row, i) {
      return { row: row, key: cellKey(row, index, numeric), i: i };
    });
    rows.sort(function (a, b) {
      var c = a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
      return (ascending ? c : -c) || a.i - b.i;
    });
    rows.forEach(function (r) { body.appendChild(r.row); });
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      th.addEventListener("click", function () { sortTable(table, th); });
    });
  });

  // Collapsible sections: expand/collapse-all buttons; a link to a case opens its block.
  function setAll(selector, open) {
    Array.prototype.forEach.call(document.querySelectorAll(selector), function (d) { d.open = open; });
  }
  Array.prototype.forEach.call(document.querySelectorAll("button[data-expand]"), function (b) {
    b.addEventListener("click", function () { setAll(b.getAttribute("data-expand"), true); });
  });
  Array.prototype.forEach.call(document.querySelectorAll("button[data-collapse]"), function (b) {
    b.addEventListener("click", function () { setAll(b.getAttribute("data-collapse"), false); });
  });
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (target && target.tagName === "DETAILS") target.open = true;
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();

  if (!failed) document.body.dataset.rendered = "ok";
})();
