"""The browser adapter: the only package (with app/main.py) that touches js, pyodide or pyscript."""
