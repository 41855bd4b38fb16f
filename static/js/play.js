// The practice table with htmx: keep the keyboard and screen-reader user's place, and show
// requests that fail. Without JavaScript none of this runs: the forms post and redirect.
(function () {
  "use strict";

  // After the table is swapped, focus its status heading (it says whose turn it is), so that
  // focus is not lost with the button that was pressed.
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.elt;
    var status = document.getElementById("table-status") || document.getElementById("replay-status");
    if (status && target && (target.id === "hand-table" || target.id === "replay-step")) {
      status.focus({ preventScroll: false });
    }
  });

  // htmx 2 swaps nothing on a 4xx/5xx answer: say what went wrong instead.
  function showError(text) {
    var box = document.getElementById("table-request-error");
    if (!box) {
      window.alert(text);
      return;
    }
    box.textContent = text;
    box.hidden = false;
    box.focus && box.focus();
  }

  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    var text = xhr && xhr.status === 404
      ? "This table could not be found: it may belong to another browser session."
      : (xhr && xhr.responseText && xhr.responseText.length < 500
        ? xhr.responseText
        : "The request failed. Reload the page and try again.");
    showError(text);
  });

  document.addEventListener("htmx:sendError", function () {
    showError("The server could not be reached. Check the connection and try again.");
  });
})();
