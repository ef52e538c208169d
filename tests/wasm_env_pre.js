// Passes the variables the tests read (FRESHET_SEED) from node's environment
// into the wasm program's: Emscripten's getenv() does not see process.env.
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  if (typeof process !== 'undefined' && process.env.FRESHET_SEED) ENV['FRESHET_SEED'] = process.env.FRESHET_SEED;
});
