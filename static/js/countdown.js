// A timed attempt's countdown (templates/quizzes/countdown.html). The server puts in the page
// the seconds its attempt has left; this counts them down from the moment the page arrived
// (the device's clock may be set wrong: only the time elapsed since is read), shows the
// deadline in the device's own time zone, says (once, politely) when five minutes and one
// minute are left, and at zero hands the attempt in. The clock itself is a "timer" (never
// announced: a screen reader reads it when asked). Without JavaScript the question's page
// says how long is left each time it is shown; either way the server takes no answer after
// the deadline.
(function () {
  "use strict";

  var box = document.getElementById("countdown");
  if (!box) {
    return;
  }
  var clock = box.querySelector(".countdown__clock");
  var say = box.querySelector(".countdown__say");
  var until = box.querySelector(".countdown__until");
  var form = document.getElementById("countdown-submit");
  var left = parseInt(box.getAttribute("data-seconds-left"), 10) || 0;
  // Elapsed time by the device's clock (which keeps counting while a laptop sleeps), from
  // the seconds the server said were left.
  var end = Date.now() + left * 1000;
  var now = function () {
    return Date.now();
  };
  var warnings = [
    [300, "Five minutes left. Your attempt is handed in when the time is up."],
    [60, "One minute left. Send your answer now: answers not sent by the end are not accepted."]
  ];
  var spoken = {};
  var handedIn = false;

  var deadline = new Date(box.getAttribute("data-deadline"));
  if (!isNaN(deadline.getTime()) && window.Intl && Intl.DateTimeFormat) {
    try {
      until.textContent =
        "(until " + new Intl.DateTimeFormat(undefined, {
          hour: "2-digit", minute: "2-digit", timeZoneName: "short"
        }).format(deadline) + ", your time)";
    } catch (e) {
      until.textContent = "";
    }
  }

  function two(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function shown(seconds) {
    var days = Math.floor(seconds / 86400);
    var h = Math.floor(seconds / 3600) % 24;
    var m = Math.floor(seconds / 60) % 60;
    var s = seconds % 60;
    var time = (h || days ? h + ":" + two(m) : String(m)) + ":" + two(s);
    return days ? days + (days === 1 ? " day, " : " days, ") + time : time;
  }

  // The page's own "time left" sentence is for pages without JavaScript: the clock says it.
  function hideStatic() {
    var items = document.querySelectorAll("[data-time-left]");
    for (var i = 0; i < items.length; i++) {
      if (!items[i].classList.contains("alert--warning")) {
        items[i].hidden = true;
      }
    }
  }

  function tick() {
    var seconds = Math.max(0, Math.ceil((end - now()) / 1000));
    clock.textContent = shown(seconds);
    box.setAttribute("data-seconds", String(seconds));
    for (var i = 0; i < warnings.length; i++) {
      var at = warnings[i][0];
      // Only a threshold crossed while the page is open is said (not one already past).
      if (seconds <= at && left > at && !spoken[at]) {
        spoken[at] = true;
        say.textContent = warnings[i][1];
        box.classList.add("countdown--warn");
      }
    }
    if (seconds <= 0) {
      if (!handedIn && form) {
        handedIn = true;
        box.setAttribute("data-state", "handing-in");
        say.textContent = "Time is up: your attempt is being handed in.";
        form.submit();
      }
      return;
    }
    var fraction = (end - now()) % 1000;
    window.setTimeout(tick, (fraction > 0 ? fraction : 1000) + 20);
  }

  box.hidden = false;
  if (left <= 300) {
    box.classList.add("countdown--warn");
  }
  hideStatic();
  document.addEventListener("htmx:afterSwap", hideStatic);
  tick();
})();
