// The practice table with htmx: keep the keyboard and screen-reader user's place, and show
// requests that fail. Without JavaScript none of this runs: the forms post and redirect.
(function () {
  "use strict";

  // After the table is swapped the page does not move: the status line is announced through
  // a live region outside the swapped table, and focus goes to what you decide next (your
  // first legal card, or the first choice), else to the status line, without scrolling.
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.elt;
    if (!target || (target.id !== "hand-table" && target.id !== "replay-step")) {
      return;
    }
    var status = document.getElementById("table-status") || document.getElementById("replay-status");
    var live = document.getElementById("table-live");
    if (live && status) {
      var lead = target.querySelector(".trick-lead");
      live.textContent = status.textContent + (lead ? ". " + lead.textContent.trim() : "");
    }
    var next = target.id === "hand-table" && (
      target.querySelector(".alerts .alert--error") ? null :
      target.querySelector(".my-cards .card-button:not([aria-disabled])") ||
      target.querySelector(".my-hand .choices button, .my-hand .discards input"));
    var focus = next || status;
    if (focus) {
      focus.focus({ preventScroll: true });
    }
  });

  // The computer players' cards arrive one after another: the server answers at once, and
  // the cards laid since your decision are shown one by one (a short pause each, none with
  // prefers-reduced-motion; a key or a click skips). A trick they finished is shown first,
  // with who took it and why, for a moment.
  var PAUSE = 450;
  var HOLD = 1200;
  var seen = null;
  var timers = [];

  function shownCards() {
    var codes = {};
    document.querySelectorAll("#table-trick li[data-card]").forEach(function (li) {
      if (!li.closest("[hidden]")) {
        codes[li.getAttribute("data-card")] = true;
      }
    });
    return codes;
  }

  function finish() {
    timers.forEach(clearTimeout);
    timers = [];
    document.querySelectorAll("#table-trick .is-pending, .single-cards .is-pending").forEach(
      function (el) { el.classList.remove("is-pending"); }
    );
    document.querySelectorAll("#table-trick .was-winning, .single-cards .was-winning").forEach(
      function (el) {
      el.classList.replace("was-winning", "is-winning");
      }
    );
    var previous = document.querySelector("#table-trick .trick-previous");
    if (previous && !previous.hidden) {
      previous.hidden = true;
    }
    var current = document.querySelector("#table-trick .trick-current");
    if (current) {
      current.hidden = false;
    }
    document.querySelectorAll(".table-status--wait").forEach(function (el) { el.remove(); });
    var status = document.getElementById("table-status");
    if (status) {
      status.hidden = false;
    }
    document.removeEventListener("keydown", finish, true);
    document.removeEventListener("click", finish, true);
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    seen = elt && elt.closest && elt.closest("#hand-table") ? shownCards() : null;
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.elt;
    if (!target || target.id !== "hand-table" || !seen) {
      return;
    }
    var before = seen;
    seen = null;
    finish();
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) {
      return;
    }
    var steps = [];
    function queue(root) {
      var added = [];
      root.querySelectorAll("li[data-card]").forEach(function (li) {
        if (!before[li.getAttribute("data-card")]) {
          added.push(li);
        }
      });
      var marks = root.querySelectorAll(
        ".trick-lead, .trick-cards__mark, .trick-taker, .single-cards__mark"
      );
      if (!added.length) {
        return false;
      }
      added.concat(Array.prototype.slice.call(marks)).forEach(function (el) {
        el.classList.add("is-pending");
      });
      var winning = root.querySelectorAll(".is-winning");
      winning.forEach(function (el) { el.classList.replace("is-winning", "was-winning"); });
      added.forEach(function (li) {
        steps.push(function () { li.classList.remove("is-pending"); });
      });
      steps.push(function () {
        marks.forEach(function (el) { el.classList.remove("is-pending"); });
        winning.forEach(function (el) { el.classList.replace("was-winning", "is-winning"); });
      });
      return true;
    }
    var previous = target.querySelector("#table-trick .trick-previous");
    var current = target.querySelector("#table-trick .trick-current");
    if (previous && current) {
      previous.hidden = false;
      current.hidden = true;
      if (!queue(previous)) {
        previous.hidden = true;
        current.hidden = false;
      } else {
        steps.push(HOLD);
        steps.push(function () { previous.hidden = true; current.hidden = false; });
      }
      if (!current.hidden || steps.length) {
        queue(current);
      }
    } else {
      var trick = target.querySelector("#table-trick");
      if (trick) {
        queue(trick);
      }
    }
    // Peel's single deal: each player's card arrives face up, then who takes the pool.
    var single = target.querySelector(".single-cards");
    if (single) {
      queue(single);
    }
    if (!steps.length) {
      return;
    }
    // While the cards arrive it is not yet your turn: the status line waits for the last one
    // (a screen reader hears it at once, through the live region).
    var status = target.querySelector("#table-status");
    if (status) {
      var wait = document.createElement("p");
      wait.className = "table-status table-status--wait";
      wait.setAttribute("aria-hidden", "true");
      wait.textContent = "The others play…";
      status.before(wait);
      status.hidden = true;
    }
    var at = 0;
    steps.forEach(function (step, i) {
      if (typeof step === "number") {
        at += step - PAUSE;
        return;
      }
      at += i ? PAUSE : 0;
      timers.push(setTimeout(step, at));
    });
    timers.push(setTimeout(finish, at + 10));
    document.addEventListener("keydown", finish, true);
    document.addEventListener("click", finish, true);
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
