// What every entry point (node.js, browser.js, workerd.js) exports.
export { Pipeline } from './pipeline.js';
export { FreshetError, ERROR_CODES } from './errors.js';
export { MapSink } from './sinks/map_sink.js';
export { callbackSink } from './sinks/callback_sink.js';
