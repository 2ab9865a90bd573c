/* mjenv viewer index: a click (or Enter) on a column header sorts the rows by that column,
 * numbers as numbers; a second click reverses the order. */
(function () {
  "use strict";
  var table = document.getElementById("records");
  var body = table.tBodies[0];
  function sortBy(th) {
    var col = Number(th.getAttribute("data-col"));
    var numeric = th.getAttribute("data-type") === "num";
    var desc = th.classList.contains("asc") || (!th.classList.contains("desc") && numeric);
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) {
      c.classList.remove("asc", "desc");
    });
    th.classList.add(desc ? "desc" : "asc");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[col].getAttribute("data-v"), y = b.cells[col].getAttribute("data-v");
      var d = numeric ? Number(x) - Number(y) : x.localeCompare(y);
      return desc ? -d : d;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
    th.addEventListener("click", function () { sortBy(th); });
    th.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter") { sortBy(th); ev.preventDefault(); }
    });
  });
  window.mjindex = { sortBy: function (col) { sortBy(table.tHead.rows[0].cells[col]); } };
})();
