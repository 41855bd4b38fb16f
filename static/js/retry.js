// A GET made by htmx that fails on the way (the connection closed: a worker restarted or died;
// a 502, 503 or 504 from the proxy or a worker at its limit) is made again, twice at most,
// after a short wait: a GET changes nothing, so asking again is safe. A POST is never made
// again here: whether it reached the server is not known, and doing a play twice is worse than
// saying it failed. A GET that still fails after its tries, and a POST that failed, are said
// so at the top of the page, in words, so that nobody waits for a swap that will not come
// (docs/deploying.md, "Workers"). Without JavaScript there is nothing to do: links and forms
// are the browser's own, and so are its error pages.
(function () {
  "use strict";

  var WAITS_MS = [400, 1200];
  var RETRYABLE = { 0: true, 502: true, 503: true, 504: true };
  var tries = new WeakMap();

  function failed(event) {
    var detail = event.detail || {};
    var config = detail.requestConfig;
    var elt = detail.elt;
    if (!config || !elt) {
      return;
    }
    var status = detail.xhr ? detail.xhr.status : 0;
    if (!RETRYABLE[status]) {
      return;
    }
    if (String(config.verb).toLowerCase() !== "get") {
      tell(SENT);
      return;
    }
    var done = tries.get(elt) || 0;
    if (done >= WAITS_MS.length) {
      tries.delete(elt);
      tell(ASKED);
      return;
    }
    tries.set(elt, done + 1);
    var wait = WAITS_MS[done] + Math.floor(Math.random() * 200);
    window.setTimeout(function () {
      if (elt.isConnected) {
        window.htmx.ajax("GET", config.path, { source: elt });
      }
    }, wait);
  }

  var ASKED =
    "This page could not reach the server just now. Check your connection, then reload the page.";
  var SENT =
    "What you sent could not reach the server, so it may not have been done. " +
    "Check your connection, then reload the page to see where things stand.";

  function tell(text) {
    var main = document.getElementById("main");
    if (!main) {
      return;
    }
    var note = document.getElementById("retry-failed");
    if (!note) {
      note = document.createElement("p");
      note.id = "retry-failed";
      note.className = "notice";
      note.setAttribute("role", "alert");
      main.insertBefore(note, main.firstChild);
    }
    note.textContent = text;
    note.setAttribute("data-sent", text === SENT ? "true" : "false");
  }

  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:responseError", failed);
  document.addEventListener("htmx:timeout", failed);

  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail || {};
    if (detail.successful && detail.elt) {
      tries.delete(detail.elt);
      // The page reaches the server again: a GET's failure is over. A POST's stays said
      // until the page is reloaded (what was sent is still not known).
      var note = document.getElementById("retry-failed");
      if (note && note.getAttribute("data-sent") !== "true") {
        note.remove();
      }
    }
  });
})();
