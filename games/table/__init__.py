"""The table page both kinds of table show (a practice table, a table for people): its typed
page model, the one presenter that builds it from a player's view, and the decision form."""
