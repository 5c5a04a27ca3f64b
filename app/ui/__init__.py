"""User-interface layer: a safe element tree (nodes) and the views built from it."""
