// The rule trainer, the lessons and the quizzes with htmx: after an answer or a new question is swapped in, put the focus
// on what to read next (the verdict, or the new question's prompt), and say when a request
// fails; on the trainer's chooser, disable what the rule set chosen does not have. Without
// JavaScript none of this runs: the forms post and redirect, and the options' labels say
// where each exists.
(function () {
  "use strict";

  document.addEventListener("htmx:afterSettle", function () {
    // The trainer's question, a lesson's steps (templates/course/lesson.html), or a quiz's
    // question (templates/quizzes/attempt.html).
    var panel =
      document.getElementById("trainer-question") ||
      document.getElementById("lesson-steps") ||
      document.getElementById("attempt-question");
    var target = panel && panel.querySelector("[data-focus-after-swap]");
    if (target && !panel.contains(document.activeElement)) {
      target.focus();
    }
  });

  function showError(text) {
    var box = document.getElementById("trainer-request-error");
    if (!box) {
      window.alert(text);
      return;
    }
    box.textContent = text;
    box.hidden = false;
    box.focus();
  }

  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    var text = xhr && xhr.responseText && xhr.responseText.length < 500
      ? xhr.responseText
      : "The request failed. Reload the page and try again.";
    showError(text);
  });

  // The trainer's chooser: a game, a kind of question or a group of rules that the rule set
  // chosen (and the game) does not have is disabled, and one chosen gives way to the first that exists. Each
  // option says where it exists in its data-where ("rules/game" pairs) and in its label, so
  // that without this script the learner still reads it (and the server refuses it plainly).
  function offers(option, place) {
    var where = option.getAttribute("data-where");
    return where === null || where.split(" ").indexOf(place) !== -1;
  }

  function narrow(select, placeOf) {
    var kept = null;
    Array.prototype.forEach.call(select.options, function (option) {
      option.disabled = !offers(option, placeOf(option));
      if (!option.disabled && kept === null) {
        kept = option;
      }
    });
    var chosen = select.options[select.selectedIndex];
    if (chosen && chosen.disabled && kept) {
      kept.selected = true;
    }
  }

  function filterDrill(form) {
    var rules = form.elements.namedItem("rules");
    var game = form.elements.namedItem("game");
    var kind = form.elements.namedItem("kind");
    if (!rules || !game || !kind) {
      return;
    }
    narrow(game, function (option) {
      return rules.value + "/" + option.value;
    });
    narrow(kind, function () {
      return rules.value + "/" + game.value;
    });
    // A group or a rule that no question about the play asks about here; with a kind
    // named (the source questions ask about more), the server says what it lacks.
    var scope = form.elements.namedItem("scope");
    if (scope && kind.value === "") {
      narrow(scope, function () {
        return rules.value + "/" + game.value;
      });
    } else if (scope) {
      Array.prototype.forEach.call(scope.options, function (option) {
        option.disabled = false;
      });
    }
  }

  function setUpDrill() {
    var form = document.querySelector("form.drill-form");
    if (!form) {
      return;
    }
    filterDrill(form);
    form.addEventListener("change", function () {
      filterDrill(form);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUpDrill);
  } else {
    setUpDrill();
  }

  document.addEventListener("htmx:sendError", function () {
    showError("The server could not be reached. Check the connection and try again.");
  });
})();
