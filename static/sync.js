// The page's side of sync (decision 041): Yjs and its websocket provider (vendored as one module,
// loaded only when sync is turned on) behind the few calls app/browser/yjs_engine.py makes, so
// the Python side handles plain strings, lists and callbacks instead of Yjs's classes.
import { Y, WebsocketProvider } from "./vendor/yjs/yjs-sync.mjs";

export function newDoc() {
  return new Y.Doc();
}

export function root(doc, name) {
  return doc.getMap(name);
}

// What a map holds at `key`: "map", "text", "list", "string" or "" (nothing or something else).
export function kind(value) {
  if (value instanceof Y.Map) return "map";
  if (value instanceof Y.Text) return "text";
  if (value instanceof Y.Array) return "list";
  return typeof value === "string" ? "string" : "";
}

export function setNew(map, key, type, value) {
  const made = type === "map" ? new Y.Map() : type === "text" ? new Y.Text(value) : Y.Array.from(value);
  map.set(key, made);
  return made;
}

export function keys(map) {
  return Array.from(map.keys());
}

// Of each key (a JSON list) of `map`: null, or what its nested map holds, as JSON
// [{key: string}, {key: text's value}, {key: list's items}] (app/sync/engine.py MapContents).
export function contents(map, keysJson) {
  return JSON.stringify(
    JSON.parse(keysJson).map((key) => {
      const row = map.get(key);
      if (!(row instanceof Y.Map)) return null;
      const strings = {}, texts = {}, lists = {};
      row.forEach((value, name) => {
        if (typeof value === "string") strings[name] = value;
        else if (value instanceof Y.Text) texts[name] = value.toString();
        else if (value instanceof Y.Array) lists[name] = value.toArray().map(String);
      });
      return [strings, texts, lists];
    }),
  );
}

// Of each key (a JSON list) of `map`: its value when it is a string, else null; as JSON.
export function textValues(map, keysJson) {
  return JSON.stringify(
    JSON.parse(keysJson).map((key) => {
      const value = map.get(key);
      return typeof value === "string" ? value : null;
    }),
  );
}

export function listItems(list) {
  return list.toArray().map(String);
}

// Yjs has no public begin/end of a transaction, only transact(doc, f): the Python side writes in a
// `with` block, so begin makes the transaction transact would, and end hands its state to a real
// transact, whose cleanup then sends one update and calls the observers as for any transaction.
export function begin(doc) {
  if (doc._transaction !== null) return false; // nested: joins the open one
  Y.transact(doc, () => {}); // settles any pending cleanup first
  doc._transaction = new Y.Transaction(doc, null, true);
  return true;
}

export function end(doc) {
  const open = doc._transaction;
  doc._transaction = null;
  Y.transact(doc, (transaction) => Object.assign(transaction, open));
}

export function encodeState(doc) {
  return Y.encodeStateAsUpdate(doc);
}

export function applyUpdate(doc, update) {
  Y.applyUpdate(doc, update, "remote");
}

export function onLocalUpdate(doc, callback) {
  doc.on("update", (update, origin, _doc, transaction) => {
    if (transaction.local) callback(update);
  });
}

// callback('[[root, key], ...]') with the rows each transaction from elsewhere touched, as JSON:
// a first sync touches every row, and one text crosses into Python faster than 200,000 arrays.
export function onRemoteChange(doc, names, callback) {
  for (const name of names) {
    doc.getMap(name).observeDeep((events, transaction) => {
      if (transaction.local) return;
      const touched = [];
      for (const event of events) {
        if (event.path.length) touched.push([name, String(event.path[0])]);
        else for (const key of event.keysChanged) touched.push([name, key]);
      }
      if (touched.length) callback(JSON.stringify(touched));
    });
  }
}

// The provider on room `room`; onStatus("connected" | "connecting" | "disconnected", synced).
export function connect(server, room, doc, onStatus) {
  const provider = new WebsocketProvider(server, room, doc);
  const report = () => onStatus(provider.wsconnected ? "connected" : provider.wsconnecting ? "connecting" : "disconnected", provider.synced);
  provider.on("status", report);
  provider.on("sync", report);
  // A failed attempt to reach the server again emits no "status" (only losing an open
  // connection does), and the provider still counts as connecting while this event runs.
  // 1009: the server refused a message over its size limit (scripts/sync_server.py).
  provider.on("connection-close", (event) => onStatus(event?.code === 1009 ? "refused" : "disconnected", false));
  return provider;
}

// The document as this device last had it, kept in IndexedDB (database `name`, one per sync
// code) as the updates it was built from: every update, local or from the server, is added as it
// happens, and a restore folds them into one. Without it a reload starts from an empty document
// and the adapter writes every row into it afresh: once the server's copy arrives, each row's two
// versions compete as wholes and one is dropped, which loses what this device changed offline
// before the reload (or what the others changed meanwhile).
function opened(name) {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => request.result.createObjectStore("updates", { autoIncrement: true });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function done(transaction) {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = transaction.onabort = () => reject(transaction.error);
  });
}

// Apply the kept updates to `doc` (before anything observes it), keep them as one, and from now
// on add each update of `doc`. Resolves to the number of updates it found.
export async function restore(doc, name) {
  const db = await opened(name);
  const reading = db.transaction("updates", "readonly");
  const stored = reading.objectStore("updates").getAll();
  await done(reading);
  const updates = stored.result;
  if (updates.length) {
    Y.transact(doc, () => updates.forEach((update) => Y.applyUpdate(doc, update)), "stored");
  }
  if (updates.length > 1) {
    const folding = db.transaction("updates", "readwrite");
    folding.objectStore("updates").clear();
    folding.objectStore("updates").add(Y.encodeStateAsUpdate(doc));
    await done(folding);
  }
  doc.on("update", (update) => {
    db.transaction("updates", "readwrite").objectStore("updates").add(update);
  });
  return updates.length;
}

