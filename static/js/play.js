// The practice table with htmx: keep the keyboard and screen-reader user's place, and show
// requests that fail. Without JavaScript none of this runs: the forms post and redirect, and
// the page shows the hand as it stands, with focus on the player's first decision (the
// server's autofocus).
(function () {
  "use strict";

  // What the player decides next on the new table: the server marks it with autofocus (his
  // first legal card, his first choice, "Deal the next hand"; nothing after an error or when
  // nothing is his to do). htmx would focus it as soon as the table is swapped, while the
  // computer players' cards are still to arrive: the attribute is taken off, and focus goes
  // there only once his turn is really shown (arrive()).
  var nextFocus = null;

  // The table as the player now sees it: the live region outside the swapped table says the
  // status line (and who is winning the trick), and focus goes to his next decision, else to
  // the status line, without scrolling.
  function arrive(target) {
    var status = document.getElementById("table-status") || document.getElementById("replay-status");
    var live = document.getElementById("table-live");
    if (live && status) {
      var lead = Array.prototype.find.call(target.querySelectorAll(".trick-lead"), function (el) {
        return !el.closest("[hidden]");
      });
      live.textContent = status.textContent + (lead ? ". " + lead.textContent.trim() : "");
    }
    var next = target.id === "hand-table" && nextFocus && target.contains(nextFocus) ? nextFocus : null;
    nextFocus = null;
    var focus = next || status;
    if (focus) {
      focus.focus({ preventScroll: true });
    }
  }

  // The tables whose cards arrive one by one: their turn, and focus, are given when the last
  // card is shown (finish()), not when htmx settles them. A key can hurry the cards on before
  // htmx settles (20 ms after the swap, more on a busy machine): settling must not then take
  // focus from the decision to the status line.
  var arriving = new WeakSet();

  // The felt swapped in: a request's (#hand-table), a replay's step, or the live stream's
  // whole table (#people-table, the felt inside it).
  function feltOf(elt) {
    if (!elt || elt.id === "hand-table" || elt.id === "replay-step") {
      return elt;
    }
    return elt.id === "people-table" ? elt.querySelector("#hand-table") : null;
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    var swapped = event.detail && event.detail.elt;
    var target = feltOf(swapped);
    if (swapped && (swapped.id === "people-table" || swapped.id === "hand-table") &&
        document.querySelector("[data-table-stream]")) {
      yourTurn();
    }
    if (!target) {
      return;
    }
    if (arriving.has(target)) {
      arriving.delete(target);
      return;
    }
    if (quiet === target) {
      quiet = null;  // nothing new on the felt for this viewer: focus stays where it was
      return;
    }
    arrive(target);
  });

  // -- The computer players' cards arrive one after another ------------------------------
  // The server answers at once; the cards laid since your decision are shown one by one, at
  // the pace set in the table's pace form (#table-pace: a pause before each card, a hold on
  // a finished trick, or a wait until "Next trick" is pressed), none with
  // prefers-reduced-motion. Any key or click skips to the end (or to the finished trick the
  // player asked to keep), and does nothing else.
  //
  // Until the last card is shown, the rest of the page shows what it showed before the
  // request: the seat boxes, the centre's facts and the side panel (log, "Tricks so far",
  // settlement, actions) are the old ones, inert, and your hand cannot be used; the new ones
  // are put in place when the animation ends or is skipped.
  //
  // What a screen reader hears follows the felt too: while the cards arrive, focus is on the
  // "The others play…" line and the live region is emptied; a finished trick kept for "Next
  // trick" is announced with who took it ("Trick 2: West took it"); the new status line, and
  // who is winning the trick, only once the last card is shown (arrive()). The cards
  // themselves are not announced one by one (at a fast pace a screen reader would drop
  // them): they are in the trick and the log once the turn is back.
  var KEPT = ["#table-seats", ".centre-facts", ".table-panels"];
  var WAIT = "wait";
  var seen = null;
  var kept = null;
  var run = null;

  function pace() {
    var form = document.getElementById("table-pace");
    var number = function (name, fallback) {
      var value = form ? parseInt(form.getAttribute(name), 10) : NaN;
      return value >= 0 ? value : fallback;
    };
    var still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    return {
      pause: still ? 0 : number("data-pause", 450),
      hold: still ? 0 : number("data-hold", 1200),
      wait: !!form && form.hasAttribute("data-wait")
    };
  }

  // Every card the table has laid in this deal so far, the hidden last trick's too: it was
  // shown when it was played, and a request that completes no trick (a refused card) brings
  // it back hidden, so it must not arrive again.
  function shownCards() {
    var codes = {};
    document.querySelectorAll("#table-trick li[data-card], .single-cards li[data-card]").forEach(
      function (li) {
        codes[li.getAttribute("data-card")] = true;
      }
    );
    return codes;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    var table = elt && elt.closest && elt.closest("#hand-table");
    seen = table ? shownCards() : null;
  });

  // The felt about to be replaced: an animation under way ends at once, and the seats, the
  // centre and the panel are kept to stay until the new cards have arrived.
  function prepare(target) {
    if (run) {
      finish(true);
    }
    kept = {};
    KEPT.forEach(function (selector) {
      kept[selector] = target.querySelector(selector);
    });
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id === "hand-table") {
      prepare(target);
    }
  });

  // -- A table for people: its stream carries the table ----------------------------------
  // Each new version comes rendered (games/people/live.py) and is swapped in with no request
  // (htmx's SSE extension, sse-swap): the others' cards arrive one by one as after a request.
  // An event no newer than the table shown is dropped; "reload" loads the page again (the
  // viewer no longer holds his seat). While the stream is down the page says so; it may
  // have been refused (too many open at once): then the server's reason is shown.
  var quiet = null;
  var streamed = null;

  function statusText() {
    var status = document.getElementById("table-status");
    return status ? status.textContent.trim() : "";
  }

  // Where focus is in the table, to be found again in the new one (a card's button has no id).
  function focusKey() {
    var active = document.activeElement;
    var table = document.getElementById("people-table");
    if (!active || !table || !table.contains(active)) {
      return null;
    }
    if (active.id) {
      return "#" + CSS.escape(active.id);
    }
    var name = active.getAttribute("name");
    if (name) {
      var value = active.getAttribute("value");
      return active.tagName.toLowerCase() + '[name="' + CSS.escape(name) + '"]' +
        (value === null ? "" : '[value="' + CSS.escape(value) + '"]');
    }
    return null;
  }

  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    var elt = event.target;
    if (elt.hasAttribute("data-table-reload")) {
      event.preventDefault();
      window.location.reload();
      return;
    }
    if (!elt.hasAttribute("data-table-live")) {
      return;
    }
    var stream = elt.closest("[data-table-stream]");
    var version = parseInt(event.detail && event.detail.lastEventId, 10);
    var shown = parseInt(stream && stream.getAttribute("data-version"), 10);
    if (version <= shown) {
      event.preventDefault();
      return;
    }
    if (stream && version > 0) {
      stream.setAttribute("data-version", String(version));
    }
    var table = document.getElementById("hand-table");
    seen = table ? shownCards() : null;
    if (table) {
      prepare(table);
    }
    var alerts = table && table.querySelector(".alerts");
    streamed = { status: statusText(), focus: focusKey(), alerts: alerts && alerts.cloneNode(true) };
  });

  // "Your turn" in the tab's title while it is the viewer's (a background tab shows it).
  var TURN = "Your turn · ";

  function yourTurn() {
    var title = document.title.indexOf(TURN) === 0 ? document.title.slice(TURN.length) : document.title;
    var mine = /^Your turn/.test(statusText()) && !!document.querySelector("#hand-table .my-hand form");
    document.title = (mine ? TURN : "") + title;
  }

  function liveStatus(text) {
    var box = document.querySelector("[data-live-status]");
    if (box) {
      box.textContent = text || "Reconnecting…";
      box.hidden = !text;
    }
  }

  if (document.querySelector("[data-table-stream]")) {
    yourTurn();
  }

  document.addEventListener("htmx:sseOpen", function (event) {
    if (event.target.hasAttribute("data-table-stream")) {
      liveStatus("");
    }
  });

  document.addEventListener("htmx:sseError", function (event) {
    var stream = event.target;
    if (!stream.hasAttribute || !stream.hasAttribute("data-table-stream")) {
      return;
    }
    liveStatus("Reconnecting…");
    var source = event.detail && event.detail.source;
    if (!source || source.readyState !== 2 || !window.fetch) {
      return;  // the browser reconnects by itself
    }
    // Refused (the extension tries again, later and later): ask why.
    var url = stream.getAttribute("sse-connect") + "&check=1";
    window.fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 429) {
          return response.text().then(function (text) {
            liveStatus("Live updates are off on this page. " + text + " This page goes live " +
              "again by itself once one is closed; until then, reload it to see the table as it is now.");
          });
        }
      })
      .catch(function () {});
  });

  // The cards of ``root`` not shown before the request, hidden until their turn, and the
  // marks (who leads, who took it) that wait for them.
  function pending(root, before) {
    if (!root) {
      return null;
    }
    var added = Array.prototype.filter.call(root.querySelectorAll("li[data-card]"), function (li) {
      return !before[li.getAttribute("data-card")];
    });
    if (!added.length) {
      return null;
    }
    return {
      added: added,
      marks: Array.prototype.slice.call(root.querySelectorAll(
        ".trick-lead, .trick-cards__mark, .trick-taker, .single-cards__mark"
      )),
      winning: Array.prototype.slice.call(root.querySelectorAll(".is-winning"))
    };
  }

  // Whether a card not shown before comes in the new felt.
  function arrives(target, shown) {
    return !!shown && Array.prototype.some.call(
      target.querySelectorAll("#table-trick li[data-card], .single-cards li[data-card]"),
      function (li) { return !shown[li.getAttribute("data-card")]; }
    );
  }

  function conceal(group) {
    group.added.concat(group.marks).forEach(function (el) { el.classList.add("is-pending"); });
    group.winning.forEach(function (el) { el.classList.replace("is-winning", "was-winning"); });
  }

  // One step a card, then one for the marks: each after ``pause``.
  function arrivals(group, pause) {
    var steps = group.added.map(function (li) {
      return { delay: pause, show: function () { li.classList.remove("is-pending"); } };
    });
    steps.push({ delay: pause, show: function () {
      group.marks.forEach(function (el) { el.classList.remove("is-pending"); });
      group.winning.forEach(function (el) { el.classList.replace("was-winning", "is-winning"); });
    } });
    return steps;
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    var swapped = event.detail && event.detail.elt;
    var target = feltOf(swapped);
    var fromStream = swapped && swapped.id === "people-table" ? streamed : null;
    if (swapped && swapped.id === "people-table") {
      streamed = null;
    }
    if (!target || target.id !== "hand-table") {
      return;
    }
    nextFocus = target.querySelector("[autofocus]");
    target.querySelectorAll("[autofocus]").forEach(function (el) { el.removeAttribute("autofocus"); });
    var shown = seen;
    var old = kept;
    seen = null;
    kept = null;
    if (fromStream && !arrives(target, shown) && statusText() === fromStream.status) {
      // From the stream, and nothing new on this viewer's felt (his own play, already shown
      // by its request; someone away or back): focus stays, nothing is announced.
      quiet = target;
      // What his own decision's answer said stays (the stream's table says nothing to him).
      var alerts = target.querySelector(".alerts");
      if (alerts && !alerts.children.length && fromStream.alerts && fromStream.alerts.children.length) {
        alerts.replaceWith(fromStream.alerts);
      }
      var again = fromStream.focus && document.querySelector("#people-table " + fromStream.focus);
      if (again) {
        again.focus({ preventScroll: true });
      }
      return;
    }
    if (!shown) {
      return;
    }
    var before = shown;
    var speed = pace();
    var steps = [];
    var previous = target.querySelector("#table-trick .trick-previous");
    var current = target.querySelector("#table-trick .trick-current");
    var done = previous && current ? pending(previous, before) : null;
    var now = pending(current || target.querySelector("#table-trick"), before);
    // Peel's single deal: each player's card arrives face up, then who takes the pool.
    var single = pending(target.querySelector(".single-cards"), before);
    if (done) {
      steps = steps.concat(arrivals(done, speed.pause));
      if (speed.wait) {
        steps.push(WAIT);
      }
      steps.push({ delay: speed.wait ? 0 : speed.hold, show: function () {
        previous.hidden = true;
        current.hidden = false;
      } });
    }
    [now, single].forEach(function (group) {
      if (group) {
        steps = steps.concat(arrivals(group, speed.pause));
      }
    });
    if (!steps.length || !speed.pause && steps.indexOf(WAIT) < 0) {
      return;  // nothing arrives, or all at once: the new table as it is
    }
    steps[0].delay = 0;
    [done, now, single].forEach(function (group) { if (group) { conceal(group); } });
    if (done) {
      previous.hidden = false;
      current.hidden = true;
    }
    run = { target: target, steps: steps, pause: speed.pause, timer: null, swaps: [] };
    arriving.add(target);
    // The old seats, centre and panel stay until the last card, unless a card arrives there.
    KEPT.forEach(function (selector) {
      var fresh = target.querySelector(selector);
      var stale = old && old[selector];
      if (fresh && stale && !fresh.querySelector(".is-pending")) {
        fresh.replaceWith(stale);
        stale.inert = true;
        run.swaps.push([stale, fresh]);
      }
    });
    target.querySelectorAll(".my-hand").forEach(function (hand) {
      hand.inert = true;
      hand.classList.add("is-waiting");
    });
    var status = target.querySelector("#table-status");
    if (status) {
      var wait = document.createElement("p");
      wait.className = "table-status table-status--wait";
      wait.tabIndex = -1;
      wait.textContent = "The others play…";
      status.before(wait);
      status.hidden = true;
      wait.focus({ preventScroll: true });
    }
    var live = document.getElementById("table-live");
    if (live) {
      live.textContent = "";
    }
    listen(true);
    if (speed.pause) {
      advance();
    } else {
      skip();
    }
  });

  // The next step now, and the one after it in its time.
  function advance() {
    run.timer = null;
    var step = run.steps.shift();
    if (step === WAIT) {
      return waitForNextTrick();
    }
    if (step) {
      step.show();
    }
    if (!run.steps.length) {
      return finish(false);
    }
    var next = run.steps[0];
    run.timer = setTimeout(advance, next === WAIT ? run.pause : next.delay);
  }

  // A key or a click: everything up to the trick the player keeps, or to the end, at once.
  function skip() {
    clearTimeout(run.timer);
    run.timer = null;
    while (run.steps.length && run.steps[0] !== WAIT) {
      run.steps.shift().show();
    }
    if (run.steps.length) {
      run.steps.shift();
      waitForNextTrick();
    } else {
      finish(false);
    }
  }

  // The finished trick stays until "Next trick" is pressed: a real button, focused; keys and
  // clicks act normally meanwhile (only this button is live on the felt).
  function waitForNextTrick() {
    listen(false);
    var previous = run.target.querySelector("#table-trick .trick-previous");
    var button = document.createElement("button");
    button.type = "button";
    button.className = "trick-next-button";
    button.textContent = "Next trick";
    button.addEventListener("click", function () {
      button.remove();
      var wait = run.target.querySelector(".table-status--wait");
      if (wait) {
        wait.focus({ preventScroll: true });
      }
      listen(true);
      if (run.pause) {
        advance();
      } else {
        skip();
      }
    });
    (previous || run.target.querySelector("#table-trick") || run.target).append(button);
    var taker = previous && previous.querySelector(".trick-taker");
    var live = document.getElementById("table-live");
    if (live && taker && taker.parentElement) {
      live.textContent = taker.parentElement.textContent.trim();
    }
    button.focus({ preventScroll: true });
  }

  // The last card is shown: the new seats and panel, your turn, focus on your decision.
  // ``quiet``: a new table is about to replace this one (nothing to announce or focus).
  function finish(quiet) {
    if (!run) {
      return;
    }
    var ending = run;
    clearTimeout(ending.timer);
    listen(false);
    ending.steps.forEach(function (step) { if (step !== WAIT) { step.show(); } });
    run = null;
    var target = ending.target;
    target.querySelectorAll(".trick-next-button, .table-status--wait").forEach(function (el) {
      el.remove();
    });
    ending.swaps.forEach(function (pair) {
      pair[0].replaceWith(pair[1]);
      // htmx processed the table while these were out of it: their forms are htmx's now.
      if (window.htmx) {
        window.htmx.process(pair[1]);
      }
    });
    target.querySelectorAll(".my-hand").forEach(function (hand) {
      hand.inert = false;
      hand.classList.remove("is-waiting");
    });
    var status = target.querySelector("#table-status");
    if (status) {
      status.hidden = false;
    }
    if (!quiet && document.body.contains(target)) {
      arrive(target);
    }
  }

  // While the cards arrive, a key or a click skips them and is swallowed (capture phase), so
  // that it never also acts on a control: Enter must not play the card that focus reaches
  // next. The keyup of a swallowed key, and its repeats while held, are swallowed too. Keys
  // with Ctrl, Alt or Meta (the browser's own shortcuts) skip but are let through.
  var held = {};

  function swallow(event) {
    event.preventDefault();
    event.stopPropagation();
  }

  function onKeyDown(event) {
    if (["Shift", "Control", "Alt", "Meta", "CapsLock"].indexOf(event.key) >= 0) {
      return;
    }
    if (!(event.ctrlKey || event.altKey || event.metaKey)) {
      held[event.key] = true;
      swallow(event);
    }
    skip();
  }

  function onClick(event) {
    swallow(event);
    skip();
  }

  function listen(on) {
    var method = on ? "addEventListener" : "removeEventListener";
    document[method]("keydown", onKeyDown, true);
    document[method]("click", onClick, true);
  }

  // Always listening: a key swallowed while the cards arrived is still swallowed when it
  // repeats or is released after they have (or while "Next trick" waits).
  document.addEventListener("keydown", function (event) {
    if (held[event.key] && event.repeat) {
      swallow(event);
    }
  }, true);
  document.addEventListener("keyup", function (event) {
    if (held[event.key]) {
      delete held[event.key];
      swallow(event);
    }
  }, true);

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
