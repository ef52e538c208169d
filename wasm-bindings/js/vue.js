// freshet/vue: a pipeline's live views as Vue refs.
//
// useLiveQuery() opens one LiveView (p.live()) for the current pipeline, view
// and options, copies what it holds into shallow refs after each of its
// notifications, reopens it when any argument that is a ref changes, and
// closes it when the calling component unmounts (or its effect scope stops).
//
// Vue is a peer dependency: this file imports it and the app brings it.
import { computed, getCurrentScope, markRaw, shallowRef, toRaw, unref, watch } from 'vue';

import { FreshetError } from './errors.js';

const NO_ROWS = Object.freeze([]);

/**
 * The rows of a view, kept up to date, as refs: `{ rows, status, isReady,
 * error, changes }`. `pipeline`, `view` and `options` may each be a ref (or a
 * getter); a null or undefined pipeline leaves the query 'loading'.
 * Call it in setup() or inside an effectScope().
 * @param {unknown} pipeline a Pipeline, or a ref/getter of one (or of null)
 * @param {unknown} view a view name, or a ref/getter of one
 * @param {unknown} [options] `{ index?, key? }`, or a ref/getter of it
 */
export function useLiveQuery(pipeline, view, options) {
  if (!getCurrentScope()) {
    throw new FreshetError('INVALID_ARGUMENT',
      'freshet/vue useLiveQuery: call it in setup() or inside an effectScope(), which closes its live view');
  }
  const rows = shallowRef(NO_ROWS);
  const status = shallowRef('loading');
  const error = shallowRef(null);
  const changes = shallowRef(null);
  const isReady = computed(() => status.value === 'ready');

  /** Copies the LiveView's state into the refs (rows stay frozen and non-reactive). */
  const show = (live) => {
    rows.value = markRaw(live.current);
    status.value = live.status;
    error.value = live.error ? markRaw(live.error) : null;
    changes.value = live.changes ? markRaw(live.changes) : null;
  };

  // Three sources compared one by one: a new options object with the same
  // values, or the same pipeline again, does not reopen the live view.
  const sources = [() => toRaw(read(pipeline)), () => read(view), () => queryIdentity(read(view), read(options))];
  watch(sources, ([source, name], _, onCleanup) => {
    rows.value = NO_ROWS;
    status.value = 'loading';
    error.value = null;
    changes.value = null;
    if (!source) return;
    let live;
    try {
      live = source.live(name, liveOptions(read(options)));
    } catch (failure) {
      status.value = 'error';
      error.value = markRaw(failure);
      return;
    }
    const stopListening = live.listen(() => show(live));
    show(live);
    onCleanup(() => {
      stopListening();
      live.close();
    });
  }, { immediate: true });
  // The watcher stops with the scope (the component's, on unmount), and
  // stopping runs its last cleanup, which closes the live view.

  return { rows, status, isReady, error, changes };
}

/** A ref's or getter's value, or the value itself (a Pipeline in a ref(): the raw one, whose private fields a proxy would hide). */
function read(value) {
  return typeof value === 'function' ? value() : unref(value);
}

/** What makes two queries the same: the view and the options' values. */
function queryIdentity(view, options) {
  if (typeof view !== 'string' || view === '') {
    throw new FreshetError('INVALID_ARGUMENT', `freshet/vue useLiveQuery: the view is a non-empty string, not ${JSON.stringify(view)}`);
  }
  return JSON.stringify([view, options?.index ?? null, options?.key ?? null]);
}

/** Only the options a LiveView takes, without undefined entries. */
function liveOptions(options) {
  const out = {};
  if (options?.index !== undefined) out.index = options.index;
  if (options?.key !== undefined) out.key = options.key;
  return out;
}
