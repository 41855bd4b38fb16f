"""Views for reading rules and sources, and for classes and quizzes."""
