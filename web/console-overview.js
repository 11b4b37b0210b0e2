// The admin console's overview (/admin/): reads /admin/api/overview every second and fills in the counts, the
// per-minute chart (inline SVG, four series) and the table that is the chart's text alternative. No page reload.
(function () {
  "use strict";
  var main = document.getElementById("overview");
  if (!main) return;
  var source = main.getAttribute("data-source");
  var svgNS = "http://www.w3.org/2000/svg";
  var SERIES = ["started", "approved", "denied", "expired"];
  var LABELS = { started: "started", approved: "approved", denied: "denied", expired: "expired" };
  var hidden = {};
  var last = null;
  var W = 640, H = 260, LEFT = 48, RIGHT = 14, TOP = 12, BOTTOM = 40;

  function text(id, value) {
    var element = document.getElementById(id);
    if (element && element.textContent !== String(value)) element.textContent = value;
  }

  // "Push 1, QR code device 2": the words the server gives for each wire name (data.labels), in their order.
  function breakdown(counts, labels) {
    return Object.keys(counts).map(function (k) { return [(labels && labels[k]) || k, counts[k]]; })
      .sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0; })
      .map(function (pair) { return pair[0] + " " + pair[1]; }).join(", ");
  }

  function clock(ms) {
    var d = new Date(ms);
    return String(d.getUTCHours()).padStart(2, "0") + ":" + String(d.getUTCMinutes()).padStart(2, "0");
  }

  function niceMax(value) {
    if (value <= 4) return 4;
    var step = Math.pow(10, Math.floor(Math.log10(value)));
    var top = [1, 2, 2.5, 5, 10].map(function (m) { return m * step; }).find(function (m) { return m >= value; });
    return top;
  }

  function el(name, attributes, content) {
    var node = document.createElementNS(svgNS, name);
    for (var key in attributes) node.setAttribute(key, attributes[key]);
    if (content !== undefined) node.textContent = content;
    return node;
  }

  function drawChart(data) {
    var svg = document.getElementById("overview-chart");
    var title = document.getElementById("chart-title");
    while (svg.lastChild && svg.lastChild !== title) svg.removeChild(svg.lastChild);
    // Drawn at the width it is shown at, so its text stays the page's size on a phone as on a desktop.
    W = Math.max(280, Math.round(svg.getBoundingClientRect().width || 640));
    H = W < 500 ? 220 : 260;
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    var minutes = data.minutes;
    var n = minutes.length;
    var peak = 0;
    minutes.forEach(function (m) {
      SERIES.forEach(function (s) { if (!hidden[s]) peak = Math.max(peak, m[s]); });
    });
    var top = niceMax(peak);
    var plotW = W - LEFT - RIGHT, plotH = H - TOP - BOTTOM;
    function x(i) { return LEFT + (n > 1 ? (i * plotW) / (n - 1) : 0); }
    function y(v) { return TOP + plotH - (v * plotH) / top; }

    var grid = el("g", { "class": "grid" });
    for (var t = 0; t <= 4; t++) {
      var value = (top * t) / 4;
      var gy = y(value);
      grid.appendChild(el("line", { x1: LEFT, x2: W - RIGHT, y1: gy, y2: gy }));
      grid.appendChild(el("text", { x: LEFT - 6, y: gy + 4, "text-anchor": "end", "class": "tick" },
        Number.isInteger(value) ? String(value) : value.toFixed(1)));
    }
    var every = W < 500 ? 30 : 15;
    for (var i = 0; i < n; i += every) {
      var index = i === 0 ? 0 : i - 1;
      grid.appendChild(el("text", { x: x(index), y: H - BOTTOM + 16, "text-anchor": index === 0 ? "start" : "middle", "class": "tick" },
        clock(data.firstMinute + index * data.minuteMilliseconds)));
    }
    grid.appendChild(el("text", { x: W - RIGHT, y: H - BOTTOM + 16, "text-anchor": "end", "class": "tick" }, "now"));
    grid.appendChild(el("text", { x: LEFT + plotW / 2, y: H - 4, "text-anchor": "middle", "class": "axis-label" },
      "minute (UTC)"));
    grid.appendChild(el("text", { x: 12, y: TOP + plotH / 2, "text-anchor": "middle", "class": "axis-label",
      transform: "rotate(-90 12 " + (TOP + plotH / 2) + ")" }, "challenges per minute"));
    grid.appendChild(el("line", { x1: LEFT, x2: LEFT, y1: TOP, y2: TOP + plotH, "class": "axis" }));
    grid.appendChild(el("line", { x1: LEFT, x2: W - RIGHT, y1: TOP + plotH, y2: TOP + plotH, "class": "axis" }));
    svg.appendChild(grid);

    SERIES.forEach(function (s) {
      if (hidden[s]) return;
      var points = minutes.map(function (m, i) { return x(i).toFixed(1) + "," + y(m[s]).toFixed(1); }).join(" ");
      var group = el("g", { "class": "series series-" + s, id: "chart-" + s,
        "data-values": minutes.map(function (m) { return m[s]; }).join(",") });
      if (s === "started") {
        // Started is drawn as a shaded area too, so it stays visible under the answers that equal it.
        group.appendChild(el("polygon", { "class": "area",
          points: x(0).toFixed(1) + "," + y(0).toFixed(1) + " " + points + " " + x(n - 1).toFixed(1) + "," + y(0).toFixed(1) }));
      }
      group.appendChild(el("polyline", { points: points, "class": "line" }));
      var lastIndex = n - 1;
      group.appendChild(el("circle", { cx: x(lastIndex), cy: y(minutes[lastIndex][s]), r: 3.5, "class": "dot",
        "data-value": minutes[lastIndex][s] }));
      svg.appendChild(group);
    });
  }

  function drawTable(data) {
    var body = document.querySelector("#overview-table tbody");
    var rows = [];
    for (var i = data.minutes.length - 1; i >= 0; i--) {
      var m = data.minutes[i];
      rows.push("<tr><th scope=\"row\">" + clock(data.firstMinute + i * data.minuteMilliseconds) + "</th>" +
        SERIES.map(function (s) { return "<td>" + Number(m[s]) + "</td>"; }).join("") + "</tr>");
    }
    var html = rows.join("");
    if (body.getAttribute("data-html") !== html) {
      body.innerHTML = html;
      body.setAttribute("data-html", html);
    }
  }

  function render(data) {
    last = data;
    text("count-users", data.totals.users);
    text("count-authenticators", data.totals.authenticators);
    text("count-authenticators-detail", breakdown(data.totals.authenticatorsByMethod, data.labels));
    text("count-activations", data.totals.activations);
    text("count-activations-detail", breakdown(data.totals.activationsByStatus, data.labels));
    SERIES.forEach(function (s) { text("hour-" + s, data.lastHour[s]); });
    var now = data.minutes[data.minutes.length - 1];
    text("chart-summary", "Challenges per minute over the last hour, from " + clock(data.firstMinute) +
      " UTC to now: " + SERIES.map(function (s) { return data.lastHour[s] + " " + LABELS[s]; }).join(", ") +
      " in all; this minute " + SERIES.map(function (s) { return now[s] + " " + LABELS[s]; }).join(", ") +
      ". The table below lists every minute.");
    drawChart(data);
    drawTable(data);
  }

  // Requests are numbered: the page carries the number of the last one started (data-overview-requested) and of the
  // one it shows (data-overview-shown), so a reader can tell figures from a request made after a change.
  var requested = 0;

  function refresh() {
    var number = ++requested;
    document.documentElement.setAttribute("data-overview-requested", String(number));
    fetch(source, { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (response.status === 401) {
          text("overview-status", "The session ended; sign in again.");
          window.location.assign("/admin/");
          return null;
        }
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (data) {
        if (!data) return;
        render(data);
        document.documentElement.setAttribute("data-overview-shown", String(number));
        text("overview-status", "Updated " + new Date(data.generatedAt).toISOString().slice(11, 19) + " UTC, every second.");
        schedule();
      })
      .catch(function () {
        text("overview-status", "Could not refresh; trying again.");
        schedule();
      });
  }

  function schedule() { window.setTimeout(refresh, 1000); }

  document.querySelectorAll(".legend button[data-series]").forEach(function (button) {
    button.addEventListener("click", function () {
      var s = button.getAttribute("data-series");
      hidden[s] = !hidden[s];
      button.setAttribute("aria-pressed", hidden[s] ? "false" : "true");
      if (last) drawChart(last);
    });
  });
  window.addEventListener("resize", function () { if (last) drawChart(last); });
  refresh();
})();
