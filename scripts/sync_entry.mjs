// The one module scripts/vendor.py bundles from the pinned yjs, y-websocket, y-protocols and lib0
// (decision 041): Yjs and its websocket provider in one file, so both use one copy of Yjs (two
// copies break its type checks) and the page needs no import map. static/sync.js loads it.
export * as Y from "yjs";
export { WebsocketProvider } from "y-websocket";
