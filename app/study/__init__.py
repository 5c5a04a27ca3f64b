"""The rules of studying, kept free of the store that saves their results: card state and
options, scheduling (FSRS-6), intervals, study days and answer grading (typed and spoken)."""
