// The admin console's user page: refreshes the "Recent challenges" table every second from
// GET /admin/api/users/{userId} (the session cookie goes along; same origin). Rows are built with textContent, so
// nothing the server sends is read as HTML. Without script the table is the one the page was served with.
(function () {
  "use strict";
  var main = document.getElementById("user-page");
  var body = document.getElementById("recent-rows");
  var stamp = document.getElementById("refreshed");
  if (!main || !body) { return; }
  var api = main.getAttribute("data-api");

  function cell(row, label, text) {
    var td = document.createElement("td");
    td.setAttribute("data-label", label);
    td.textContent = text || "—";
    row.appendChild(td);
    return td;
  }

  function render(challenges) {
    var rows = document.createDocumentFragment();
    challenges.forEach(function (c) {
      var tr = document.createElement("tr");
      tr.setAttribute("data-kind", c.kind);
      tr.setAttribute("data-state", c.state);
      var first = document.createElement("td");
      first.className = "time";
      first.setAttribute("data-label", "Started");
      var link = document.createElement("a");
      link.href = c.url;
      link.textContent = c.createdAt;
      first.appendChild(link);
      tr.appendChild(first);
      cell(tr, "Kind", c.kindLabel || c.kind);
      cell(tr, "Action", c.actionCode);
      cell(tr, "State", c.stateLabel || c.state);
      cell(tr, "Answered", c.answeredAt).className = "time";
      rows.appendChild(tr);
    });
    while (body.firstChild) { body.removeChild(body.firstChild); }
    body.appendChild(rows);
  }

  // Every second from the start of the last request (not from its answer), so a slow answer does not stretch the
  // time until a change shows.
  function again(started) {
    setTimeout(refresh, Math.max(0, 1000 - (Date.now() - started)));
  }

  // Requests are numbered: the table carries the number of the last one started (data-requested) and of the one it
  // shows (data-shown), so a reader can tell a row from a request made after a change.
  var requested = 0;

  function refresh() {
    var started = Date.now();
    var number = ++requested;
    body.setAttribute("data-requested", String(number));
    fetch(api, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status === 401) { throw new Error("signed out"); }
        return response.json();
      })
      .then(function (data) {
        render(data.challenges || []);
        body.setAttribute("data-shown", String(number));
        if (stamp) { stamp.textContent = ""; }
        again(started);
      })
      .catch(function (error) {
        if (stamp) { stamp.textContent = error.message === "signed out" ? "Signed out; reload to sign in." : "Not refreshed: " + error.message; }
        if (error.message !== "signed out") { again(started); }
      });
  }
  setTimeout(refresh, 1000);
})();
