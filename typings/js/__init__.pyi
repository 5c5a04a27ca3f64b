"""The browser's global scope as Pyodide exposes it (`import js`): the names Lexical uses.

Each is a JS object proxy, typed Any (a proxy has no static shape); declaring the names still
catches a misspelt global before the page does.
"""

from typing import Any

AbortController: Any
Array: Any
Audio: Any
AudioContext: Any
Blob: Any
BroadcastChannel: Any
Date: Any
Error: Any
FormData: Any
Function: Any
IDBKeyRange: Any
JSON: Any
MediaRecorder: Any
Object: Any
OfflineAudioContext: Any
Promise: Any
URL: Any
Uint8Array: Any
console: Any
crypto: Any
document: Any
fetch: Any
history: Any
indexedDB: Any
localStorage: Any
sessionStorage: Any
location: Any
navigator: Any
performance: Any
requestAnimationFrame: Any
setTimeout: Any
clearTimeout: Any
setInterval: Any
clearInterval: Any
window: Any
