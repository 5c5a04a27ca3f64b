"""The tool registry and the workspace tools the agents call."""
