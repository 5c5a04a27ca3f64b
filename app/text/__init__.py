"""Text processing: safe Markdown rendering and plain-text extraction."""
