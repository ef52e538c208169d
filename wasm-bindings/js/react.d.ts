// Types of `freshet/react`: live views as React state (React >= 18 is a peer
// dependency; its types come from @types/react).
import type { ReactNode } from 'react';

import type { FreshetError, LiveChanges, LiveKeyedChanges, LiveOptions, LiveStatus, Pipeline, Row } from './index.js';

/** What useLiveQuery returns; a new object only when the view notified. */
export interface LiveQueryResult<R extends Row = Row> {
  /** The view's rows (frozen; a row that did not change keeps its identity). Empty while loading. */
  rows: readonly Readonly<R>[];
  status: LiveStatus;
  /** status === 'ready': the snapshot has arrived (also for an empty view). */
  isReady: boolean;
  error: FreshetError | null;
  /** The last step's changes (inserts/deletes, or upserts/deletes with `index`/`key`). */
  changes: LiveChanges | LiveKeyedChanges | null;
}

/**
 * Keeps `view` of `pipeline` (or, when it is null or undefined, of the nearest
 * FreshetProvider's pipeline) up to date; 'loading' while there is no pipeline.
 * Opens one live view while mounted (also under StrictMode) and closes it on unmount.
 */
export function useLiveQuery<R extends Row = Row>(
  pipeline: Pipeline | null | undefined, view: string, options?: LiveOptions): LiveQueryResult<R>;

/** Makes `pipeline` (null while it is being created) the one useLiveQuery(null, ...) and usePipeline() use below. */
export function FreshetProvider(props: { pipeline: Pipeline | null | undefined; children?: ReactNode }): ReactNode;

/** The nearest FreshetProvider's pipeline, or null. */
export function usePipeline(): Pipeline | null;
