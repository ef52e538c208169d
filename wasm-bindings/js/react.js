// freshet/react: a pipeline's live views as React state.
//
// useLiveQuery() keeps one LiveView (p.live()) open while the component is
// mounted and reads it through useSyncExternalStore, so React sees one
// consistent value per render and re-renders once per step that changed the
// view. The LiveView is opened in an effect, never during render: render
// only reads values the LiveView already holds. Under StrictMode the effect
// runs, is cleaned up and runs again; the cleanup closes the first LiveView,
// so one egress stream is left open, as in production.
//
// React is a peer dependency: this file imports it and the app brings it.
import { createContext, createElement, useContext, useEffect, useState, useSyncExternalStore } from 'react';

import { FreshetError } from './errors.js';

const PipelineContext = createContext(null);

/** No rows yet: one frozen array, so a loading query keeps the same `rows`. */
const NO_ROWS = Object.freeze([]);
const LOADING = Object.freeze({ rows: NO_ROWS, status: 'loading', isReady: false, error: null, changes: null });
const noSubscription = () => () => {};

/**
 * Makes `pipeline` the one useLiveQuery(null, ...) and usePipeline() find
 * below it. `pipeline` may be null while it is being created.
 * @param {{ pipeline: import('./index.js').Pipeline | null | undefined, children?: unknown }} props
 */
export function FreshetProvider({ pipeline, children }) {
  return createElement(PipelineContext.Provider, { value: pipeline ?? null }, children);
}

/** The pipeline of the nearest FreshetProvider, or null (none, or none yet). */
export function usePipeline() {
  return useContext(PipelineContext);
}

/**
 * The rows of a view, kept up to date: `{ rows, status, isReady, error, changes }`.
 * `rows` is the LiveView's `current` (frozen rows; an unchanged row keeps its
 * identity). A null or undefined `pipeline` means the FreshetProvider's;
 * while there is none the status is 'loading'.
 * @param {import('./index.js').Pipeline | null | undefined} pipeline
 * @param {string} view
 * @param {{ index?: string, key?: string | string[] }} [options]
 */
export function useLiveQuery(pipeline, view, options) {
  const provided = useContext(PipelineContext);
  const source = pipeline ?? provided;
  const identity = queryIdentity(view, options);
  const [opened, setOpened] = useState(null);

  useEffect(() => {
    if (!source) return undefined;
    const store = openStore(source, view, options);
    setOpened({ source, identity, store });
    return () => store.close();
    // `identity` stands for view and options: a new options object with the
    // same values, as each render makes, must not reopen the live view.
  }, [source, identity]);

  // An opened store of an earlier pipeline or query is not this render's: until
  // the effect opens the new one, the query is loading.
  const store = opened && opened.source === source && opened.identity === identity ? opened.store : null;
  return useSyncExternalStore(store ? store.subscribe : noSubscription, store ? store.getSnapshot : loading, loading);
}

function loading() {
  return LOADING;
}

/** What makes two calls the same query: the view and the options' values. */
function queryIdentity(view, options) {
  if (typeof view !== 'string' || view === '') {
    throw new FreshetError('INVALID_ARGUMENT', `freshet/react useLiveQuery: the view is a non-empty string, not ${JSON.stringify(view)}`);
  }
  return JSON.stringify([view, options?.index ?? null, options?.key ?? null]);
}

/**
 * A LiveView adapted to useSyncExternalStore: getSnapshot returns the same
 * object until the LiveView notifies, so React can compare by identity.
 * A LiveView that cannot be opened (a closed pipeline, say) is an error value.
 */
function openStore(pipeline, view, options) {
  let live;
  try {
    live = pipeline.live(view, liveOptions(options));
  } catch (error) {
    const failed = Object.freeze({ rows: NO_ROWS, status: 'error', isReady: false, error, changes: null });
    return { subscribe: noSubscription, getSnapshot: () => failed, close() {} };
  }
  let value = LOADING;
  let seen = -1;
  return {
    subscribe: (notify) => live.listen(notify),
    getSnapshot() {
      // version counts notifications; status is compared too so a transition
      // is never missed whatever notified it.
      if (live.version !== seen || live.status !== value.status) {
        seen = live.version;
        const status = live.status;
        value = Object.freeze({
          rows: live.current,
          status,
          isReady: status === 'ready',
          error: live.error,
          changes: live.changes,
        });
      }
      return value;
    },
    close: () => live.close(),
  };
}

/** Only the options a LiveView takes, without undefined entries. */
function liveOptions(options) {
  const out = {};
  if (options?.index !== undefined) out.index = options.index;
  if (options?.key !== undefined) out.key = options.key;
  return out;
}
