// Links that open a rule or a glossary entry in place (lessons/markup.py): the link says it is
// expanded once its card has come, and the card's Close button empties the slot and puts the
// focus back on the link. Here rather than in hx-on attributes, which htmx runs through eval
// and the Content-Security-Policy forbids. Without JavaScript the links are plain links.
(function () {
  "use strict";

  document.addEventListener("htmx:afterRequest", function (event) {
    var link = event.detail && event.detail.elt;
    if (link && link.matches && link.matches("a.ref[aria-controls]")) {
      link.setAttribute("aria-expanded", "true");
    }
  });

  document.addEventListener("click", function (event) {
    var button = event.target instanceof Element && event.target.closest(".inline-card__close");
    var slot = button && button.closest(".ref-slot");
    if (!slot) {
      return;
    }
    var link = slot.previousElementSibling;
    link.setAttribute("aria-expanded", "false");
    link.focus();
    slot.replaceChildren();
  });
})();
