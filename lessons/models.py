"""Sources, passages, rule pages, lessons and quizzes will live here."""
