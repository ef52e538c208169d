// npm run typecheck: freshet/react and freshet/vue as an app uses them.
import { createElement } from 'react';
import { shallowRef } from 'vue';

import { Pipeline, type FreshetError, type LiveStatus } from 'freshet';
import { FreshetProvider, useLiveQuery, usePipeline } from 'freshet/react';
import { useLiveQuery as useVueLiveQuery } from 'freshet/vue';

type Region = { region: string | null; orders: number; total: number | null };

export function Regions(props: { pipeline: Pipeline | null }) {
  const { rows, status, isReady, error, changes } = useLiveQuery<Region>(props.pipeline, 'by_region', { key: 'region' });
  const first: string | null | undefined = rows[0]?.region;
  const s: LiveStatus = status;
  const e: FreshetError | null = error;
  const ready: boolean = isReady;
  const step: number | undefined = changes?.step;
  const pipeline: Pipeline | null = usePipeline();
  return createElement(FreshetProvider, { pipeline }, `${first} ${s} ${e?.code} ${ready} ${step}`);
}

export function vueSetup(pipeline: Pipeline) {
  const view = shallowRef('by_region');
  const { rows, isReady, changes } = useVueLiveQuery<Region>(() => pipeline, view, { index: 'by_region_idx' });
  const total: number | null | undefined = rows.value[0]?.total;
  return { total, ready: isReady.value as boolean, changes: changes.value };
}
