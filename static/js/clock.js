// The clock of a table for people (templates/games/people/table.html, games/people/page.py):
// the time left to the person whose turn it is, counted down in the page. The server writes
// the seconds left when it made the page (data-clock) and the deadline (data-deadline); the
// count starts when the clock appears, from this browser's own clock, so a wrong clock on the
// computer does not matter. A table swapped in by htmx (a play, a live update) brings a new
// clock: each is found at the next tick. The clock is a timer (role="timer"): a screen reader
// reads it when asked, never every second; the person whose turn it is hears once, politely,
// when 30 and 10 seconds are left. At the deadline the server lets a computer player decide
// for him, and the live update says so. Without JavaScript the page shows the time it ends
// and comes again then.
(function () {
  "use strict";

  var WARNINGS = [30, 10];
  var ends = new WeakMap();
  var warned = {};

  function shown(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var rest = s % 60;
    return Math.floor(s / 60) + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function say(text) {
    var live = document.getElementById("clock-live");
    if (live) {
      live.textContent = text;
    }
  }

  function warn(clock, left) {
    if (!clock.hasAttribute("data-clock-mine")) {
      return;
    }
    var deadline = clock.getAttribute("data-deadline") || "";
    WARNINGS.forEach(function (at) {
      var key = deadline + "/" + at;
      // Said once for each deadline, not again when a live update brings the same clock;
      // not at all if the page came after that point.
      if (left <= at && !warned[key]) {
        warned[key] = true;
        if (left > at - 3) {
          say(at + " seconds left to decide; then a computer player decides for you.");
        }
      }
    });
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-clock]").forEach(function (clock) {
      var end = ends.get(clock);
      if (end === undefined) {
        var left = parseInt(clock.getAttribute("data-clock"), 10);
        if (isNaN(left)) {
          return;
        }
        end = now + left * 1000;
        ends.set(clock, end);
        var deadline = clock.getAttribute("data-deadline") || "";
        WARNINGS.forEach(function (at) {
          if (left <= at) {
            warned[deadline + "/" + at] = true;
          }
        });
      }
      var seconds = (end - now) / 1000;
      var text = shown(seconds);
      if (clock.textContent !== text) {
        clock.textContent = text;
      }
      clock.classList.toggle("is-short", seconds <= 10);
      warn(clock, seconds);
    });
  }

  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:load", tick);
  window.setInterval(tick, 250);
})();
