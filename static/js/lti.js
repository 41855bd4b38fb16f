// The deep-linking answer goes back to the platform at once; without JavaScript its button does.
document.addEventListener("DOMContentLoaded", () => {
  const form = document.querySelector("form[data-lti-autosubmit]");
  if (form) form.submit();
});
