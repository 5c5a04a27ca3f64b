"""Sync (issue 27, decision 040): how a collection maps onto a CRDT document, written against an
engine-agnostic interface, and the adapter between the store's changesets and the document."""
