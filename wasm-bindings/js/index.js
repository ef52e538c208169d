// What every entry point (node.js, browser.js, workerd.js) exports.
export { Pipeline } from './pipeline.js';
export { warmUp } from './warm_up.js';
export { FreshetError, ERROR_CODES } from './errors.js';
export { MapSink } from './sinks/map_sink.js';
export { callbackSink } from './sinks/callback_sink.js';
export { MemoryStorage } from './storages/memory_storage.js';
export { IndexedDBStorage } from './storages/indexeddb_storage.js';
export { KVStorage } from './storages/kv_storage.js';
export { DurableObjectStorage } from './storages/durable_object_storage.js';
export { IndexedDBSink } from './sinks/indexeddb_sink.js';
export { KVSink } from './sinks/kv_sink.js';
