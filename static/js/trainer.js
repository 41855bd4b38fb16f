// The rule trainer, the lessons and the quizzes with htmx: after an answer or a new question is swapped in, put the focus
// on what to read next (the verdict, or the new question's prompt), and say when a request
// fails. Without JavaScript none of this runs: the forms post and redirect.
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

  document.addEventListener("htmx:sendError", function () {
    showError("The server could not be reached. Check the connection and try again.");
  });
})();
