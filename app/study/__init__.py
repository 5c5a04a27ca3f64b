"""Studying the collection: scheduling (FSRS-6), the session engine, answer grading and stats."""
