"""Agents (Architect, Scholar), the router and the tool loop."""
