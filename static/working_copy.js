// The workspace's working copy in Pyodide's file system (app/browser/working_copy.py, decision
// 035). Its bytes live in the file node's own buffer, outside WebAssembly's memory. Three things
// the file system does not offer are done here, on MEMFS's file operations:
// - a loaded snapshot becomes the file without being copied, with room to grow (MEMFS copies
//   the whole file into a new buffer 1/8 larger whenever a write passes its end, and into one
//   of exactly the new size whenever the file shrinks, as a rolled-back transaction does);
// - an image of one moment is read a piece at a time over many tasks: before a write (or a
//   truncation) changes a piece not read yet, that piece's bytes are kept (copy on write), so
//   no task copies the whole file.

const roomy = new WeakSet(); // nodes placed here: their size changes keep the buffer
const watchers = new WeakMap(); // node -> Set of (from, to) callbacks, run before bytes change
let installed = false;

function changing(node, from, to) {
  for (const watcher of watchers.get(node) ?? []) watcher(from, to);
}

function install(FS) {
  if (installed) return;
  installed = true;
  const MEMFS = FS.filesystems.MEMFS;
  const ops = MEMFS.ops_table.file; // made with the first file, which place() has just written
  const write = ops.stream.write;
  ops.stream.write = (stream, buffer, offset, length, position, canOwn) => {
    if (length > 0) changing(stream.node, position, position + length);
    return write(stream, buffer, offset, length, position, canOwn);
  };
  const setattr = ops.node.setattr;
  ops.node.setattr = (node, attr) => {
    if (attr.size === undefined || !roomy.has(node)) return setattr(node, attr);
    const size = attr.size;
    if (size < node.usedBytes) {
      changing(node, size, node.usedBytes);
      // Bytes past the end stay zero, as a file's must when it grows again.
      node.contents.fill(0, size, node.usedBytes);
    } else {
      MEMFS.expandFileStorage(node, size);
    }
    node.usedBytes = size;
    const rest = { ...attr };
    delete rest.size;
    return setattr(node, rest);
  };
}

// Make `buffer`'s first `length` bytes the file at `path`, taking the buffer itself when it
// has `capacity` bytes (copying it into one that has otherwise). Past `length` it must hold
// zeros, as a new buffer does.
export function place(FS, path, buffer, length, capacity) {
  FS.writeFile(path, new Uint8Array(0));
  install(FS);
  const node = FS.lookupPath(path).node;
  let contents = buffer;
  if (buffer.length < capacity) {
    contents = new Uint8Array(capacity);
    contents.set(buffer.subarray(0, length));
  }
  node.contents = contents;
  node.usedBytes = length;
  roomy.add(node);
}

// The file at `path` as it is now, read in pieces of `pieceBytes`, whatever is written after.
export function image(FS, path, pieceBytes) {
  const node = FS.lookupPath(path).node;
  const length = node.usedBytes;
  const count = Math.max(1, Math.ceil(length / pieceBytes));
  const kept = new Map();
  let next = 0; // pieces before this one have been read: they need not be kept
  const copy = (index) =>
    node.contents.slice(index * pieceBytes, Math.min(length, (index + 1) * pieceBytes));
  const watcher = (from, to) => {
    const first = Math.max(next, Math.floor(from / pieceBytes));
    for (let index = first; index < count && index * pieceBytes < to; index++) {
      if (!kept.has(index)) kept.set(index, copy(index));
    }
  };
  if (!watchers.has(node)) watchers.set(node, new Set());
  watchers.get(node).add(watcher);
  return {
    length,
    get kept() {
      return kept.size; // pieces copied before a write changed them, not read yet
    },
    piece(index) {
      const piece = kept.get(index) ?? copy(index);
      kept.delete(index);
      next = Math.max(next, index + 1);
      return piece;
    },
    close() {
      watchers.get(node)?.delete(watcher);
      kept.clear();
    },
  };
}
