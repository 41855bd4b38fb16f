"""Quizzes, assignments, attempts and answers (issue 15): being built."""
