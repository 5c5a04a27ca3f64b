"""Text every layer shows or searches: folding for search, counts in words, the safe node tree
that views are built from, and Markdown rendered into it or read as plain text."""
