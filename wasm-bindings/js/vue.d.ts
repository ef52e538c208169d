// Types of `freshet/vue`: live views as Vue refs (Vue 3 is a peer dependency).
import type { MaybeRefOrGetter, Ref } from 'vue';

import type { FreshetError, LiveChanges, LiveKeyedChanges, LiveOptions, LiveStatus, Pipeline, Row } from './index.js';

/** What useLiveQuery returns: refs, updated once per notification of the view. */
export interface LiveQueryRefs<R extends Row = Row> {
  /** The view's rows (frozen, not deeply reactive; a row that did not change keeps its identity). */
  rows: Readonly<Ref<readonly Readonly<R>[]>>;
  status: Readonly<Ref<LiveStatus>>;
  /** status === 'ready'. */
  isReady: Readonly<Ref<boolean>>;
  error: Readonly<Ref<FreshetError | null>>;
  changes: Readonly<Ref<LiveChanges | LiveKeyedChanges | null>>;
}

/**
 * Keeps `view` of `pipeline` up to date. Each argument may be a ref or a
 * getter: a change reopens the live view. A null or undefined pipeline leaves
 * it 'loading'. Call it in setup() or an effectScope(): the live view closes
 * when the component unmounts or the scope stops.
 */
export function useLiveQuery<R extends Row = Row>(
  pipeline: MaybeRefOrGetter<Pipeline | null | undefined>,
  view: MaybeRefOrGetter<string>,
  options?: MaybeRefOrGetter<LiveOptions | undefined>): LiveQueryRefs<R>;
