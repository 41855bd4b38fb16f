// An attempt with htmx: after an answer swaps in the next question (or the verdict), put the
// focus on what to read next. Failed requests are said by trainer.js. Without JavaScript the
// forms post and redirect, and none of this runs.
document.addEventListener("htmx:afterSettle", function () {
  var panel = document.getElementById("attempt-question");
  var target = panel && panel.querySelector("[data-focus-after-swap]");
  if (target && !panel.contains(document.activeElement)) target.focus();
});
